"""/review, the 📝 button on a hand's result and the 💡 hint switch on Telegram, end to
end against the fake Bot API: the review goes to the asker's private chat only."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.records.desk as desk_module
from bot.ai.review import ReviewConfig, review
from bot.i18n import error_text, t
from bot.records import HandRecord
from bot.records.replay import replay
from bot.records.teacher import review_text
from bot.table import ChatRef

from .harness import GROUP_ID, USERS, Driver, Harness, op_of

wang, li, alice, zhang, lisi, wangwu = USERS
QUICK = ReviewConfig(deals=3)


@pytest.fixture(autouse=True)
def quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk_module, "REVIEW_CONFIG", QUICK)


async def played_hand(tmp_path: Path) -> Harness:
    h = await Harness(tmp_path).open()
    h.fake.opened.add(wang["id"])
    await h.say(wang, "/gouji")
    await h.say(wang, "/addbot 5")
    await h.say(wang, "/begin")
    await Driver(h, [wang]).play_hand()
    await h.drain()
    return h


def private_texts(h: Harness, who: dict[str, object]) -> list[str]:
    return [m.text for m in h.fake.in_chat(int(str(who["id"]))) if m.text]


async def settle(h: Harness) -> None:
    await h.bot.router.review.join()
    await h.drain()


async def expected_review(h: Harness) -> str:
    """Wang's review of hand #1, worked out here from the stored record."""
    assert h.store is not None
    number, raw = (await h.store.hands_from(f"tg:{GROUP_ID}", 1, 1))[0]
    rec = HandRecord.from_json(raw, number)
    seat = rec.seat_of(str(wang["id"]))
    assert seat is not None and rec.users.count(None) == 5  # five AI seats
    return review_text(review(replay(rec), seat, QUICK), number, rec.names, "zh")


async def test_review_goes_privately_to_the_asker_and_only_for_their_own_seat(
    tmp_path: Path,
) -> None:
    h = await played_hand(tmp_path)
    group_before = len(h.group_texts())
    await h.say(wang, "/review 1")
    await settle(h)
    assert h.group_texts()[-1] == t("review_coming")
    mine = private_texts(h, wang)
    want = await expected_review(h)
    assert mine[-2:] == [t("review_busy", number=1), want]
    assert want.startswith("第 1 手复盘")
    # Nothing of the review reaches the group: only the acknowledgement.
    assert h.group_texts()[group_before:] == [t("review_coming")]

    # Someone who did not play that hand is refused, in the group, without cards.
    await h.say(li, "/review")
    await settle(h)
    assert h.group_texts()[-1] == t("review_not_yours", number=1)
    await h.say(wang, "/review abc")
    await settle(h)
    assert h.group_texts()[-1] == t("rec_bad_id")
    await h.say(wang, "/review 9")
    await settle(h)
    assert h.group_texts()[-1] == t("rec_no_such_hand", number=9)

    # 📝 under the result: the same review, at once this time (no "正在分析…").
    result = h.fake.last_photo(GROUP_ID, "result.png")
    data = result.button(lambda text, _: text == t("tg_btn_review"))
    assert data == "v:1"
    sent = len(private_texts(h, wang))
    answer = await h.press(wang, result, data)
    await settle(h)
    assert answer["text"] == t("review_coming") and answer["show_alert"]
    assert private_texts(h, wang)[sent:] == [want]
    stranger = await h.press(li, result, data)
    assert stranger["text"] == t("review_not_yours", number=1)
    forged = await h.press(wang, result, "v:x")
    assert forged["text"] == t("tg_bad_button")

    # Wang blocks the bot: the group is asked to have him open the private chat first,
    # with a button to it, and the review is not sent anywhere.
    h.fake.opened.discard(wang["id"])
    await h.bot.ctx.reach.mark(str(wang["id"]), False)
    sent = len(private_texts(h, wang))
    await h.say(wang, "/review 1")
    await settle(h)
    ask = h.fake.in_chat(GROUP_ID)[-1]
    assert ask.text == t("tg_review_need_start", name=wang["first_name"])
    assert [label for label, _ in ask.buttons()] == [t("tg_btn_open_bot")]
    assert len(private_texts(h, wang)) == sent
    assert not h.errors
    await h.close()


async def wang_turn(h: Harness) -> None:
    """Play until it is wang's turn to play or pass."""
    driver = Driver(h, [wang])
    for _ in range(400):
        priv = h.manager.private_snapshot(h.key, str(wang["id"]))
        if priv is not None and priv.role == "turn":
            return
        if not await driver.step():
            await h.tick(1.0)
    raise AssertionError("wang never had a turn")


async def test_hint_switch_off_by_default_on_when_asked_and_locked_in_match(
    tmp_path: Path,
) -> None:
    h = await Harness(tmp_path).open()
    h.fake.opened.add(wang["id"])
    await h.say(wang, "/gouji")
    await h.say(wang, "/addbot 5")
    await h.say(wang, "/begin")
    await h.drain()
    await wang_turn(h)
    msg = h.hand_message(wang)
    assert not any(op_of(d) == "H" for _, d in msg.buttons())  # off by default
    forged = msg.buttons()[0][1].split(":")
    data = ":".join([*forged[:3], "H"])
    off = await h.press(wang, msg, data)
    assert off["text"] == t("teach_hint_off")

    # The admin turns hints on from the settings menu (it opens in their private chat).
    await h.say(wang, "/settings")
    await h.drain()
    menu = h.fake.in_chat(wang["id"])[-1]
    turn_on = menu.button(lambda text, d: d == "s:i:1" and t("set_hints") in text)
    answer = await h.press(wang, menu, turn_on)
    assert answer["text"] == t("settings_saved")
    assert (await h.manager.group_settings(ChatRef("tg", str(GROUP_ID)))).hints_on
    h.bot.publisher.touch_hand(h.key, str(wang["id"]))
    await h.drain()
    msg = h.hand_message(wang)
    hint = next(d for label, d in msg.buttons() if op_of(d) == "H")
    group_before = len(h.group_texts())
    answer = await h.press(wang, msg, hint)
    assert answer["show_alert"] and answer["text"].startswith("💡 专家建议：")
    assert h.group_texts()[group_before:] == []  # told to the presser only
    # Someone without a hand at this table gets no hint.
    other = await h.press(li, msg, hint)
    assert not other["text"].startswith("💡 专家建议")

    # 比赛 fixes hints off: asking is refused, and a group that had them loses them.
    await h.say(wang, "/settings preset match")
    settings = await h.manager.group_settings(ChatRef("tg", str(GROUP_ID)))
    assert settings.preset == "match" and not settings.hints and not settings.hints_on
    await h.say(wang, "/settings hints on")
    assert h.group_texts()[-1] == error_text("setting_locked", {"switch": "hints"}, "zh")
    assert not h.errors
    await h.close()
