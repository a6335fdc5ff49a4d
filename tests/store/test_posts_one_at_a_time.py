"""Two messages that post anew are never out unmarked at once (bot.cluster.relay): the
second is handed to the adapter only once the first is marked sent, so a worker killed
between the platform's answer and the mark posts at most one message twice. Edits
between them are not waited for. Both back ends."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.cluster import receipts
from bot.cluster.relay import OutboxRelay
from bot.store import OutboxMessage, Store

CHAT = "tg:-7:"


async def states(store: Store) -> dict[str, str]:
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT msg_key, state FROM outbox ORDER BY id")
    return {str(k): str(s) for k, s in rows}


async def test_a_new_message_is_handed_over_once_the_one_before_is_marked(store: Store) -> None:
    kinds = [
        ("result", "HandFinished"),
        ("edit", "TableChanged"),
        ("over", "MatchOver"),
        ("reply", "Reply"),
    ]
    async with store.transaction() as tx:
        for key, kind in kinds:
            await tx.enqueue(CHAT, key, kind, {}, 0.0)
    seen: list[tuple[str, dict[str, str]]] = []  # each hand-over, and the states then
    held: list[receipts.Ack] = []

    async def adapter(m: OutboxMessage) -> dict[str, Any]:
        seen.append((m.msg_key, await states(store)))
        ack = receipts.expect()
        assert ack is not None
        if m.kind == "TableChanged":
            held.append(ack)  # paced: out later
        else:
            ack()
        return {}

    relay = OutboxRelay(store.background(), "w1", adapter, lambda: 50.0, batch=10)
    task = asyncio.create_task(relay.pump_chat(CHAT))
    for _ in range(300):
        if len(seen) == 4:
            break
        await asyncio.sleep(0.01)
    assert [k for k, _ in seen] == ["result", "edit", "over", "reply"]
    at = dict(seen)
    assert at["result"]["result"] == "sending"
    assert at["over"]["result"] == "sent"  # the result was marked before
    assert at["over"]["edit"] == "sending"  # the paced edit was not waited for
    assert at["reply"]["over"] == "sent"
    for ack in held:
        ack()
    assert await asyncio.wait_for(task, 10) == 4
    assert set((await states(store)).values()) == {"sent"}
