"""The private chat: bad and stale presses, 托管, [我的牌], blocked chats, turn warnings."""

from __future__ import annotations

import logging

import pytest

from adapters.telegram.callback import ActPress, GroupPress, encode
from bot.i18n import t
from bot.table import Actor, ChangeSettings, ChatRef

from .harness import GROUP_ID, USERS, Harness, op_of

wang, li = USERS[:2]


async def playing(turn_seconds: int = 0) -> Harness:
    """老王 and 小李 with four AI seats, first hand dealt (neither can revolt or declare
    with this deal, so there is no declaration pause)."""
    h = await Harness(None).open()
    h.fake.opened.update({wang["id"], li["id"]})
    chat = ChatRef("tg", str(GROUP_ID))
    await h.manager.handle(
        ChangeSettings(
            chat=chat,
            actor=Actor(str(wang["id"]), "老王", is_admin=True),
            changes={"turn_seconds": turn_seconds},
        )
    )
    await h.say(wang, "/gouji")
    await h.say(li, "/join")
    await h.say(wang, "/addbot 4")
    await h.say(wang, "/begin")
    assert not h.manager.tables[h.key].declare_open
    await h.drain()
    return h


def someone_to_act(h: Harness) -> dict[str, object]:
    state = h.manager.tables[h.key].state
    assert state is not None and state.to_act is not None
    seat = h.manager.tables[h.key].seats[state.to_act - 1]
    assert seat is not None and seat.user_id is not None
    return next(u for u in USERS if str(u["id"]) == seat.user_id)


async def test_bad_and_forged_presses_change_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    h = await playing()
    who = someone_to_act(h)
    msg = h.hand_message(who)  # type: ignore[arg-type]
    table = h.manager.tables[h.key]
    version, hands = table.version, table.state.hands  # type: ignore[union-attr]
    tid = h.bot.ctx.ids.tid(h.key)
    assert tid is not None
    bad = [
        "a:" + tid + ":zz:g:p.99.1.0.0.0",  # version from nowhere
        f"a:{tid}:1:g:p.3.16.16.4.4:extra",
        "a:" + tid + ":1:" + "Q:2." + "SB" * 20,
        "this is not ours",
    ]
    for data in bad:
        answer = await h.press(who, msg, data)  # type: ignore[arg-type]
        assert answer["text"] in (t("tg_bad_button"), t("stale"))
    # A well-formed play the keyboard never offered (not in the hand): refused as stale.
    forged = encode(ActPress(tid, table.version, "g", ("p", "14", "16", "0", "0", "0")))
    answer = await h.press(who, msg, forged)  # type: ignore[arg-type]
    assert answer["text"] == t("stale")
    assert table.version == version and table.state.hands == hands  # type: ignore[union-attr]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    for record in caplog.records:
        assert "SB" * 4 not in record.getMessage() and "p.99" not in record.getMessage()
    assert not h.errors
    await h.close()


async def test_autoplay_on_and_off_by_button() -> None:
    h = await playing()
    who = someone_to_act(h)
    msg = h.hand_message(who)  # type: ignore[arg-type]
    on = next(d for _, d in msg.buttons() if op_of(d) == "t")
    answer = await h.press(who, msg, on)  # type: ignore[arg-type]
    assert answer["text"] == t("autoplay_on")
    await h.tick(1.0)
    seat = h.manager.tables[h.key].seat_of(str(who["id"]))
    assert seat is not None and h.manager.tables[h.key].seats[seat - 1].autoplay  # type: ignore[union-attr]
    msg = h.hand_message(who)  # type: ignore[arg-type]
    assert t("tg_role_auto") in (msg.caption or "")
    off = next(d for label, d in msg.buttons() if label == t("tg_btn_auto_off"))
    answer = await h.press(who, msg, off)  # type: ignore[arg-type]
    assert answer["text"] == t("autoplay_off")
    await h.close()


async def test_my_cards_button_and_a_blocked_chat() -> None:
    h = await playing()
    first = h.hand_message(li)
    mine = h.table_message().button(lambda t_, d: d.endswith(":h"))
    answer = await h.press(li, h.table_message(), mine)
    assert answer["text"] == t("tg_hand_sent")
    await h.tick(1.0)
    again = h.hand_message(li)
    assert again.message_id > first.message_id
    assert (li["id"], first.message_id) not in h.fake.messages

    # 小李 blocks the bot: the next hand message fails with 403 and the group gets a link.
    h.fake.opened.discard(li["id"])
    await h.press(li, h.table_message(), mine)
    await h.drain()
    notice = next(m for m in h.fake.in_chat(GROUP_ID) if "收不到私信" in (m.text or ""))
    ((_, url),) = notice.buttons()
    assert "start=h_" in url
    # The button on the table now opens the bot instead (the bot cannot write first).
    answer = await h.press(li, h.table_message(), mine)
    assert answer["url"] == url
    await h.feed(h.fake.start(li, url.split("start=", 1)[1]))
    await h.tick(1.0)
    assert h.hand_message(li).message_id > again.message_id
    # An old link, a link to nowhere.
    await h.feed(h.fake.start(li, "j_aaaaaaaa"))
    await h.drain()
    assert h.fake.in_chat(li["id"])[-1].text == t("tg_link_expired")
    assert not h.errors
    await h.close()


