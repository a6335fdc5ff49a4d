"""What several workers share through the store, on both back ends: a per-table lock that
holds across connections, deadline rows claimed exactly once, and the outbox with one
sender lease per chat. Two ``Store`` objects on one database stand for two workers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import Deadline, Store, TableWrite


@pytest.fixture
async def other(store_target: str, store: Store) -> AsyncIterator[Store]:
    """A second worker's connection to the same database."""
    s = Store(store_target)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def bump(store: Store, key: str) -> None:
    """Read-modify-write of one table under its lock, with a pause in the middle."""
    async with store.transaction() as tx:
        row = await tx.lock_table(key)
        count = 0 if row is None else int(row.record["count"])
        version = 0 if row is None else row.version
        await asyncio.sleep(0.005)  # let the other worker try to get in
        assert await tx.save_table(key, {"count": count + 1}, True) == version + 1


async def test_the_table_lock_holds_across_workers(store: Store, other: Store) -> None:
    # The first bumps race to create the row: the lock must hold before it exists.
    await asyncio.gather(*(bump(s, "t:1:") for s in (store, other) for _ in range(6)))
    async with store.transaction(readonly=True) as tx:
        row = await tx.load_table("t:1:")
        assert await tx.table_version("t:1:") == 12
    assert row is not None and row.record == {"count": 12} and row.version == 12


async def test_try_lock_gives_up_while_another_worker_holds_the_table(
    store: Store, other: Store
) -> None:
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with store.transaction() as tx:
            await tx.lock_table("t:2:")
            held.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await held.wait()
    async with other.transaction() as tx:
        assert not await tx.try_lock_table("t:2:")
    release.set()
    await task
    async with other.transaction() as tx:
        assert await tx.try_lock_table("t:2:")


