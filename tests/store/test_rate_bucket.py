"""Telegram's bot-wide 30 calls a second shared by every worker (bot.cluster.ratebucket,
issue #38 item 5): each permit is a slot of its own in one database row."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cluster import ratebucket
from bot.cluster.ratebucket import SharedRate
from bot.store import Store
from bot.store.backend import Dialect

from .test_command_on_copy import counting

ROOT = Path(__file__).resolve().parents[2]


async def test_permits_of_several_workers_are_slots_one_rate_apart(store: Store) -> None:
    """Three workers asking at the same instant, in turn: every permit after the first
    waits one more slot (1/rate); once the clock moves on, the bucket refills."""
    now = [1000.0]
    workers = [SharedRate(store, "telegram", 30.0, wall=lambda: now[0]) for _ in range(3)]
    waits = [await workers[i % 3].reserve() for i in range(9)]
    assert waits == pytest.approx([i / 30 for i in range(9)])
    now[0] += 1.0  # 30 slots later: the 8 reserved ahead are past, the bucket is full again
    assert await workers[0].reserve() == 0.0
    assert await workers[1].reserve() == pytest.approx(1 / 30)
    other = SharedRate(store, "discord", 5.0, wall=lambda: now[0])
    assert await other.reserve() == 0.0  # a rate of its own


async def test_a_burst_lets_that_many_calls_go_at_once(store: Store) -> None:
    rate = SharedRate(store, "telegram", 10.0, burst=3, wall=lambda: 50.0)
    waits = [await rate.reserve() for _ in range(5)]
    assert waits == pytest.approx([0.0, 0.0, 0.0, 0.1, 0.2])
    with pytest.raises(ValueError):
        SharedRate(store, "x", 0.0)


def max_in_window(times: list[float], width: float) -> int:
    times = sorted(times)
    best, lo = 0, 0
    for hi, at in enumerate(times):
        while times[lo] <= at - width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def test_three_worker_processes_together_keep_30_a_second(
    store_target: str,
) -> None:
    """Three processes each calling as fast as the shared rate lets it, for 4 s: the
    bucket gives their permits together no more than 30 slots in any second (31 when a
    window's both ends hold one), about 30 a second in all — each got a share — and no
    worker calls before its slot. (When a loaded machine wakes a worker late, its call
    comes later than its slot and may bunch with the next: the operating system's, not
    the bucket's; the wake times are not counted.)"""
    if not store_target.startswith("postgres"):
        pytest.skip("several workers share PostgreSQL")
    store = Store(store_target)
    await store.open()  # the schema, once
    await store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "tests.store.rate_worker", store_target, "4", "30"]
    procs = [
        await asyncio.create_subprocess_exec(*args, cwd=ROOT, env=env, stdout=subprocess.PIPE)
        for _ in range(3)
    ]
    outs = [await p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    lines = [[line.split() for line in out.decode().splitlines()] for out, _ in outs]
    per_worker = [[float(slot) for slot, _ in calls] for calls in lines]
    assert all(float(woke) >= float(slot) - 0.001 for calls in lines for slot, woke in calls)
    times = sorted(t for calls in per_worker for t in calls)
    assert all(len(calls) >= 10 for calls in per_worker)
    assert max_in_window(times, 1.0) <= 31
    assert len(times) / (times[-1] - times[0]) <= 30.5
    assert len(times) >= 90  # the rate is used, not starved


async def test_every_worker_takes_telegrams_rate_from_the_shared_bucket(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built for a worker of several, the Telegram bot asks the bucket before each chat
    call, at GOUJI_TELEGRAM_CALLS_PER_SECOND for the whole bot (default 30); one
    process alone leaves the bot-wide limit to the library."""
    from adapters.main import build_bots
    from adapters.pacing import NoGlobalRate
    from bot.cluster.shell import shared_manager
    from bot.table import TableManager

    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.delenv("GOUJI_TELEGRAM_CALLS_PER_SECOND", raising=False)
    monkeypatch.delenv("GOUJI_DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("GOUJI_WEB_URL", raising=False)
    (bot,) = build_bots(shared_manager(store, worker="w1"))
    rate = bot.sender.rules.rate  # type: ignore[attr-defined]
    assert isinstance(rate, SharedRate) and rate.rate == 30 and rate.name == "tg"
    # It works on this store, and a play's calls (a table edit, six hand messages) go at
    # once, as one process's library limiter lets them (then one a slot).
    waits = [await rate.reserve() for _ in range(7)]
    assert waits == [0.0] * 7
    (alone,) = build_bots(TableManager())
    assert isinstance(alone.sender.rules.rate, NoGlobalRate)  # type: ignore[attr-defined]


async def test_a_permit_does_not_wait_for_the_disk(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a permit's commit does not wait for its WAL flush: every call of
    every worker takes one on the same row, so each flush held the next permit (issue
    #38: a turn's private edits went out a disk flush apart). The statement turns
    ``synchronous_commit`` off for its own transaction — and still takes its slot."""
    if store.dialect is not Dialect.POSTGRES:
        pytest.skip("SQLite: one process, its own file")
    statements = counting(monkeypatch)
    rate = SharedRate(store, "telegram", 30.0, wall=lambda: 70.0)
    assert await rate.reserve() == 0.0
    assert await rate.reserve() == pytest.approx(1 / 30)
    assert statements and all("synchronous_commit" in sql for sql in statements)
    async with store.transaction() as tx:  # the statement's setting, in its transaction
        await tx.tx.fetchone(ratebucket._TAKE_PG, "other", 1.0, 70.0, 1.0, 30.0)
        row = await tx.tx.fetchone("SELECT current_setting('synchronous_commit')")
    assert row is not None and row[0] == "off"
    async with store.transaction() as tx:  # only that transaction's
        row = await tx.tx.fetchone("SELECT current_setting('synchronous_commit')")
    assert row is not None and row[0] == "on"