async def test_turn_warning_then_autoplay_on_timeout() -> None:
    h = await playing(turn_seconds=30)
    who = someone_to_act(h)
    await h.tick(21.0)
    texts = [m.text for m in h.fake.in_chat(int(who["id"])) if m.text]  # type: ignore[call-overload]
    assert t("turn_warning") in texts
    await h.tick(10.0)
    await h.drain()
    assert any("超时" in text for text in h.group_texts())
    await h.close()


async def test_ready_and_leaving_mid_match() -> None:
    h = await Harness(None).open()
    h.fake.opened.update({wang["id"], li["id"]})
    await h.say(wang, "/gouji")
    await h.say(li, "/join")
    await h.say(wang, "/addbot 4")
    await h.say(wang, "/settings dadian on")  # 明点: every seat has something to declare
    await h.say(wang, "/begin")
    await h.drain()
    assert h.manager.tables[h.key].declare_open
    msg = h.hand_message(li)
    ready = next(d for _, d in msg.buttons() if op_of(d) == "K")
    answer = await h.press(li, msg, ready)
    assert answer["text"] == t("ready")
    await h.tick(1.0)
    assert not [d for _, d in h.hand_message(li).buttons() if op_of(d) == "K"]
    # Leaving mid-match: the seat goes to the AI, the hand message loses its buttons.
    await h.say(li, "/leave")
    await h.drain()
    assert h.fake.in_chat(li["id"])[-1].text == t("seat_left")
    assert h.hand_message(li).buttons() == []
    seat = h.manager.tables[h.key].seats[1]
    assert seat is not None and seat.is_ai
    assert not h.errors
    await h.close()


async def test_a_played_keyboard_gives_way_at_once_and_a_double_tap_is_told_politely() -> None:
    h = await playing()
    who = someone_to_act(h)
    msg = h.hand_message(who)  # type: ignore[arg-type]
    first = msg.buttons()[0]
    assert op_of(first[1]) == "g", "the first row holds the suggested one-tap plays"
    before = len(h.fake.calls)
    version = h.manager.tables[h.key].version
    answer = await h.press(who, msg, first[1])  # type: ignore[arg-type]
    assert h.manager.tables[h.key].version > version, answer
    mine = [c.method for c in h.fake.calls[before:] if c.chat_id == who["id"]]
    # The old buttons are replaced before the new picture is even drawn.
    assert mine[0] == "editMessageReplyMarkup" and "editMessageMedia" in mine[1:], mine
    # ... right after the answer, which waits for nothing but the command's commit.
    methods = [c.method for c in h.fake.calls[before:]]
    assert methods.index("answerCallbackQuery") < methods.index("editMessageReplyMarkup")
    fresh = h.hand_message(who)  # type: ignore[arg-type]
    assert fresh.buttons() and first[1] not in [d for _, d in fresh.buttons()]
    # The same button again (a double tap that left the phone before the edit arrived).
    after = h.manager.tables[h.key].version
    again = await h.press(who, msg, first[1])  # type: ignore[arg-type]
    assert again["text"] == t("already_played")
    assert "过期" not in again["text"]
    assert h.manager.tables[h.key].version == after
    assert not h.errors
    await h.close()


async def test_a_forged_join_press_mid_match_gets_no_probe_and_no_link() -> None:
    h = await playing()
    stranger = USERS[4]  # never opened the bot
    tid = h.bot.ctx.ids.tid(h.key)
    assert tid is not None
    before = len(h.fake.calls)
    answer = await h.press(stranger, h.table_message(), encode(GroupPress(tid, "j")))
    assert "url" not in answer and answer["text"] == t("match_in_progress"), answer
    await h.drain()
    # Nothing was sent to the stranger (no greeting as a probe), nor about them.
    assert not [c for c in h.fake.calls[before:] if c.chat_id == stranger["id"]]
    assert not [c for c in h.fake.sends_to(GROUP_ID)[-3:] if "start=j_" in str(c.params)]
    # /join mid-match: the same refusal, no start link.
    await h.say(stranger, "/join")
    await h.drain()
    assert t("match_in_progress") in (h.table_message().caption or "")
    assert not [c for c in h.fake.calls[before:] if "start=j_" in str(c.params)]
    assert not [c for c in h.fake.calls[before:] if c.chat_id == stranger["id"]]
    await h.close()


async def test_a_spectators_six_counts_cost_the_group_at_most_one_call() -> None:
    h = await playing()  # no turn timer: nothing else moves the table meanwhile
    stranger = USERS[4]  # never opened the bot
    await h.drain()
    before = len(h.fake.sends_to(GROUP_ID))
    for target in (1, 2, 3, 3, 3, 4):
        await h.say(stranger, f"/count {target}")
        await h.tick(1.0)
    await h.drain()
    group = h.fake.sends_to(GROUP_ID)[before:]
    assert len(group) <= 1, [c.method for c in group]
    # The one call is the table message, showing the refusal under the picture.
    assert t("not_seated") in (h.table_message().caption or "")
    # Someone the bot can write to is answered privately: nothing in the group.
    h.fake.opened.add(stranger["id"])
    await h.feed(h.fake.start(stranger))
    await h.tick(61.0)  # past the cool-down of the answer given in the group
    await h.drain()
    before = len(h.fake.sends_to(GROUP_ID))
    for target in (1, 2, 3, 3, 3, 4):
        await h.say(stranger, f"/count {target}")
        await h.tick(1.0)
    await h.drain()
    assert h.fake.sends_to(GROUP_ID)[before:] == []
    private = [m for m in h.fake.in_chat(stranger["id"]) if t("not_seated") in (m.text or "")]
    assert len(private) == 1, "the same refusal again is not repeated"
    assert not h.errors
    await h.close()
