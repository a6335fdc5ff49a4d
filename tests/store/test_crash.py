"""SIGKILL inside a step of persistence: a finished hand is never lost from /stats.

A real bot process (tests/store/crash_worker.py) is killed by its store's fault hook at
each point of the step's transaction, on both back ends. A new process then loads the
tables: either the step is there entirely (the table between hands *and* the hand in the
stats), or not at all (the hand is still in play, and finishing it again records it once,
identical to an uninterrupted run).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from bot.table import FakeClock, NextHand, SetAutoplay, TableStatus
from bot.table.outputs import HandFinished, Out

from .crash_worker import CHAT, HUMAN, manager, open_table, shared_worker

ROOT = Path(__file__).resolve().parents[2]
# Points inside the transaction (the step must vanish whole) and after it (it must be
# there whole), for the step that ends a hand and the step that deals the next one.
CASES = [
    ("finish", "table"),
    ("finish", "hand"),
    ("finish", "committed"),
    ("deal", "drop_actions"),
    ("deal", "commit"),
]


async def reference_hands(tmp_path: Path) -> list[dict[str, object]]:
    """Hands 1 and 2 as an uninterrupted run records them."""
    store = Store(tmp_path / "reference.sqlite3")
    await store.open()
    m = manager(store)
    try:
        await open_table(m)
        await m.handle(SetAutoplay(chat=CHAT, actor=HUMAN, on=True))
        await m.handle(NextHand(chat=CHAT, actor=HUMAN))
        hands = await store.finished_hands(CHAT.group_key)
    finally:
        await store.close()
    assert len(hands) == 2
    return hands


def run_worker(target: str, phase: str, point: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.store.crash_worker", target, phase, point],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


@pytest.mark.parametrize(("phase", "point"), CASES)
async def test_sigkill_inside_a_step_never_loses_a_finished_hand(
    store_target: str, tmp_path: Path, phase: str, point: str
) -> None:
    expected = await reference_hands(tmp_path)
    run_worker(store_target, phase, point)

    store = Store(store_target)
    await store.open()
    try:
        await check_after_restart(store, phase, expected)
    finally:
        await store.close()


async def check_after_restart(store: Store, phase: str, expected: list[dict[str, object]]) -> None:
    m = manager(store)
    assert await m.load() == 1
    t = m.tables[CHAT.key]
    hands = await store.finished_hands(CHAT.group_key)
    if phase == "finish":
        if t.status is TableStatus.BETWEEN:  # the step committed: all of it
            assert hands == expected[:1]
        else:  # it did not: the hand is still in play, nothing of its end was kept
            assert t.status is TableStatus.PLAYING and t.deal_no == 1 and hands == []
            await m.handle(SetAutoplay(chat=CHAT, actor=HUMAN, on=True))
        await m.handle(NextHand(chat=CHAT, actor=HUMAN))
    else:
        assert hands == expected[:1]  # committed by the step before
        if t.deal_no == 2:  # the deal (and hand 2, played out by 托管) committed
            assert t.status is TableStatus.BETWEEN
            assert await store.load_actions(CHAT.key, 1) == []  # dropped with it
        else:
            assert t.status is TableStatus.BETWEEN and t.deal_no == 1
            assert await store.load_actions(CHAT.key, 1)  # kept until the next deal commits
            await m.handle(NextHand(chat=CHAT, actor=HUMAN))
    assert await store.finished_hands(CHAT.group_key) == expected
    board = await store.leaderboard(CHAT.group_key)
    assert [(p.user_id, p.hands) for p in board] == [(HUMAN.user_id, 2)]


@pytest.mark.parametrize("phase", ["shared", "copy"])
@pytest.mark.parametrize("point", ["hand", "commit", "committed"])
async def test_a_worker_killed_around_its_commit_leaves_the_messages_to_another(
    store_target: str, point: str, phase: str
) -> None:
    """A worker of several is SIGKILLed inside or right after the step that ends a hand,
    before it could send anything. Another worker then finds either the whole step, whose
    messages it sends once, or nothing of it, and the hand ends there instead. ``copy``:
    the worker hears every commit, so on PostgreSQL its steps commit in one checked
    statement on its copy (the kill comes before or after that statement)."""
    out = run_worker(store_target, phase, point)
    if phase == "copy" and "postgresql" in store_target:
        assert int(out.split("on copy:")[1].split()[0]) >= 2  # AddBots, Start at least
    store = Store(store_target)
    await store.open()
    try:
        clock = FakeClock()
        other = await shared_worker(store, "survivor", clock)
        sent: list[Out] = []

        async def record(out: Out) -> None:
            sent.append(out)

        other.subscribe(record)
        assert await other.load() == 1
        t = other.tables[CHAT.key]
        if point == "committed":
            assert t.status is TableStatus.BETWEEN
        else:
            assert t.status is TableStatus.PLAYING and not sent
            await other.handle(SetAutoplay(chat=CHAT, actor=HUMAN, on=True))
        for _ in range(3):
            clock.advance(6)  # past the dead worker's lease, had it taken one
            await other.poll_timers()
        assert sum(isinstance(o, HandFinished) for o in sent) == 1  # sent, and once
        assert len(await store.finished_hands(CHAT.group_key)) == 1
        board = await store.leaderboard(CHAT.group_key)
        assert [(p.user_id, p.hands) for p in board] == [(HUMAN.user_id, 1)]
    finally:
        await store.close()
