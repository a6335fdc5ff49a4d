"""A worker to be killed after the hand-off: ``python -m tests.store.handoff_worker TARGET``.

It opens a table; the outbox relay hands the step's messages to this worker's adapter,
which queues them and never gets to make its platform calls (as a Telegram Sender that
waits for the group budget). The relay therefore waits, renewing the chat's lease, and
prints ``held`` once every message is handed over — the parent then SIGKILLs it.
"""

from __future__ import annotations

import asyncio
import sys

from bot.cluster import receipts
from bot.cluster.shell import shared_manager
from bot.store import Store
from bot.table import Actor, ChatRef, OpenTable
from bot.table.outputs import Out

CHAT = ChatRef("tg", "-4711")
HUMAN = Actor("u1", "玩家")
LEASE = 1.0  # seconds: the test waits this long for the lease to run out


class StuckAdapter:
    """Queues each output for a platform call that never returns."""

    def __init__(self) -> None:
        self.queued: list[receipts.Ack] = []

    async def __call__(self, out: Out) -> None:
        ack = receipts.expect()
        assert ack is not None, "the relay hands messages over inside a receipt"
        self.queued.append(ack)
        print("held", type(out).__name__, flush=True)


async def main(target: str) -> None:
    store = Store(target)
    await store.open()
    m = shared_manager(store, worker="doomed", lease_seconds=LEASE)
    m.subscribe(StuckAdapter())
    await m.handle(OpenTable(chat=CHAT, actor=HUMAN))
    await m.drain()  # never returns: the calls never come back
    print("not killed", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
