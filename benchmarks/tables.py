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
    TableManager,
    TableStatus,
    apply_setting_changes,
)

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
        chat = ChatRef("bench", str(i))
        m.settings_cache[chat.group_key] = settings
        await m.handle(OpenTable(chat=chat, actor=HUMAN))
        await m.handle(AddBots(chat=chat, actor=HUMAN, count=5))
        await m.handle(Start(chat=chat, actor=HUMAN))
        chats.append(chat)
    return chats


async def step(m: TableManager, chat: ChatRef) -> float | None:
    """One human command on this table; returns its latency in ms (None if none was due)."""
    t = m.tables[chat.key]
    if t.status is TableStatus.BETWEEN:
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


class CountingManager(TableManager):
    """Counts every engine action applied, human or AI."""

    applied = 0

    def _apply(self, t, seat, action, outs):  # type: ignore[no-untyped-def]
        events = super()._apply(t, seat, action, outs)
        self.applied += 1
        return events


async def main(tables: int, rounds: int, db: str | None = None) -> None:
    store = None
    if db is not None:
        from bot.store import Store

        store = Store(db)
        await store.open()
    m = CountingManager(
        store=store,
        clock=FakeClock(),
        seed_source=iter(range(1, 10**9)).__next__,
        burn_window_seconds=0,
        declare_window_seconds=0,
        between_hands_seconds=0,
    )
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    chats = await setup(m, tables)
    setup_s = time.perf_counter() - t0
    gc.collect()
    mem = (tracemalloc.get_traced_memory()[0] - base) / tables / 1024
    tracemalloc.stop()

    hands_before = sum(m.tables[c.key].match.hand_no for c in chats)
    latencies: list[float] = []
    t0 = time.perf_counter()
    for _ in range(rounds):
        for chat in chats:
            ms = await step(m, chat)
            if ms is not None:
                latencies.append(ms)
    elapsed = time.perf_counter() - t0
    hands = sum(m.tables[c.key].match.hand_no for c in chats) - hands_before
    applied = m.applied
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(f"{tables} tables set up in {setup_s:.1f} s (first hands dealt, AI moves played)")
    print(f"{len(latencies)} commands in {elapsed:.1f} s; {hands} hands finished meanwhile")
    print(f"latency median {statistics.median(latencies):.2f} ms, p95 {p95:.2f} ms")
    print(f"engine actions applied: {applied}")
    print(f"actions_per_second {applied / (setup_s + elapsed):.0f} actions/s")
    print(f"command_latency_p95 {p95:.2f} ms")
    print(f"memory_per_table {mem:.1f} KB")
    if store is not None:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--db", help="persist through a store: a SQLite file or a postgresql:// URL (default: none)"
    )
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.rounds, args.db))
