"""A flood of commands in a group, with several workers: the Telegram Sender sheds
replies to commands that waited past their time (or overflow its queue), never the game's
own news — and the outbox records a shed message as dropped, never as sent, and never
sends it later. Both back ends."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.cluster import receipts
from bot.cluster.relay import OutboxRelay
from bot.store import OutboxMessage, Store
from bot.table import FakeClock
from bot.table.model import ChatRef
from tests.telegram.fakeapi import FakeTelegram
from tests.telegram.harness import FORUM_ID, USERS, max_per_minute

from .test_forum import Worker, unsent

GROUP = ChatRef("tg", "-5")


async def rows(store: Store) -> list[tuple[str, str, dict[str, Any]]]:
    async with store.transaction(readonly=True) as tx:
        found = await tx.tx.fetch("SELECT msg_key, state, result FROM outbox ORDER BY id")
    return [(str(k), str(s), json.loads(r) if r else {}) for k, s, r in found]


async def test_a_shed_message_is_recorded_dropped_and_never_sent_again(store: Store) -> None:
    async with store.transaction() as tx:
        for key in ("k0", "k1", "k2"):
            await tx.enqueue(GROUP.key, key, "Reply", {"say": key}, 0.0)
    handed: list[str] = []

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        handed.append(m.msg_key)
        ack = receipts.expect()
        assert ack is not None
        if m.msg_key == "k1":
            ack.shed()  # the adapter chose not to send it (stale)
        else:
            ack()  # its call returned
        return {"by": "w1"}

    relay = OutboxRelay(store.background(), "w1", deliver, lambda: 50.0)
    assert await relay.pump_chat(GROUP.key) == 2  # two went out
    assert await rows(store) == [
        ("k0", "sent", {"by": "w1"}),
        ("k1", "dropped", {"by": "w1", "shed": 1}),
        ("k2", "sent", {"by": "w1"}),
    ]
    async with store.transaction(readonly=True) as tx:
        assert await tx.unsent(GROUP.key) == []
        assert await tx.chats_waiting(60.0, "w1") == []
        assert await tx.sends_since(GROUP.key, 0.0) == 2  # a dropped one spent no budget
    assert await relay.pump() == 0 and handed == ["k0", "k1", "k2"]  # not sent later
    async with store.transaction() as tx:
        await tx.prune_outbox(51.0)
    assert await rows(store) == []


async def test_a_flood_of_refusals_sheds_only_replies_and_marks_only_what_went(
    store_target: str,
) -> None:
    clock = FakeClock()
    fake = FakeTelegram(clock)
    fake.add_group(FORUM_ID, "够级论坛", forum=True)
    fake.opened.update(u["id"] for u in USERS)
    stores = [Store(store_target), Store(store_target)]
    workers: list[Worker] = []
    try:
        for i, store in enumerate(stores):
            await store.open()
            worker = Worker(store, f"w{i + 1}", clock, fake)
            await worker.bot.initialize()
            workers.append(worker)
        await workers[0].say(USERS[0], "/gouji", 11)
        chat = ChatRef("tg", str(FORUM_ID), "11")
        news = [f"消息 {i}" for i in range(3)]
        # 60 refusals in 10 s, on both workers, with the game's urgent news among them.
        for second in range(60):
            if second < 10:
                for i in range(6):
                    await workers[i % 2].say(USERS[0], "/join", 11)
                if second % 4 == 1:
                    payload = {"say": news[second // 4], "urgent": True}
                    assert workers[second % 2].manager.relay_reply(chat.key, payload)
            clock.advance(1.0)
            for worker in workers:
                await worker.manager.poll_timers()
            for _ in range(3):
                await asyncio.sleep(0.005)
                for worker in workers:
                    await worker.bot.pump()
        for _ in range(300):
            busy = any(w.bot.sender.pending() or w.manager.relay._busy for w in workers)
            if not busy and not await unsent(stores[0]):
                break
            clock.advance(1.0)
            for worker in workers:
                await worker.manager.poll_timers()
            for _ in range(3):
                await asyncio.sleep(0.005)
                for worker in workers:
                    await worker.bot.pump()
        for worker in workers:
            await worker.manager.drain()
        assert await unsent(stores[0]) == 0
        texts = [m.text for m in fake.in_chat(FORUM_ID) if m.text]
        assert [x for x in texts if x in news] == news  # the game's news: all, once, in order
        refusals = [x for x in texts if x not in news]
        replies = [(s, r) for k, s, r in await rows(stores[0]) if "!" in k]  # relay_reply's
        sent = [r for s, r in replies if s == "sent"]
        dropped = [r for s, r in replies if s == "dropped"]
        assert len(replies) == 63 and {s for s, _ in replies} == {"sent", "dropped"}
        assert len(sent) == len(refusals) + len(news)  # marked sent == posted
        assert len(dropped) == 60 - len(refusals) > 0 and all(r["shed"] == 1 for r in dropped)
        assert max_per_minute(fake.sends_to(FORUM_ID)) <= 20
    finally:
        for worker in workers:
            await worker.bot.stop()
        for store in stores:
            await store.close()