async def test_deadline_rows_set_replace_clear(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.set_deadline("a", "turn:3", 100.0)
        await tx.set_deadline("b", "burn", 50.0)
        await tx.set_deadline("a", "turn:4", 120.0)  # a table has one deadline
        await tx.set_deadline("c", "next_hand", 10.0)
        await tx.set_deadline("c", "", None)
    async with store.transaction(readonly=True) as tx:
        assert await tx.deadline("a") == Deadline("a", "turn:4", 120.0)
        assert await tx.deadline("c") is None
        assert await tx.next_due() == 50.0
    async with store.transaction() as tx:
        assert await tx.claim_due(40.0) is None  # nothing due yet
        assert await tx.claim_due(200.0) == Deadline("b", "burn", 50.0)  # earliest first
        assert await tx.claim_due(200.0, skip=["b"]) == Deadline("a", "turn:4", 120.0)


async def fire(store: Store, now: float, hold: float, fired: list[str]) -> None:
    """One timer pass of a worker: claim, 'fire' (clear the row), commit."""
    async with store.transaction() as tx:
        d = await tx.claim_due(now)
        if d is None:
            return
        await asyncio.sleep(hold)
        fired.append(d.table_key)
        await tx.set_deadline(d.table_key, "", None)


async def test_each_due_deadline_fires_once_across_workers(store: Store, other: Store) -> None:
    async with store.transaction() as tx:
        for i in range(8):
            await tx.set_deadline(f"t{i}", "turn:1", float(i))
    fired: list[str] = []
    for _ in range(3):
        await asyncio.gather(
            *(fire(s, 100.0, 0.002, fired) for s in (store, other) for _ in range(3))
        )
    assert sorted(fired) == [f"t{i}" for i in range(8)]  # every one, none twice


async def test_a_worker_that_dies_holding_a_deadline_leaves_it_for_another(
    store: Store, other: Store
) -> None:
    async with store.transaction() as tx:
        await tx.set_deadline("t", "turn:1", 1.0)

    class Died(Exception):
        pass

    with pytest.raises(Died):
        async with store.transaction() as tx:
            assert await tx.claim_due(5.0) is not None
            raise Died  # the transaction is rolled back, as when the connection drops
    fired: list[str] = []
    await fire(other, 5.0, 0, fired)
    assert fired == ["t"]


async def test_a_state_change_and_its_messages_commit_together(store: Store) -> None:
    class Failed(Exception):
        pass

    with pytest.raises(Failed):
        async with store.transaction() as tx:
            await tx.write(TableWrite("t", {"n": 1}, True))
            assert await tx.enqueue("chat", "t:1:table", "edit", {"v": 1}, 0.0)
            raise Failed
    async with store.transaction(readonly=True) as tx:
        assert await tx.load_table("t") is None
        assert await tx.unsent("chat") == []
    async with store.transaction() as tx:
        await tx.write(TableWrite("t", {"n": 1}, True))
        assert await tx.enqueue("chat", "t:1:table", "edit", {"v": 1}, 0.0)
        assert not await tx.enqueue("chat", "t:1:table", "edit", {"v": 1}, 0.0)  # same key
    async with store.transaction(readonly=True) as tx:
        assert [m.msg_key for m in await tx.unsent("chat")] == ["t:1:table"]


async def test_one_sender_per_chat_and_nothing_sent_twice(store: Store, other: Store) -> None:
    async with store.transaction() as tx:
        for i in range(3):
            await tx.enqueue("g1", f"k{i}", "send", {"i": i}, float(i))
        await tx.enqueue("g2", "x", "send", {}, 0.0)
    async with store.transaction() as tx:
        assert await tx.chats_to_send(10.0) == ["g1", "g2"]
        assert await tx.acquire_lease("g1", "w1", now=10.0, ttl=5.0)
    async with other.transaction() as tx:
        assert not await tx.acquire_lease("g1", "w2", now=11.0, ttl=5.0)  # w1 holds it
        assert await tx.chats_to_send(11.0) == ["g2"]
    async with store.transaction() as tx:
        batch = await tx.unsent("g1")
        assert [m.payload["i"] for m in batch] == [0, 1, 2]  # in order
        await tx.mark_sending(batch[0].id)
    async with store.transaction() as tx:
        assert await tx.mark_sent(batch[0].id, 12.0, {"message_id": 77})
        await tx.mark_sending(batch[1].id)
    # w1 dies here, its lease runs out; w2 takes the chat over and sees the attempt.
    async with other.transaction() as tx:
        assert not await tx.acquire_lease("g1", "w2", now=14.0, ttl=5.0)
        assert await tx.acquire_lease("g1", "w2", now=16.0, ttl=5.0)
        left = await tx.unsent("g1")
        assert [(m.msg_key, m.attempts, m.state) for m in left] == [
            ("k1", 1, "sending"),  # may have gone out: a retry the sender recognises
            ("k2", 0, "pending"),
        ]
        assert await tx.sent_result("k0") == {"message_id": 77}
    async with store.transaction(readonly=True) as tx:
        assert not await tx.holds_lease("g1", "w1", 16.0)
    async with other.transaction() as tx:
        assert await tx.holds_lease("g1", "w2", 16.0)
        assert await tx.mark_sent(left[0].id, 17.0, {"message_id": 78})
        assert not await tx.mark_sent(left[0].id, 17.5, {"message_id": 79})  # once only
        assert await tx.sends_since("g1", 11.0) == 2
        assert await tx.sends_since("g1", 12.5) == 1
        await tx.release_lease("g1", "w2")
        await tx.prune_outbox(sent_before=12.5)
    async with store.transaction() as tx:
        assert await tx.acquire_lease("g1", "w1", now=18.0, ttl=5.0)
        assert await tx.sent_result("k0") is None  # pruned
        assert [m.msg_key for m in await tx.unsent("g1")] == ["k2"]


async def test_a_steps_messages_queue_in_one_statement_once(store: Store) -> None:
    batch = [("t#1.0", "TableChanged", {"i": 0}), ("t#1.1", "Notice", {"i": 1})]
    async with store.transaction() as tx:
        await tx.enqueue_many("t", batch, 1.0)
        await tx.enqueue_many("t", batch, 2.0)  # the same step again: nothing new
    async with store.transaction(readonly=True) as tx:
        queued = await tx.unsent("t")
    assert [(m.msg_key, m.kind, m.payload) for m in queued] == [
        ("t#1.0", "TableChanged", {"i": 0}),
        ("t#1.1", "Notice", {"i": 1}),
    ]
