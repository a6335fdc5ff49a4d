"""A bot process to be killed: ``python -m tests.store.crash_worker TARGET PHASE POINT``.

It plays one table (one human on 托管, five AI seats) to a known step, then arms the
store's fault hook so that the step named by PHASE SIGKILLs the process at POINT inside
its transaction — no ``finally``, no flush, exactly as a power cut or the OOM killer.

PHASE ``finish``: the step in which hand 1 ends (table between hands + hand + stats).
PHASE ``deal``: the step that deals hand 2 (drops hand 1's log, logs hand 2's actions).
PHASE ``shared``: as ``finish``, by a worker of several (bot.cluster.shell), whose step
also queues its messages in the outbox — killed before it could send them.
PHASE ``copy``: as ``shared``, by a worker that hears every commit (PostgreSQL): its
commands run on its current copy and commit in one checked statement (``write_if``); it
prints how many did before the fatal one.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from bot.cluster.shell import shared_manager
from bot.store import Store
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    NextHand,
    OpenTable,
    SetAutoplay,
    Start,
    TableManager,
    apply_setting_changes,
)

CHAT = ChatRef("crash", "1")
HUMAN = Actor("u1", "玩家")
SEED = 4242


SETTINGS = apply_setting_changes(GroupSettings(), {"match_hands": 0, "turn_seconds": 0})
TIMING = {"burn_window_seconds": 0, "declare_window_seconds": 5, "between_hands_seconds": 0}


def manager(store: Store) -> TableManager:
    m = TableManager(store=store, clock=FakeClock(), seed_source=lambda: SEED, **TIMING)  # type: ignore[arg-type]
    m.settings_cache[CHAT.group_key] = SETTINGS
    return m


async def shared_worker(store: Store, name: str, clock: FakeClock) -> TableManager:
    await store.save_settings(CHAT.group_key, SETTINGS.to_json())
    return shared_manager(
        store,
        worker=name,
        clock=clock,
        seed_source=lambda: SEED,
        lease_seconds=5,
        inline_relay=True,
        **TIMING,
    )  # type: ignore[arg-type]


async def open_table(m: TableManager) -> None:
    await m.handle(OpenTable(chat=CHAT, actor=HUMAN))
    await m.handle(AddBots(chat=CHAT, actor=HUMAN, count=5))
    await m.handle(Start(chat=CHAT, actor=HUMAN))  # waits for the human's declaration


def arm(store: Store, point: str) -> None:
    def kill(at: str) -> None:
        if at == point:
            os.kill(os.getpid(), signal.SIGKILL)

    store.fault_hook = kill


async def main(target: str, phase: str, point: str) -> None:
    store = Store(target)
    await store.open()
    shared = phase in ("shared", "copy")
    m = await shared_worker(store, "doomed", FakeClock()) if shared else manager(store)
    if phase == "copy":
        assert m.shared
        await m.load()
    await open_table(m)
    if m.timings is not None:  # a worker of several
        print("on copy:", m.timings.summary().get("write_if", {}).get("n", 0), flush=True)
    if phase in ("finish", "shared", "copy"):
        arm(store, point)
        await m.handle(SetAutoplay(chat=CHAT, actor=HUMAN, on=True))  # plays hand 1 out
    else:
        await m.handle(SetAutoplay(chat=CHAT, actor=HUMAN, on=True))
        arm(store, point)
        await m.handle(NextHand(chat=CHAT, actor=HUMAN))
    print("not killed", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
