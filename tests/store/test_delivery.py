"""At-least-once delivery through the outbox (bot.cluster.relay, bot.cluster.receipts):
a message counts as sent only once the platform calls it caused have returned, so a
worker killed after handing it to its adapter's queue loses nothing."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from bot.cluster import receipts
from bot.cluster.shell import SharedTableManager
from bot.store import Store
from bot.table import Actor, ChatRef, OpenTable
from bot.table.outputs import Out, TableChanged

from .handoff_worker import CHAT, LEASE

ROOT = Path(__file__).resolve().parents[2]
ME = Actor("u1", "甲")


class Adapter:
    """Queues each output's platform call; ``flush`` makes the calls."""

    def __init__(self) -> None:
        self.outs: list[Out] = []
        self.queued: list[receipts.Ack] = []

    async def __call__(self, out: Out) -> None:
        self.outs.append(out)
        ack = receipts.expect()
        if ack is not None:
            self.queued.append(ack)

    def flush(self) -> None:
        for ack in self.queued:
            ack()
        self.queued.clear()


async def outbox(store: Store, chat: ChatRef) -> list[tuple[str, int]]:
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch(
            "SELECT state, attempts FROM outbox WHERE chat_key = ? ORDER BY id", chat.key
        )
    return [(str(s), int(a)) for s, a in rows]


async def test_a_message_is_sent_only_when_its_platform_call_returned(store: Store) -> None:
    m = SharedTableManager(store, worker="w1", lease_seconds=5)
    adapter = Adapter()
    m.subscribe(adapter)
    chat = ChatRef("tg", "-1")
    await m.handle(OpenTable(chat=chat, actor=ME))
    for _ in range(100):  # handed over in the background
        if adapter.queued:
            break
        await asyncio.sleep(0.01)
    assert [type(o) for o in adapter.outs] == [TableChanged]
    assert await outbox(store, chat) == [("sending", 1)]  # handed over, not out yet
    adapter.flush()
    await m.drain()
    assert await outbox(store, chat) == [("sent", 1)]


async def test_a_worker_killed_after_the_hand_off_leaves_its_messages_to_another(
    store_target: str,
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store.handoff_worker", store_target],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the message is in the dying worker's queue
        assert line.startswith("held TableChanged"), line + proc.stderr.read()
        proc.kill()  # SIGKILL: no finally, no flush
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    store = Store(store_target)
    await store.open()
    try:
        assert await outbox(store, CHAT) == [("sending", 1)]  # not lost, not marked sent
        heir = SharedTableManager(store, worker="heir", lease_seconds=5)
        adapter = Adapter()
        heir.subscribe(adapter)
        await heir.poll_timers()
        await asyncio.sleep(0.1)
        assert adapter.outs == []  # the dead worker's lease still holds the chat
        deadline = time.monotonic() + LEASE + 5
        while not adapter.outs and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            await heir.poll_timers()
        assert [type(o) for o in adapter.outs] == [TableChanged]
        assert await outbox(store, CHAT) == [("sending", 2)]  # a retry, recognised as one
        adapter.flush()
        await heir.drain()
        await heir.poll_timers()
        assert await outbox(store, CHAT) == [("sent", 2)]
        assert len(adapter.outs) == 1  # and only once
        async with store.transaction(readonly=True) as tx:
            (key,) = [r[0] for r in await tx.tx.fetch("SELECT msg_key FROM outbox")]
            assert await tx.sent_result(str(key)) == {"worker": "heir"}
    finally:
        await store.close()
