"""Bounded memory: finished and idle tables leave memory and come back on demand (issue 14
item 4); caches stay within their bounds."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store
from bot.table import Act, AddBots, FakeClock, OpenTable, Start, StopMatch, TableManager
from bot.table.cache import BoundedDict

from .conftest import CHAT, PLAYERS, set_settings
from .test_play import ME, cheapest

IDLE = 100.0


async def seated(m: TableManager) -> None:
    set_settings(m, turn_seconds=0, match_hands=3)  # no turn timer: the table can go idle
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok


async def test_an_idle_table_leaves_memory_and_comes_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.sqlite3")
    await store.open()
    clock = FakeClock()
    m = TableManager(
        store=store, clock=clock, seed_source=lambda: 5, idle_ttl=IDLE, declare_window_seconds=0
    )
    await seated(m)
    for _ in range(50):  # until it is my turn and the table waits for me, with no timer
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        assert priv is not None
        if priv.role == "turn":
            break
        clock.advance(5)
        await m.poll_timers()
    before = m.private_snapshot(CHAT.key, ME.user_id)
    assert before is not None and before.role == "turn"
    snap = m.snapshot(CHAT.key)
    assert snap is not None and snap.deadline is not None and snap.deadline.at is None
    clock.advance(IDLE + 1)
    await m.poll_timers()
    assert CHAT.key not in m.tables and m.snapshot(CHAT.key) is None
    assert await m.tables_of(ME.user_id) == [] and not m.memory.has_lock(CHAT.key)
    # The next press brings it back, exactly as it was, and it goes on.
    action = cheapest(before.legal)
    reply = await m.handle(Act(chat=CHAT, actor=ME, action=action, version=before.version))
    assert reply.ok, reply
    after = m.snapshot(CHAT.key)
    assert after is not None and after.version > before.version
    assert await m.tables_of(ME.user_id) == [CHAT.key]
    await store.close()


async def test_finished_tables_leave_memory(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    m.finished_ttl = 60
    for i in range(30):
        chat = CHAT.__class__("test", f"g{i}")
        await m.handle(OpenTable(chat=chat, actor=PLAYERS[0]))
        await m.handle(StopMatch(chat=chat, actor=PLAYERS[0]))
    assert len(m.tables) == 30
    clock.advance(61)
    await m.poll_timers()
    assert len(m.tables) == 0 and m.memory.empty()
    # Without a store a live but idle table stays: it could not come back.
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    clock.advance(10 * m.idle_ttl)
    await m.poll_timers()
    assert CHAT.key in m.tables


def test_bounded_dict_keeps_the_most_recent() -> None:
    d: BoundedDict[str, int] = BoundedDict(3)
    for i in range(5):
        d[str(i)] = i
    assert list(d) == ["2", "3", "4"]
    assert d.get("2") == 2  # a read makes it recent
    d["5"] = 5
    assert list(d) == ["4", "2", "5"] and d.get("3") is None and len(d) == 3


async def test_a_lookup_of_a_chat_without_a_table_keeps_no_lock() -> None:
    m = TableManager(clock=FakeClock())
    for i in range(100):
        chat = CHAT.__class__("test", f"none{i}")
        assert await m.current(chat) is None
    assert m.memory.empty()
