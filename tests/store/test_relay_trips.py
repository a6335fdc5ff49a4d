"""The outbox relay's claims in round trips. A claim reads the chat's oldest waiting
messages and notes an attempt on each in one statement (UPDATE … RETURNING; it took two:
a SELECT and the attempts); the first claim of a pump takes the lease before it (and no
longer asks first whether this worker held it: the answer was never used); later claims
renew the lease only when there is more to send (the last one, which finds nothing,
only lets it go). On PostgreSQL each claim is one statement committing by itself (no
BEGIN or COMMIT); SQLite, in its transaction, takes 2 for the first claim, and for a
later one marks, renews the lease, claims and (the last) lets go. Both back ends."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from bot.cluster import receipts
from bot.cluster.relay import OutboxRelay
from bot.store import Batch, OutboxMessage, Store, StoreTx, TableWrite, lease_key
from bot.store.backend import Dialect, Row, Tx


class Counted(Tx):
    """A transaction that notes each statement it runs (one round trip each)."""

    def __init__(self, inner: Tx, statements: list[str]) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.statements = statements

    async def execute(self, sql: str, *args: Any) -> None:
        self.statements.append(sql)
        await self.inner.execute(sql, *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.statements.append(sql)
        await self.inner.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        self.statements.append(sql)
        return await self.inner.fetch(sql, *args)

    async def lock_key(self, key: str, wait: bool = True) -> bool:
        self.statements.append("lock")
        return await self.inner.lock_key(key, wait)


async def test_a_claim_is_two_statements(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    async with store.transaction() as tx:
        for i in range(3):
            await tx.enqueue("tg:-5:", f"k{i}", "TableChanged", {}, 0.0)
    transactions: list[list[str]] = []
    original = StoreTx.__init__

    def counting(self: StoreTx, tx: Tx, fault: Any = None) -> None:
        transactions.append([])
        original(self, Counted(tx, transactions[-1]), fault)

    monkeypatch.setattr(StoreTx, "__init__", counting)

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        ack = receipts.expect()
        assert ack is not None
        ack()  # the call returned at once
        return {}

    relay = OutboxRelay(store.background(), "w1", deliver, lambda: 50.0, batch=2)
    opened: list[bool] = []  # per transaction: opened with BEGIN (not one statement)
    backend = store.background().backend
    begin = backend.transaction

    def noting(readonly: bool = False, lane: Any = None, single: bool = False) -> Any:
        opened.append(not (readonly or single))
        return begin(readonly, lane, single)

    monkeypatch.setattr(backend, "transaction", noting)
    assert await relay.pump_chat("tg:-5:") == 3
    first, middle, last = transactions  # edits only: their marks ride on the next claim
    if store.dialect is Dialect.POSTGRES:
        # Each claim one statement committing by itself (no BEGIN, no COMMIT): the first
        # takes the lease, then claims in a data-modifying WITH; the later ones lock the
        # lease's row, mark, claim and keep or let go the lease.
        assert [[sql.split()[0] for sql in t] for t in transactions] == [["WITH"]] * 3
        assert "chat_leases" in first[0] and "attempts + 1" in first[0]
        assert "FOR UPDATE" in middle[0] and "state = 'sent'" in middle[0]
        assert opened == [False, False, False]
    else:
        assert [sql.split()[0] for sql in first] == ["INSERT", "UPDATE"]  # lease; claim
        assert "RETURNING" in first[1] and "attempts + 1" in first[1]
        # the marks, the lease renewed, a claim (nothing is claimed under a lost lease)
        assert [sql.split()[0] for sql in middle] == ["UPDATE", "INSERT", "UPDATE"]
        # the same, the claim finding nothing, then the release
        assert [sql.split()[0] for sql in last] == ["UPDATE", "INSERT", "UPDATE", "UPDATE"]
        assert "SET until = ?" in last[3]  # -1: let go (the lease row below)
    async with store.transaction(readonly=True) as tx:
        lease = await tx.tx.fetch("SELECT holder, until FROM chat_leases")
    assert [(str(h), float(u)) for h, u in lease] == [("w1", -1.0)]  # let go at the end
    async with store.transaction(readonly=True) as tx:
        assert await tx.unsent("tg:-5:") == []
        got = await tx.tx.fetch("SELECT attempts, state FROM outbox ORDER BY id")
    assert [(int(a), str(s)) for a, s in got] == [(1, "sent")] * 3


async def test_a_claim_that_finds_the_chat_taken_is_rolled_back(store: Store) -> None:
    """w1 claims a message and sends it; meanwhile its lease lapses and w2 takes the
    chat. w1's next claim must leave no trace: its mark is void (an old token), and the
    attempt it noted before finding the lease taken — on that same message, still unsent
    — is rolled back with the claim."""
    async with store.transaction() as tx:
        for i in range(2):
            await tx.enqueue("tg:-5:", f"k{i}", "TableChanged", {}, 0.0)
    now = [50.0]

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        now[0] += 20.0  # the call took long: w1's lease (10 s) ran out
        async with store.transaction() as tx:
            assert await tx.acquire_lease("tg:-5:", "w2", now[0], 10.0)
        ack = receipts.expect()
        assert ack is not None
        ack()
        return {}

    relay = OutboxRelay(store.background(), "w1", deliver, lambda: now[0], batch=1)
    relay.margin = -1e9  # the fake clock is not the relay's: only the database decides
    assert await relay.pump_chat("tg:-5:") == 0
    async with store.transaction(readonly=True) as tx:
        got = await tx.tx.fetch("SELECT msg_key, attempts, state FROM outbox ORDER BY id")
    assert [(str(k), int(a), str(s)) for k, a, s in got] == [
        ("k0", 1, "sending"),  # out, but w1 may not say so: w2 sends it again (an edit)
        ("k1", 0, "pending"),  # untouched
    ]


def recording_relay(
    store: Store, worker: str, seen: list[tuple[str, str, bool]], **kw: Any
) -> OutboxRelay:
    """A relay whose deliveries note (worker, message, recalled just before)."""
    recalled: list[str] = []

    async def recall(owner: str, chats: list[str]) -> None:
        assert lease_key(owner) == owner and chats
        recalled.append(owner)

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        seen.append((worker, m.msg_key, bool(recalled)))
        recalled.clear()
        ack = receipts.expect()
        assert ack is not None
        ack()
        return {}

    return OutboxRelay(store.background(), worker, deliver, lambda: 50.0, recall=recall, **kw)


async def test_a_worker_taking_its_own_last_lease_again_recalls_nothing(store: Store) -> None:
    """A chat's sender changes often (its updates reach every worker in turn), and each
    pump lets the lease go when done. Taking it again right after this worker's own
    release (the next token: nobody held it in between) is no takeover — the adapter's
    budget and message ids are its own — while a lease another worker held in between is
    one, and so is the first."""
    seen: list[tuple[str, str, bool]] = []
    w1, w2 = recording_relay(store, "w1", seen), recording_relay(store, "w2", seen)
    for n, sender in enumerate((w1, w1, w1, w2, w1, w1)):
        async with store.transaction() as tx:
            await tx.enqueue("tg:-5:", f"k{n}", "TableChanged", {}, 0.0)
        assert await sender.pump_chat("tg:-5:") == 1
    assert [(w, r) for w, _, r in seen] == [
        ("w1", True),
        ("w1", False),
        ("w1", False),
        ("w2", True),
        ("w1", True),
        ("w1", False),
    ]


async def test_a_takeover_that_found_nothing_to_send_is_still_one_at_the_next_take(
    store: Store,
) -> None:
    """A worker that takes a chat over from another and finds nothing to send recalls
    nothing then — but its values are as old as before, so its next take (the next
    token, right after its own) still recalls. (Counting that take as continuous let a
    worker send with a budget a minute old: 29 calls in a forum's minute.)"""
    seen: list[tuple[str, str, bool]] = []
    w1, w2 = recording_relay(store, "w1", seen), recording_relay(store, "w2", seen)
    for n, sender in enumerate((w1, w2)):
        async with store.transaction() as tx:
            await tx.enqueue("tg:-5:", f"k{n}", "TableChanged", {}, 0.0)
        assert await sender.pump_chat("tg:-5:") == 1
    assert await w1.pump_chat("tg:-5:") == 0  # taken over from w2, nothing waiting
    async with store.transaction() as tx:
        await tx.enqueue("tg:-5:", "k2", "TableChanged", {}, 0.0)
    assert await w1.pump_chat("tg:-5:") == 1
    assert seen == [("w1", "k0", True), ("w2", "k1", True), ("w1", "k2", True)]


async def test_a_later_claim_marks_claims_and_lets_go_only_under_its_lease(store: Store) -> None:
    """``settle_and_claim``: marks the batch sent and claims the next messages only while
    the lease is still this holder's with this token; keeps the lease while there is
    more (or more was asked for), lets it go when not; and does nothing at all for a
    holder whose lease another worker took (both back ends)."""
    async with store.transaction() as tx:
        for i in range(3):
            await tx.enqueue("tg:-5:", f"k{i}", "TableChanged", {}, 0.0)
    async with store.statement() as tx:
        token, first = await tx.take_and_claim("tg:-5:", "w1", 10.0, 5.0, ["tg:-5:"], 2)
    assert token is not None and [m.msg_key for m in first] == ["k0", "k1"]
    settled = [(m.id, {"ok": m.msg_key}) for m in first]
    async with store.statement() as tx:
        kept, rest = await tx.settle_and_claim(
            "tg:-5:", ("w1", token), 11.0, 5.0, Batch(settled, ["tg:-5:"], 2, False)
        )
    assert kept == token and [m.msg_key for m in rest] == ["k2"]  # more: the lease is kept
    async with store.statement() as tx:  # another worker cannot take it meanwhile
        assert await tx.acquire_lease("tg:-5:", "w2", 12.0, 5.0) is None
    async with store.statement() as tx:
        last, none = await tx.settle_and_claim(
            "tg:-5:", ("w1", token), 12.0, 5.0, Batch([(rest[0].id, {})], ["tg:-5:"], 2, False)
        )
    assert last == token and none == []
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT state FROM outbox ORDER BY id")
        lease = await tx.tx.fetch("SELECT until FROM chat_leases")
    assert [str(r[0]) for r in rows] == ["sent"] * 3
    assert [float(r[0]) for r in lease] == [-1.0]  # nothing left: let go
    async with store.transaction() as tx:
        await tx.enqueue("tg:-5:", "k3", "TableChanged", {}, 0.0)
    async with store.statement() as tx:
        taken = await tx.acquire_lease("tg:-5:", "w2", 13.0, 5.0)
    assert taken is not None and taken > token
    async with store.statement() as tx:  # w1's old lease: nothing marked, nothing claimed
        lost, got = await tx.settle_and_claim(
            "tg:-5:", ("w1", token), 14.0, 5.0, Batch([], ["tg:-5:"], 2, True)
        )
    assert lost is None and got == []
    async with store.transaction(readonly=True) as tx:
        attempts = await tx.tx.fetch("SELECT attempts FROM outbox WHERE msg_key = 'k3'")
    assert [int(r[0]) for r in attempts] == [0]


async def test_a_table_and_the_actions_a_copy_lacks_are_read_in_one_statement(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reload (following another worker's commit, before a delivery) reads the row and
    the actions of its deal from the copy's count on: one statement on PostgreSQL — one
    round trip, and one snapshot (two statements outside a transaction could pair a row
    with actions committed after it). Another deal's actions are not guessed at."""
    rows = tuple((3, i, i % 6, {"n": i}) for i in range(5))
    async with store.transaction() as tx:
        await tx.write(TableWrite("tg:-5:", {"deal_no": 3}, True, 1.0, new_actions=rows))
    statements: list[str] = []
    original = StoreTx.__init__

    def counting(self: StoreTx, tx: Tx, fault: Any = None) -> None:
        original(self, Counted(tx, statements), fault)

    monkeypatch.setattr(StoreTx, "__init__", counting)
    async with store.transaction(readonly=True) as tx:
        table, ahead = await tx.load_table_since("tg:-5:", 3, 2)
    assert table is not None and table.record == {"deal_no": 3} and table.live
    assert ahead is not None and (ahead.deal_no, ahead.start) == (3, 2)
    assert ahead.actions == tuple((seat, action) for _, i, seat, action in rows if i >= 2)
    assert len(statements) == (1 if store.dialect is Dialect.POSTGRES else 2)
    async with store.transaction(readonly=True) as tx:
        _, all_of_it = await tx.load_table_since("tg:-5:", 3, 0)
        _, nothing_new = await tx.load_table_since("tg:-5:", 3, 5)
        _, other_deal = await tx.load_table_since("tg:-5:", 2, 0)
        missing, none = await tx.load_table_since("tg:-6:", 3, 0)
    assert all_of_it is not None and len(all_of_it.actions) == 5
    assert nothing_new is not None and nothing_new.actions == ()
    assert other_deal is None  # the row is at deal 3: the caller reads that deal whole
    assert missing is None and none is None


async def test_a_lingering_lease_keeps_the_chat_with_its_sender(store: Store) -> None:
    """With ``linger``, a lease whose messages are out is held idle for that long: the
    chat's next messages are its holder's to send (another worker's pump finds the lease
    taken and sends nothing), taking it again is no takeover (the same token: nothing
    to recall), and once the idle hold ends another worker takes the chat over."""
    clock = [50.0]
    seen: list[tuple[str, str, bool]] = []

    def relay(worker: str) -> OutboxRelay:
        made = recording_relay(
            store, worker, seen, linger=4.0, monotonic=lambda: clock[0], margin=1.0
        )
        made.now = lambda: clock[0]
        return made

    async def queue(key: str) -> None:
        async with store.transaction() as tx:
            await tx.enqueue("tg:-5:", key, "TableChanged", {}, 0.0)

    w1, w2 = relay("w1"), relay("w2")
    await queue("k0")
    assert await w1.pump_chat("tg:-5:") == 1
    async with store.transaction(readonly=True) as tx:
        lease = await tx.tx.fetch("SELECT holder, until FROM chat_leases")
    assert [(str(h), float(u)) for h, u in lease] == [("w1", 54.0)]  # held idle
    assert w1.lingers("tg:-5:") and not w2.lingers("tg:-5:")
    await queue("k1")
    clock[0] = 51.0
    assert await w2.pump_chat("tg:-5:") == 0  # w1's: nothing sent by w2
    assert await w1.pump_chat("tg:-5:") == 1
    clock[0] = 60.0  # the idle hold is over
    assert not w1.lingers("tg:-5:")
    await queue("k2")
    assert await w2.pump_chat("tg:-5:") == 1
    assert seen == [("w1", "k0", True), ("w1", "k1", False), ("w2", "k2", True)]
    async with store.transaction(readonly=True) as tx:
        assert await tx.chats_waiting(60.0, "w2") == []


async def test_the_lease_is_let_go_only_once_the_adapters_values_are_stored(
    store: Store,
) -> None:
    """A call's ack comes before its adapter stores the group budget's new call (a
    batched write); the relay waits for those writes (``stored``) before the claim that
    may let the lease go, so the next holder's recall sees every call made."""
    events: list[str] = []

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        events.append(f"deliver {m.msg_key}")
        ack = receipts.expect()
        assert ack is not None
        ack()
        return {}

    async def stored() -> None:
        async with store.transaction(readonly=True) as tx:
            held = await tx.holds_lease("tg:-5:", "w1", 50.0)
        events.append(f"stored, lease held: {held}")

    relay = OutboxRelay(store.background(), "w1", deliver, lambda: 50.0, stored=stored)
    async with store.transaction() as tx:
        await tx.enqueue("tg:-5:", "k0", "TableChanged", {}, 0.0)
    assert await relay.pump_chat("tg:-5:") == 1
    assert events == ["deliver k0", "stored, lease held: True"]
    async with store.transaction(readonly=True) as tx:
        assert not await tx.holds_lease("tg:-5:", "w1", 50.0)  # let go after


async def test_the_meta_writer_flushes_what_was_written(store: Store) -> None:
    from bot.cluster.metawriter import MetaWriter

    writer = MetaWriter(store.background())
    async with store.transaction() as tx:
        await tx.write(TableWrite("tg:-5:", {"deal_no": 0}, True, 1.0))
    pending = asyncio.ensure_future(writer.write("tg:-5:", "tg_sent", [1.0, 2.0]))
    await asyncio.sleep(0)  # the write is queued, not yet committed
    await writer.flush()
    async with store.transaction(readonly=True) as tx:
        assert await tx.load_table_meta("tg:-5:") == {"tg_sent": [1.0, 2.0]}
    await pending
    await writer.flush()  # nothing pending: at once
