"""A play answered before the AI seats move (``handle(..., ai_later=True)``, the web
page's taps): the answer comes after the player's own move only, the AI seats' moves
follow at once in a step of their own — the same moves as without it — and a crash in
between loses nothing (the table's ``AI`` deadline makes them on restart)."""

from __future__ import annotations

from pathlib import Path

from bot.engine.actions import Action
from bot.store import Store
from bot.table import Act, DeadlineKind, FakeClock, OpenTable, Start, TableManager, TableStatus

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]


async def started(m: TableManager, **settings: object) -> None:
    set_settings(m, CHAT, **{"turn_seconds": 0, "match_hands": 1, **settings})
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok


def my_move(m: TableManager) -> Act | None:
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    if priv is None or not priv.legal or priv.role is None:
        return None
    action: Action = priv.legal[-1]  # a varied choice: often a pass, sometimes a play
    return Act(chat=CHAT, actor=ME, action=action, version=priv.version)


async def first_play(m: TableManager, clock: FakeClock) -> Act:
    """The person's first move once the hand has started (the pause over)."""
    for _ in range(400):
        cmd = my_move(m)
        t = m.tables[CHAT.key]
        if cmd is not None and t.state is not None and t.state.started:
            return cmd
        clock.advance(1.0)
        await m.poll_timers()
    raise AssertionError("never the person's turn")


async def play_hand(m: TableManager, clock: FakeClock, ai_later: bool) -> tuple[object, ...]:
    """Play the hand out (the person takes their last legal option); the deal's log."""
    await started(m)
    log: tuple[object, ...] = ()
    for _ in range(4000):
        t = m.tables[CHAT.key]
        log = t.log or log
        if t.status is not TableStatus.PLAYING:
            return log
        cmd = my_move(m)
        if cmd is None:
            clock.advance(1.0)
            await m.poll_timers()
            continue
        assert (await m.handle(cmd, ai_later=ai_later)).ok
        await m.settle()
    raise AssertionError("the hand never ended")


async def test_the_same_moves_are_made_with_the_ai_later() -> None:
    logs = []
    for ai_later in (False, True):
        clock = FakeClock()
        m = TableManager(clock=clock, seed_source=lambda: 31, burn_window_seconds=1.0)
        logs.append(await play_hand(m, clock, ai_later))
    assert len(logs[0]) > 60
    assert logs[0] == logs[1]


async def test_the_answer_comes_before_the_ai_seats_move() -> None:
    clock = FakeClock()
    m = TableManager(clock=clock, seed_source=lambda: 31, burn_window_seconds=1.0)
    await started(m)
    cmd = await first_play(m, clock)
    before = len(m.tables[CHAT.key].log)
    assert (await m.handle(cmd, ai_later=True)).ok
    after = m.tables[CHAT.key]
    assert len(after.log) == before + 1  # the player's move alone
    assert after.run.deadline is not None and after.run.deadline.kind is DeadlineKind.AI
    await m.settle()
    moved = m.tables[CHAT.key]
    assert len(moved.log) > before + 1  # the AI seats answered, at once (no clock moved)
    assert moved.run.deadline is None or moved.run.deadline.kind is not DeadlineKind.AI


async def test_a_crash_before_the_ai_moves_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    clock = FakeClock()
    store = Store(path)
    await store.open()
    m = TableManager(store=store, clock=clock, seed_source=lambda: 31, burn_window_seconds=1.0)
    await started(m)
    cmd = await first_play(m, clock)
    # The process dies right after the answer: the AI seats' step never runs.
    m._ai_moves = _never  # type: ignore[method-assign,assignment]
    assert (await m.handle(cmd, ai_later=True)).ok
    played = len(m.tables[CHAT.key].log)
    await store.close()

    store = Store(path)
    await store.open()
    fresh = TableManager(store=store, clock=clock, seed_source=lambda: 31)
    await fresh.load()
    t = fresh.tables[CHAT.key]
    assert len(t.log) > played  # on restart the AI seats made their moves
    assert t.run.deadline is None or t.run.deadline.kind is not DeadlineKind.AI
    await store.close()


async def _never(*_: object) -> None:
    return None
