"""Many live tables in one process: throughput, command latency and memory per table.

Run: ``python benchmarks/tables.py [--tables 1000] [--rounds 30] [--db FILE_OR_URL]``
(``--db``: every step persisted, as the bot does). Each table has one
human seat (played by this script, cheapest play) and five AI seats; every command the
script sends makes the AI seats answer until the human is to act again. The last lines
are ``<name> <value> <unit>`` figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.actions import Action, ActionKind
from bot.table import (
    Act,
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    NextHand,
    OpenTable,
    Ready,
    Start,
    StopMatch,
    TableManager,
    TableStatus,
    apply_setting_changes,
)
from bot.table.core.context import Ctx

HUMAN = Actor("bench-human", "人")


def cheapest(legal: tuple[Action, ...]) -> Action:
    plays = [a for a in legal if a.kind in (ActionKind.PLAY, ActionKind.RETURN_TRIBUTE)]
    if plays:
        return min(plays, key=lambda a: (sum(a.cards or ()), a.cards))
    passes = [a for a in legal if a.kind is ActionKind.PASS]
    return passes[0] if passes else legal[0]


async def setup(m: TableManager, n: int) -> list[ChatRef]:
    chats = []
    settings = apply_setting_changes(GroupSettings(), {"match_hands": 0, "turn_seconds": 0})
    for i in range(n):
        chat = ChatRef("bench", "group", str(i))  # topics of one group share its settings
        m.use_settings(chat, settings)
        await m.handle(OpenTable(chat=chat, actor=HUMAN))
        await m.handle(AddBots(chat=chat, actor=HUMAN, count=5))
        await m.handle(Start(chat=chat, actor=HUMAN))
        chats.append(chat)
    return chats


async def step(m: TableManager, chat: ChatRef) -> float | None:
    """One human command on this table; returns its latency in ms (None if none was due)."""
    snap = m.snapshot(chat.key)
    assert snap is not None
    if snap.status is TableStatus.BETWEEN:
        cmd: object = NextHand(chat=chat, actor=HUMAN)
    else:
        priv = m.private_snapshot(chat.key, HUMAN.user_id)
        if priv is None or priv.role is None:
            return None
        if priv.role == "pre_play":
            cmd = Ready(chat=chat, actor=HUMAN)
        else:
            cmd = Act(chat=chat, actor=HUMAN, action=cheapest(priv.legal), version=priv.version)
    t0 = time.perf_counter()
    await m.handle(cmd)  # type: ignore[arg-type]
    return (time.perf_counter() - t0) * 1000


class Counter:
    """Counts every engine action applied through the core, human or AI."""

    applied = 0

    def __init__(self) -> None:
        original = Ctx.apply

        def counting(ctx: Ctx, seat: int, action: Action) -> object:
            Counter.applied += 1
            return original(ctx, seat, action)

        Ctx.apply = counting  # type: ignore[assignment,method-assign]


async def churn(tables: int) -> float:
    """Memory (KB) still held after ``tables`` tables have opened, filled with AI seats,
    finished and been left alone past ``finished_ttl``: what stays is the manager's
    bounded caches, not the tables."""
    clock = FakeClock()
    m = TableManager(clock=clock, seed_source=iter(range(1, 10**9)).__next__, finished_ttl=60)
    settings = apply_setting_changes(GroupSettings(), {"match_hands": 1})
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(tables):
        chat = ChatRef("churn", str(i))
        m.use_settings(chat, settings)
        await m.handle(OpenTable(chat=chat, actor=HUMAN))
        await m.handle(AddBots(chat=chat, actor=HUMAN, count=5))
        await m.handle(StopMatch(chat=chat, actor=HUMAN))
        if i % 500 == 499:
            clock.advance(61)
            await m.poll_timers()
    clock.advance(61)
    await m.poll_timers()
    gc.collect()
    held = (tracemalloc.get_traced_memory()[0] - base) / 1024
    tracemalloc.stop()
    assert not m.tables, "finished tables left memory"
    return held


async def main(tables: int, rounds: int, churned: int, db: str | None = None) -> None:
    store = None
    if db is not None:
        from bot.store import Store

        store = Store(db)
        await store.open()
    m = TableManager(
        store=store,
        clock=FakeClock(),
        seed_source=iter(range(1, 10**9)).__next__,
        burn_window_seconds=0,
        declare_window_seconds=0,
        between_hands_seconds=0,
    )
    counter = Counter()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    chats = await setup(m, tables)
    setup_s = time.perf_counter() - t0
    gc.collect()
    mem = (tracemalloc.get_traced_memory()[0] - base) / tables / 1024
    tracemalloc.stop()

    def hands_done() -> int:
        return sum(s.hand_no for c in chats if (s := m.snapshot(c.key)) is not None)

    hands_before = hands_done()
    latencies: list[float] = []
    t0 = time.perf_counter()
    for _ in range(rounds):
        for chat in chats:
            ms = await step(m, chat)
            if ms is not None:
                latencies.append(ms)
    elapsed = time.perf_counter() - t0
    hands = hands_done() - hands_before
    applied = counter.applied
    held = await churn(churned)
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(f"{tables} tables set up in {setup_s:.1f} s (first hands dealt, AI moves played)")
    print(f"{len(latencies)} commands in {elapsed:.1f} s; {hands} hands finished meanwhile")
    print(f"latency median {statistics.median(latencies):.2f} ms, p95 {p95:.2f} ms")
    print(f"engine actions applied: {applied}")
    print(f"{churned} tables opened, finished and left memory; {held:.0f} KB still held")
    print(f"actions_per_second {applied / (setup_s + elapsed):.0f} actions/s")
    print(f"command_latency_p95 {p95:.2f} ms")
    print(f"memory_per_table {mem:.1f} KB")
    print(f"memory_after_{churned}_tables_gone {held:.0f} KB")
    if store is not None:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--churn", type=int, default=10_000)
    parser.add_argument(
        "--db", help="persist through a store: a SQLite file or a postgresql:// URL (default: none)"
    )
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.rounds, args.churn, args.db))
