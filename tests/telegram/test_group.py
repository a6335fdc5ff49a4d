"""Group commands, forum topics, the settings menu, and Telegram's errors."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.i18n import t
from bot.table import Actor, ChangeSettings, ChatRef

from .fakeapi import not_modified, too_many
from .harness import FORUM_ID, GROUP_ID, USERS, Driver, Harness, max_per_minute

wang, li, alice, zhang, lisi, wangwu = USERS


async def opened(tmp_path: Path | None, *users: dict[str, object]) -> Harness:
    h = await Harness(tmp_path).open()
    for u in users:
        h.fake.opened.add(int(u["id"]))  # type: ignore[call-overload]
    return h


def last_text(h: Harness, chat_id: int = GROUP_ID) -> str:
    return next(m.text for m in reversed(h.fake.in_chat(chat_id)) if m.text)  # type: ignore[return-value]


async def test_commands_with_the_bot_suffix_and_polite_errors() -> None:
    h = await opened(None, wang, li)
    await h.say(wang, "/gouji@gouji_test_bot")
    assert h.manager.snapshot(ChatRef("tg", str(GROUP_ID)).key) is not None
    await h.say(li, "/join@gouji_test_bot")
    await h.drain()
    # Sitting down is a line in the table message, not a reply of its own.
    assert not [m for m in h.fake.in_chat(GROUP_ID) if m.text == t("joined", seat=2)]
    assert f"小李 · {t('joined', seat=2)}" in (h.table_message().caption or "")
    # Refusals go to the person's private chat (the bot may write to 小李): the group's
    # budget is for the table.
    sent = len(h.fake.sends_to(GROUP_ID))

    async def refused(command: str, text: str) -> None:
        await h.say(li, command)
        await h.drain()
        assert last_text(h, li["id"]) == t("tg_refused_in", group="够级群", text=text), command

    await refused("/join", t("already_seated", seat=2))
    await refused("/count x", t("tg_usage_count"))
    await refused("/count 9", t("tg_usage_count"))  # the same again: not repeated
    assert len([m for m in h.fake.in_chat(li["id"]) if t("tg_usage_count") in (m.text or "")]) == 1
    await refused("/addbot many", t("tg_usage_addbot"))
    await refused("/removebot 0", t("tg_usage_removebot"))
    await refused("/count 3", t("not_playing"))
    await refused("/frobnicate", t("unknown_command"))
    assert len(h.fake.sends_to(GROUP_ID)) == sent
    await h.say(li, "/frobnicate@some_other_bot")
    await h.say(li, "/join@some_other_bot")
    assert len(h.fake.sends_to(GROUP_ID)) == sent, "commands for another bot are ignored"
    await h.say(li, "/help")
    assert "/gouji" in last_text(h)
    await h.say(li, "/rules")
    assert "大纲" in last_text(h)
    await h.say(li, "/score")
    assert last_text(h) == t("tg_no_scores")
    await h.say(li, "/stats")
    assert last_text(h) == t("tg_stats_off")
    # Group commands in the private chat point to the group.
    await h.feed(h.fake.command(li, h.fake.private_chat(li), "/join"))
    assert last_text(h, li["id"]) == t("tg_group_only")
    assert not h.errors
    await h.close()


async def test_forum_topics_hold_one_table_each() -> None:
    h = await opened(None, wang, li)
    await h.say(wang, "/gouji", chat=h.forum, thread=11)
    await h.say(li, "/gouji", chat=h.forum, thread=22)
    await h.say(wang, "/join", chat=h.forum, thread=22)
    await h.drain()
    keys = sorted(k for k in h.manager.tables if k.startswith(f"tg:{FORUM_ID}:"))
    assert keys == [f"tg:{FORUM_ID}:11", f"tg:{FORUM_ID}:22"]
    photos = [c for c in h.fake.sends_to(FORUM_ID) if c.method == "sendPhoto"]
    assert sorted(c.params["message_thread_id"] for c in photos) == [11, 22]
    assert h.manager.tables[keys[1]].seat_of(str(wang["id"])) is not None
    await h.close()


async def test_settings_for_admins_only(tmp_path: Path) -> None:
    h = await opened(tmp_path, wang, li)
    await h.say(wang, "/gouji")
    # A non-admin is refused politely, by command and by button.
    await h.say(li, "/settings")
    await h.drain()
    # (The bot has not written to 小李 yet: a line under the table, not a message.)
    assert f"小李 · {t('not_admin')}" in (h.table_message().caption or "")
    group_calls = len(h.fake.sends_to(GROUP_ID))
    await h.say(wang, "/settings")
    await h.drain()
    # The menu opens in the admin's private chat: the group sees nothing of it.
    assert len(h.fake.sends_to(GROUP_ID)) == group_calls
    menu = h.fake.in_chat(wang["id"])[-1]
    assert menu.text and "本群设置" in menu.text and "够级群" in menu.text
    answer = await h.press(li, menu, menu.button(lambda t_, d: d == "s:P"))
    assert answer["text"] == t("not_admin") and answer["show_alert"]
    # The admin picks a preset, flips a switch, sets the timer.
    await h.press(wang, menu, "s:P")
    await h.drain()
    menu = h.fake.messages[(wang["id"], menu.message_id)]
    qingdao = menu.button(lambda t_, d: d == "s:p:qingdao")
    answer = await h.press(wang, menu, qingdao)
    assert answer["text"] == t("settings_saved")
    await h.press(wang, menu, "s:w:kill_two_big")
    await h.drain()
    menu = h.fake.messages[(wang["id"], menu.message_id)]
    on = menu.button(lambda t_, d: d.startswith("s:v:kill_two_big:") and "开" in t_)
    await h.press(wang, menu, on)
    await h.press(wang, menu, "s:t:60")
    await h.press(wang, menu, "s:l:en")
    await h.drain()
    chat = ChatRef("tg", str(GROUP_ID))
    settings = await h.manager.group_settings(chat)
    assert settings.preset == "qingdao" and settings.turn_seconds == 60 and settings.lang == "en"
    assert dict(settings.overrides) == {"kill_two_big": True}
    assert "Group settings" in h.fake.messages[(wang["id"], menu.message_id)].text  # type: ignore[operator]
    # The command form, an anonymous admin (posting as the group), and bad values.
    await h.feed(h.fake.command(USERS[5], h.group, "/settings burn_limit 3", sender_chat=h.group))
    assert last_text(h) == t("settings_saved", "en")
    await h.say(wang, "/settings burn_limit lots")
    assert "“lots”" in last_text(h) and "from 0 to 13" in last_text(h)
    await h.say(wang, "/settings no_such_switch 1")
    assert "no_such_switch" in last_text(h)
    # Malformed values get a coded answer, never a crash (issue 9 item 1).
    for command, allowed in [
        ("/settings tribute_order men,1,point,luo", "caught tribute (men)"),
        ("/settings preset [1]", "(dagang)"),
        ("/settings burn_limit " + "[" * 3000, "from 0 to 13"),
    ]:
        await h.say(wang, command)
        assert allowed in last_text(h), command
    await h.press(wang, menu, "s:x")
    await h.drain()
    settings = await h.manager.group_settings(chat)
    assert dict(settings.overrides) == {"kill_two_big": True, "burn_limit": 3}
    # The anonymous admin cannot be written to privately: the menu comes to the group.
    await h.feed(h.fake.command(USERS[5], h.group, "/settings", sender_chat=h.group))
    assert "Group settings" in last_text(h)
    # A private menu's group is kept in the store: it still works after a restart (and
    # on any other worker); once it expired (a day), its buttons say it is out of date.
    await h.restart()
    answer = await h.press(wang, menu, "s:P")
    assert answer["text"] == ""
    wall = h.manager.interactions.wall
    h.manager.interactions.wall = lambda: wall() + 2 * 24 * 3600
    answer = await h.press(wang, menu, "s:P")
    assert answer["text"] == t("stale")
    assert not h.errors
    await h.close()


async def test_flood_control_and_not_modified(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    h = await opened(None, wang, li)
    await h.say(wang, "/gouji")
    await h.drain()
    # A 429 on the next table edit: the group hears nothing more until it has passed.
    h.fake.fail("editMessageMedia", too_many(9), GROUP_ID)
    await h.say(li, "/join")
    await h.tick(4.0)  # the table edit is due (every 60/18 s) and refused
    flooded_at = h.clock.now()
    calls_then = len(h.fake.sends_to(GROUP_ID))
    await h.say(wang, "/addbot 2")
    for _ in range(8):
        await h.tick(1.0)
    quiet = [c for c in h.fake.sends_to(GROUP_ID)[calls_then:] if c.at < flooded_at + 9]
    assert not quiet
    await h.drain()
    table = h.table_message()
    assert "4/6" in (table.caption or ""), "the latest state arrived after the pause"
    # "message is not modified" is no error: the adapter keeps going.
    h.fake.fail("editMessageCaption", not_modified(), GROUP_ID)
    h.fake.fail("editMessageMedia", not_modified(), GROUP_ID)
    await h.say(li, "/leave")
    await h.drain()
    await h.say(li, "/join")
    await h.drain()
    assert "4/6" in (h.table_message().caption or "")
    assert not h.errors
    assert "flood control" in caplog.text
    await h.close()


async def test_deleted_table_message_is_posted_again() -> None:
    h = await opened(None, wang, li)
    await h.say(wang, "/gouji")
    await h.drain()
    first = h.table_message()
    del h.fake.messages[(GROUP_ID, first.message_id)]
    await h.say(li, "/join")
    await h.drain()
    again = h.table_message()
    assert again.message_id != first.message_id and "2/6" in (again.caption or "")
    # /gouji with a table open posts it again at the bottom and removes the old one.
    await h.say(li, "/gouji")
    await h.drain()
    assert h.table_message().message_id > again.message_id
    assert (GROUP_ID, again.message_id) not in h.fake.messages
    await h.close()


async def test_stats_and_score_after_a_hand(tmp_path: Path) -> None:
    h = await opened(tmp_path, wang)
    await h.say(wang, "/gouji")
    await h.say(wang, "/addbot 5")
    await h.say(wang, "/begin")
    await Driver(h, [wang]).play_hand()
    await h.drain()
    await h.say(wang, "/score")
    assert last_text(h).startswith("第1局后总分")
    await h.say(wang, "/stats")
    assert "老王" in last_text(h) and "1 局" in last_text(h)
    await h.say(wang, "/stop")
    await h.drain()
    assert "比赛提前结束" in last_text(h)
    assert h.table_message().buttons() == []
    await h.close()


async def test_a_match_of_ai_seats_stays_within_the_group_budget() -> None:
    """老王 on 托管 and five AI seats: every move is instant, four hands in a row."""
    h = await opened(None, wang)
    await h.say(wang, "/gouji")
    await h.say(wang, "/addbot 5")
    await h.say(wang, "/begin")
    await h.tick(1.0)
    auto = next(d for _, d in h.hand_message(wang).buttons() if d.endswith(":t:1"))
    await h.press(wang, h.hand_message(wang), auto)
    for _ in range(600):
        await h.tick(1.0)
        if h.manager.tables[h.key].status.value == "finished":
            break
    await h.drain()
    calls = h.fake.sends_to(GROUP_ID)
    assert sum("result.png" in c.upload_names() for c in calls) == 4
    assert any("比赛结束" in text for text in h.group_texts())
    assert max_per_minute(calls) <= 20
    assert not h.errors
    await h.close()


@pytest.mark.parametrize(
    ("lang", "wanted"),
    [
        ("zh", ["进贡顺序", "“men,1,point,luo”", "闷贡（men）", "落贡（luo）", "按先后顺序"]),
        ("en", ["Tribute order", "“men,1,point,luo”", "caught tribute (men)", "in order"]),
    ],
)
async def test_a_settings_error_speaks_the_groups_language_in_words(
    tmp_path: Path, lang: str, wanted: list[str]
) -> None:
    h = await opened(tmp_path, wang)
    await h.manager.handle(
        ChangeSettings(
            chat=ChatRef("tg", str(GROUP_ID)),
            actor=Actor(str(wang["id"]), "老王", is_admin=True),
            changes={"lang": lang},
        )
    )
    await h.say(wang, "/settings tribute_order men,1,point,luo")
    await h.drain()
    text = last_text(h)
    assert all(w in text for w in wanted), text
    # No Python type name, no English list of choices in a Chinese group.
    assert "tuple" not in text and "a list" not in text
    await h.say(wang, "/settings hui sometimes")
    await h.drain()
    text = last_text(h)
    label = {"zh": "烩 3（threes）", "en": "3s (threes)"}[lang]
    assert "“sometimes”" in text and label in text, text
    await h.close()


async def test_a_join_link_is_posted_once_however_often_asked() -> None:
    h = await opened(None, wang)
    await h.say(wang, "/gouji")
    stranger = USERS[4]  # never opened the bot
    for _ in range(4):
        await h.say(stranger, "/join")
        await h.tick(2.0)
    await h.drain()
    links = [m for m in h.fake.in_chat(GROUP_ID) if any("start=j_" in u for _, u in m.buttons())]
    assert len(links) == 1
    await h.tick(61.0)  # a minute later the link may be given again
    await h.say(stranger, "/join")
    await h.drain()
    links = [m for m in h.fake.in_chat(GROUP_ID) if any("start=j_" in u for _, u in m.buttons())]
    assert len(links) == 2
    assert not h.errors
    await h.close()
