"""At-least-once delivery through the outbox (bot.cluster.relay, bot.cluster.receipts):
a message counts as sent only once the platform calls it caused have returned, so a
worker killed after handing it to its adapter's queue loses nothing; and a sender that
is no longer sure of its lease on the chat makes no call and marks nothing (fencing)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.cluster import receipts
from bot.cluster.relay import OutboxMessage, OutboxRelay
from bot.cluster.shell import shared_manager
from bot.store import Store, StoreTx
from bot.store.backend import Dialect, Lane
from bot.store.postgres import POOL_SIZES
from bot.table import Actor, ChatRef, FakeClock, OpenTable
from bot.table.outputs import Out, TableChanged

from .conftest import new_pg_database
from .handoff_worker import CHAT, LEASE
from .pgserver import PgServer

ROOT = Path(__file__).resolve().parents[2]
ME = Actor("u1", "甲")


class Adapter:
    """Queues each output's platform call; ``flush`` makes the calls — as a well-behaved
    adapter does, only those whose relay is still sure of its lease."""

    def __init__(self, at_once: bool = False) -> None:
        self.outs: list[Out] = []
        self.queued: list[receipts.Ack] = []
        self.calls = 0
        self.at_once = at_once  # make each call as soon as it is queued

    async def __call__(self, out: Out) -> None:
        self.outs.append(out)
        ack = receipts.expect()
        if ack is not None:
            self.queued.append(ack)
        if self.at_once:
            self.flush()

    def flush(self) -> None:
        for ack in self.queued:
            if ack.live():
                self.calls += 1
                ack()
            else:
                ack.abandon()
        self.queued.clear()


async def outbox(store: Store, chat: ChatRef) -> list[tuple[str, int]]:
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch(
            "SELECT state, attempts FROM outbox WHERE chat_key = ? ORDER BY id", chat.key
        )
    return [(str(s), int(a)) for s, a in rows]


async def test_a_message_is_sent_only_when_its_platform_call_returned(store: Store) -> None:
    m = shared_manager(store, worker="w1", lease_seconds=5)
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
        heir = shared_manager(store, worker="heir", lease_seconds=5)
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


async def test_marks_are_fenced_by_the_leases_token(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.enqueue("g", "k0", "send", {}, 0.0)
        await tx.enqueue("g", "k1", "send", {}, 0.0)
        first = await tx.acquire_lease("g", "w1", now=10.0, ttl=5.0)
        assert first is not None
        assert await tx.acquire_lease("g", "w1", now=12.0, ttl=5.0) == first  # renewed in time
        (m0, m1) = await tx.unsent("g")
    async with store.transaction() as tx:  # w1's lease lapses; w2 takes the chat over
        second = await tx.acquire_lease("g", "w2", now=18.0, ttl=5.0)
        assert second is not None and second > first
    async with store.transaction() as tx:
        # w1's answer came late: its mark is refused, the message stays for w2
        assert not await tx.mark_sent(m0.id, 18.5, {"by": "w1"}, fence=("w1", first))
        await tx.mark_sent_many([(m1.id, {"by": "w1"})], 18.5, fence=("w1", first))
        assert [m.msg_key for m in await tx.unsent("g")] == ["k0", "k1"]
        assert await tx.mark_sent(m0.id, 19.0, {"by": "w2"}, fence=("w2", second))
        await tx.release_lease("g", "w2")
        # a lease that lapsed changes token even for the same holder
        third = await tx.acquire_lease("g", "w2", now=19.5, ttl=5.0)
        assert third is not None and third > second
        assert not await tx.mark_sent(m1.id, 20.0, {"by": "w2"}, fence=("w2", second))
        assert await tx.mark_sent(m1.id, 20.0, {"by": "w2"}, fence=("w2", third))
        assert await tx.sent_result("k0") == {"by": "w2"}


@pytest.mark.parametrize("renewal", ["slow", "refused"])
async def test_a_slow_or_failed_renewal_stops_the_calls_and_the_next_holder_sends_once(
    store_target: str, monkeypatch: pytest.MonkeyPatch, renewal: str
) -> None:
    """w1 hands a message to its adapter, whose call waits (the group budget). w1's lease
    renewal then takes longer than the lease: the database renewed it, but by the time w1
    hears so it may have lapsed ("slow") — or it reaches the database after the lease
    lapsed and w2 took the chat ("refused"). w1 must make no call and mark nothing; w2
    sends the message, once."""
    wall, mono = FakeClock(), FakeClock()
    stores = [Store(store_target), Store(store_target)]
    for s in stores:
        await s.open()
    lease = 0.3  # the renewal comes after lease / 3 of real waiting
    a = shared_manager(stores[0], worker="w1", clock=wall, lease_seconds=lease)
    a.repository.relay.monotonic = mono.now
    b = shared_manager(stores[1], worker="w2", clock=wall, lease_seconds=lease)
    b.repository.inline_relay = True
    slow, fast = Adapter(), Adapter(at_once=True)
    a.subscribe(slow)
    b.subscribe(fast)
    renewed = asyncio.Event()
    original = StoreTx.acquire_lease

    async def stalled(
        tx: StoreTx, chat_key: str, holder: str, now: float, ttl: float
    ) -> int | None:
        stalls = holder == "w1" and slow.queued and not renewed.is_set()
        if stalls and renewal == "refused":  # stalled on its way: w2 takes the chat first
            mono.advance(4 * lease)
            wall.advance(4 * lease)
            async with stores[1].transaction() as other:
                assert await original(other, chat_key, "w2", wall.now(), ttl)
            now = wall.now()
        token = await original(tx, chat_key, holder, now, ttl)
        if stalls and renewal == "slow":  # renewed, but the answer comes back late
            mono.advance(4 * lease)
            wall.advance(4 * lease)
        if stalls:
            renewed.set()
        return token

    monkeypatch.setattr(StoreTx, "acquire_lease", stalled)
    chat = ChatRef("tg", "-7")
    try:
        await a.handle(OpenTable(chat=chat, actor=ME))
        await asyncio.wait_for(renewed.wait(), 5)
        await asyncio.wait_for(a.drain(), 5)  # w1's relay gave up
        slow.flush()  # the budget frees the call now: it is not made
        assert slow.calls == 0 and [type(o) for o in slow.outs] == [TableChanged]
        assert await outbox(stores[0], chat) == [("sending", 1)]  # not marked
        wall.advance(4 * lease)  # w1's lease (or the one w2 took) ran out in the database
        await b.poll_timers()
        assert fast.calls == 1 and [type(o) for o in fast.outs] == [TableChanged]
        assert await outbox(stores[0], chat) == [("sent", 2)]
        async with stores[0].transaction(readonly=True) as tx:
            (key,) = [r[0] for r in await tx.tx.fetch("SELECT msg_key FROM outbox")]
            assert await tx.sent_result(str(key)) == {"worker": "w2"}
    finally:
        for s in stores:
            await s.close()


@pytest.mark.parametrize(
    ("kind", "own_commit"), [("Reply", True), ("MatchOver", True), ("TableChanged", False)]
)
async def test_a_new_message_is_marked_the_moment_its_call_returned(
    store: Store, monkeypatch: pytest.MonkeyPatch, kind: str, own_commit: bool
) -> None:
    """Telegram cannot recognise a new message sent again, so the window in which a death
    sends it twice is kept to one short transaction: its mark commits at once, not with
    the next claim. An edit's mark may wait for the next claim (a round trip saved)."""
    m = shared_manager(store, worker="w1", lease_seconds=5)
    events: list[str] = []
    bookkeeping = m.repository.bookkeeping
    bookkeeping.fault_hook = lambda point: events.append(point) if point == "committed" else None
    marks, own_marks, claims = StoreTx.mark_sent_many, StoreTx.mark_done_many, StoreTx.claim
    settle_claims = StoreTx.settle_and_claim

    async def mark(tx: StoreTx, sent: list[tuple[int, dict[str, object]]], *a: object) -> None:
        if sent:
            events.append("mark")
        await marks(tx, sent, *a)  # type: ignore[arg-type]

    async def own_mark(tx: StoreTx, done: list[object], *a: object) -> None:
        if done:
            events.append("mark")
        await own_marks(tx, done, *a)  # type: ignore[arg-type]

    async def claim(tx: StoreTx, *a: object) -> object:
        events.append("claim")
        return await claims(tx, *a)  # type: ignore[arg-type]

    async def settle_claim(
        tx: StoreTx, owner: str, fence: Any, now: float, ttl: float, batch: Any
    ) -> Any:
        # PostgreSQL marks and claims in one statement (SQLite calls the two above).
        if tx.tx.dialect is Dialect.POSTGRES:
            events.extend(["mark", "claim"] if batch.settled else ["claim"])
        return await settle_claims(tx, owner, fence, now, ttl, batch)

    monkeypatch.setattr(StoreTx, "mark_sent_many", mark)
    monkeypatch.setattr(StoreTx, "mark_done_many", own_mark)
    monkeypatch.setattr(StoreTx, "claim", claim)
    monkeypatch.setattr(StoreTx, "settle_and_claim", settle_claim)
    async with store.transaction() as tx:
        await tx.enqueue("tg:-5:", "k", kind, {"say": "x"}, 0.0)
    assert await m.repository.relay.pump_chat("tg:-5:") == 1
    after = events[events.index("mark") + 1]
    assert after == ("committed" if own_commit else "claim")
    assert await outbox(store, ChatRef("tg", "-5")) == [("sent", 1)]


