"""A chat's replies do not wait for a paced table edit (bot.cluster.relay): the relay
claims a chat's waiting messages a batch at a time, and once only table edits of a full
batch are still out — the group budget paces them, 15 s and more apart when it is nearly
spent — it claims the next messages meanwhile. The edits are not claimed again, keep the
lease while they are out, and are marked when they went. Before, a reply queued behind
such a batch waited for its edits, and in a burst could wait until it was stale and be
shed (``tests/store/test_forum.py``, one run in ten). Both back ends."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.cluster import receipts
from bot.cluster.relay import OutboxRelay
from bot.store import OutboxMessage, Store

CHAT = "tg:-5:"


class PacedEdits:
    """Replies go out at once; table edits wait until ``release`` (the budget's pace)."""

    def __init__(self) -> None:
        self.handed: list[str] = []
        self.edits: list[receipts.Ack] = []

    async def __call__(self, m: OutboxMessage) -> dict[str, Any]:
        self.handed.append(m.msg_key)
        ack = receipts.expect()
        assert ack is not None
        if m.kind == "TableChanged":
            self.edits.append(ack)
        else:
            ack()
        return {}

    def release(self) -> None:
        for ack in self.edits:
            ack()
        self.edits.clear()


async def states(store: Store) -> dict[str, tuple[str, int]]:
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT msg_key, state, attempts FROM outbox ORDER BY id")
    return {str(k): (str(s), int(a)) for k, s, a in rows}


async def test_replies_behind_a_full_batch_go_out_while_its_edit_is_paced(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.enqueue(CHAT, "edit", "TableChanged", {}, 0.0)
        for i in range(1, 6):
            await tx.enqueue(CHAT, f"r{i}", "Reply", {}, 0.0)
    adapter = PacedEdits()
    relay = OutboxRelay(store.background(), "w1", adapter, lambda: 50.0, batch=3)
    pump = asyncio.create_task(relay.pump_chat(CHAT))
    for _ in range(200):
        if len(adapter.handed) == 6:
            break
        await asyncio.sleep(0.01)
    # Every reply handed over (two batches past the first), the edit still held back.
    assert adapter.handed == ["edit", "r1", "r2", "r3", "r4", "r5"]
    replies = {f"r{i}" for i in range(1, 6)}
    for _ in range(200):  # each batch's replies are marked as they went
        mid = await states(store)
        if all(mid[r] == ("sent", 1) for r in replies):
            break
        await asyncio.sleep(0.01)
    assert all(mid[r] == ("sent", 1) for r in replies)
    assert mid["edit"] == ("sending", 1)  # out with its first attempt, not claimed again
    assert not pump.done()  # it waits for the edit, holding the lease
    adapter.release()
    assert await asyncio.wait_for(pump, 10) == 6
    assert await states(store) == {k: ("sent", 1) for k in ["edit", "r1", "r2", "r3", "r4", "r5"]}
    async with store.transaction(readonly=True) as tx:
        lease = await tx.tx.fetch("SELECT holder, until FROM chat_leases")
    assert [(str(h), float(u)) for h, u in lease] == [("w1", -1.0)]  # let go at the end


async def test_a_batch_that_is_not_full_waits_for_its_edit_without_another_claim(
    store: Store,
) -> None:
    """A batch that is not full: the relay waits for the edit as before, rather than
    spend a claim that mostly finds nothing."""
    async with store.transaction() as tx:
        await tx.enqueue(CHAT, "edit", "TableChanged", {}, 0.0)
        await tx.enqueue(CHAT, "r1", "Reply", {}, 0.0)
    adapter = PacedEdits()
    relay = OutboxRelay(store.background(), "w1", adapter, lambda: 50.0, batch=3)
    claims: list[int] = []
    claim = relay._claim

    async def counted(*args: Any) -> Any:
        claims.append(1)
        return await claim(*args)

    relay._claim = counted  # type: ignore[method-assign]
    pump = asyncio.create_task(relay.pump_chat(CHAT))
    for _ in range(100):
        if adapter.edits:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert claims == []  # waiting for the edit: no claim meanwhile
    adapter.release()
    assert await asyncio.wait_for(pump, 10) == 2
    assert claims == [1]  # the one that marks the edit and finds nothing more
    assert await states(store) == {"edit": ("sent", 1), "r1": ("sent", 1)}


async def test_a_commit_behind_a_paced_edit_is_claimed_at_once(store: Store) -> None:
    """A short batch's edit is paced by the group's budget (3 s and more); a commit
    meanwhile — the next player's private keyboard — is claimed and handed over at once,
    not after that edit (issue #38: every human turn waited ~3.2 s for the group's table
    edit on several workers). The edit is not claimed again and is marked once out."""
    async with store.transaction() as tx:
        await tx.enqueue(CHAT, "edit", "TableChanged", {}, 0.0)
        await tx.enqueue(CHAT, "r1", "Reply", {}, 0.0)
    adapter = PacedEdits()
    relay = OutboxRelay(store.background(), "w1", adapter, lambda: 50.0, batch=3)
    pump = asyncio.create_task(relay.pump_chat(CHAT))
    for _ in range(200):
        if adapter.edits and "r1" in adapter.handed:
            break
        await asyncio.sleep(0.01)
    async with store.transaction() as tx:  # the next step commits: its keyboard
        await tx.enqueue(CHAT, "keyboard", "HandChanged", {}, 0.0)
    assert await relay.pump_chat(CHAT) == 0  # the committing worker's pass: news for it
    for _ in range(200):
        if "keyboard" in adapter.handed:
            break
        await asyncio.sleep(0.01)
    assert adapter.handed == ["edit", "r1", "keyboard"]  # before the edit went out
    assert adapter.edits and not pump.done()
    # Marked in order, once the edit is out too (no claim spent to mark it sooner).
    assert (await states(store))["edit"] == ("sending", 1)
    adapter.release()
    assert await asyncio.wait_for(pump, 10) == 3
    assert await states(store) == {k: ("sent", 1) for k in ["edit", "r1", "keyboard"]}
