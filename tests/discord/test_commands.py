"""Slash commands: sync with both languages, and each subcommand through the real tree."""

from __future__ import annotations

from bot.table import TableStatus

from .conftest import ADMIN, ALICE, BOB, CHAT, Harness
from .driver import find
from .fake import GUILD_ID


async def test_commands_sync_with_chinese_and_english(harness: Harness) -> None:
    await harness.bot.sync()
    (payload,) = harness.fake.synced
    (group,) = payload
    assert group["name"] == "gouji"
    assert group["name_localizations"]["zh-CN"] == "够级"
    assert group["description_localizations"]["en-US"] == "Gouji card table"
    assert group["contexts"] == [0]  # guild only
    subs = {o["name"]: o for o in group["options"]}
    assert set(subs) == {
        "new", "join", "leave", "addbot", "removebot", "start", "stop",
        "settings", "rules", "score", "stats", "count", "hand", "history", "replay", "why",
        "review",
    }  # fmt: skip
    assert subs["join"]["name_localizations"]["zh-CN"] == "入座"
    assert subs["count"]["description_localizations"]["zh-CN"].startswith("问")
    seat = subs["count"]["options"][0]
    assert seat["name"] == "seat" and seat["name_localizations"]["zh-CN"] == "座位"
    assert (seat["min_value"], seat["max_value"], seat["required"]) == (1, 6, True)


async def test_guild_sync_goes_to_the_test_guild(harness: Harness) -> None:
    harness.bot.guild_id = GUILD_ID
    await harness.bot.sync()
    put = [c for c in harness.fake.calls if c.method == "PUT"]
    assert put and f"/guilds/{GUILD_ID}/commands" in put[-1].url


async def test_lobby_commands(harness: Harness) -> None:
    h = harness
    p = await h.slash(ALICE, "join")
    assert h.replies(p) == ["这里还没有牌桌，先用 /gouji new 开一桌。"]
    await h.slash(ADMIN, "new")
    assert len(h.fake.channel_messages()) == 1
    p = await h.slash(ALICE, "join", seat=4)
    assert "4 号位" in h.replies(p)[0]
    assert "4 号 阿丽" in h.fake.table_message().content
    p = await h.slash(BOB, "join", seat=4)
    assert h.replies(p) == ["4 号位已经有人了。"]
    p = await h.slash(BOB, "addbot", number=2)
    assert h.replies(p) == ["你不在这张牌桌上。"]
    await h.slash(ADMIN, "addbot", number=2)
    assert h.fake.table_message().content.count("（电脑）") == 2
    p = await h.slash(BOB, "removebot", seat=2)
    assert h.replies(p) == ["移走了 2 号位的电脑。"]
    p = await h.slash(ALICE, "leave")
    assert h.replies(p) == ["你已离座。"]
    p = await h.slash(ALICE, "hand")
    assert h.replies(p) == ["你现在没有在这桌打牌。"]
    # /gouji new again shows the table anew at the bottom of the channel.
    await h.slash(ADMIN, "new")
    assert len(h.fake.channel_messages()) == 2
    p = await h.slash(ALICE, "rules")
    assert "大纲" in h.replies(p)[0]
    p = await h.slash(ALICE, "stats")
    assert h.replies(p) == ["还没有打完的局。"]


async def test_match_commands(harness: Harness) -> None:
    h = harness
    h.settings(turn_seconds=0)
    await h.slash(ADMIN, "new")
    await h.slash(ADMIN, "start")
    assert h.manager.snapshot(CHAT.key).status is TableStatus.PLAYING  # type: ignore[union-attr]
    p = await h.slash(ALICE, "score")
    assert h.replies(p) == ["第 1 局 · 一三五 +0 : 二四六 +0"]
    score = [m for m in h.fake.messages.values() if m.content.startswith("第 1 局 ·")]
    assert score[-1].place == "channel"
    p = await h.slash(ALICE, "count", seat=3)
    assert h.replies(p) == ["你不在这张牌桌上。"], "报户 is for the players"
    p = await h.slash(ADMIN, "count", seat=3)
    assert h.replies(p) == ["已在频道里报户。"]  # Discord's own word: 频道, not 群
    assert any("报户：不够报" in m.content for m in h.fake.channel_messages())
    # The table message's menu asks too.
    table = h.fake.table_message()
    menu = find(table, "gj:q:", "count")
    assert menu is not None
    p = await h.choose(ADMIN, table, menu, "5")
    assert any("（5 号）报户" in m.content for m in h.fake.channel_messages())
    p = await h.slash(ALICE, "stop")
    assert h.replies(p) == ["只有开桌人或服务器管理员可以这样做。"]
    p = await h.slash(ADMIN, "hand")
    mine = h.fake.last_private(ADMIN.id, "ephemeral")
    assert mine is not None and "hand.png" in mine.files
    await h.slash(ADMIN, "stop")
    assert h.manager.snapshot(CHAT.key).status is TableStatus.FINISHED  # type: ignore[union-attr]
    assert any("比赛结束" in m.content for m in h.fake.channel_messages())
    table = h.fake.table_message()
    assert find(table, "gj:t:", "new") is not None


async def test_a_spectators_six_counts_cost_the_channel_nothing(harness: Harness) -> None:
    """Refusals are ephemeral answers to the interaction: none spends the channel's budget
    (and the table's edits never wait behind them)."""
    h = harness
    h.settings(turn_seconds=0)
    await h.slash(ADMIN, "new")
    await h.slash(ADMIN, "start")
    await h.tick(1.0)
    writes = len(h.fake.channel_writes())
    for seat in (1, 2, 3, 3, 3, 4):
        p = await h.slash(ALICE, "count", seat=seat)
        assert h.replies(p) == ["你不在这张牌桌上。"]
    await h.tick(5.0)
    assert len(h.fake.channel_writes()) == writes