async def test_a_mark_commits_while_the_bookkeeping_pool_is_exhausted(
    pg_server: PgServer,
) -> None:
    """The mark that closes Telegram's double-post window has connections of its own: a
    worker whose bookkeeping connections are all taken (claims, reloads, adapters'
    values under load) still marks a message sent the moment its call returned."""
    store = Store(await new_pg_database(pg_server))
    await store.open()
    pool = store.backend.pool_of(Lane.BACKGROUND)  # type: ignore[attr-defined]
    held: list[Any] = []
    try:
        async with store.transaction() as tx:
            await tx.enqueue("tg:-5:", "k", "MatchOver", {"say": "x"}, 0.0)

        async def deliver(m: OutboxMessage) -> dict[str, Any]:
            # While the call is on its way everything else takes every bookkeeping
            # connection; then the call returns (no receipt: settled at the hand-off).
            held.extend([await pool.acquire() for _ in range(POOL_SIZES[Lane.BACKGROUND])])
            return {"message_id": 7}

        relay = OutboxRelay(store.background(), "w1", deliver, lambda: 50.0)
        pumping = asyncio.ensure_future(relay.pump_chat("tg:-5:"))
        state: list[tuple[str, int]] = []
        for _ in range(100):
            await asyncio.sleep(0.05)
            state = await outbox(store, ChatRef("tg", "-5"))  # on the commands' pool
            if state == [("sent", 1)]:
                break
        assert state == [("sent", 1)]
        assert not pumping.done()  # its next claim waits for a bookkeeping connection
        for conn in held:
            await pool.release(conn)
        held.clear()
        assert await asyncio.wait_for(pumping, 5) == 1
    finally:
        for conn in held:  # a failed run gives them back, or closing would wait forever
            await pool.release(conn)
        await store.close()
