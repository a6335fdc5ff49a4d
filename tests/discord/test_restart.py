"""What a player feels after a restart on Discord: a new manager and bot on the same
SQLite file still know the table, and the old view's button pressed again is a double
tap ("already played"), not a second move nor an out-of-date button."""

from __future__ import annotations

import copy
from pathlib import Path

from bot.i18n import t
from bot.store import Store
from bot.table import FakeClock, TableManager

from .conftest import ADMIN, BOB, CHAT, Harness, running_bot, view_timers
from .driver import find
from .fake import FakeDiscord
from .test_buttons import admin_answering, start


async def stop(h: Harness, store: Store) -> None:
    await h.settle()
    for task in view_timers():
        task.cancel()
    await store.close()


async def test_a_double_tap_right_after_a_restart_is_already_played(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    path = tmp_path / "dc.sqlite3"
    store = Store(path)
    await store.open()
    clock = FakeClock()
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    async with running_bot(manager) as bot:
        h = Harness(fake, manager, clock, bot)
        await start(h)
        msg = await admin_answering(h)
        old = copy.deepcopy(msg)
        passing = find(old, "gj:a:", "pass")
        assert passing is not None
        await h.press(ADMIN, msg, passing)  # the real press: the table moves on
        version = manager.snapshot(CHAT.key).version  # type: ignore[union-attr]
        await stop(h, store)

    store = Store(path)  # the restart: a new store, manager and bot on the same file
    await store.open()
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    await manager.load()
    assert manager.snapshot(CHAT.key).version == version  # type: ignore[union-attr]
    async with running_bot(manager) as fresh:
        h = Harness(fake, manager, clock, fresh)
        p = await h.press(ADMIN, old, passing)  # the same button, from the old view
        assert h.replies(p)[-1] == t("already_played")
        assert manager.snapshot(CHAT.key).version == version  # type: ignore[union-attr]
        await stop(h, store)
    assert all(token.responded for token in fake.tokens.values())


async def test_closed_dms_are_remembered_across_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Bob's DMs are closed: the channel is told once in the hand, and a restart neither
    tries his DMs again in that hand nor tells the channel a second time."""

    def closed_notices() -> int:
        return sum(
            f"<@{BOB.id}>" in m.content and "私信发不过去" in m.content
            for m in fake.channel_messages()
        )

    path = tmp_path / "dc.sqlite3"
    store = Store(path)
    await store.open()
    clock = FakeClock()
    fake.closed_dms.add(BOB.id)
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    async with running_bot(manager) as bot:
        h = Harness(fake, manager, clock, bot)
        await start(h)
        msg = await admin_answering(h)
        hand = manager.snapshot(CHAT.key).hand_no  # type: ignore[union-attr]
        assert closed_notices() == 1 and fake.refused_dms.count(BOB.id) == 1
        await stop(h, store)

    store = Store(path)
    await store.open()
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    await manager.load()
    async with running_bot(manager) as fresh:
        h = Harness(fake, manager, clock, fresh)
        passing = find(msg, "gj:a:", "pass")
        assert passing is not None
        await h.press(ADMIN, msg, passing)
        for _ in range(4):
            await h.tick(3.5)  # the table moves on: Bob's view is drawn again
        await h.press(BOB, fake.table_message(), find(fake.table_message(), "gj:t:", "hand") or "")
        assert fake.last_private(BOB.id, "ephemeral") is not None  # his hand, as before
        assert manager.snapshot(CHAT.key).hand_no == hand  # type: ignore[union-attr]
        assert fake.refused_dms.count(BOB.id) == 1
        assert closed_notices() == 1
        await stop(h, store)
