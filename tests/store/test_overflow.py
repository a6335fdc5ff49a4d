"""A flood of commands in a group, with several workers: the Telegram Sender sheds
replies to commands that waited past their time (or overflow its queue), never the game's
own news — and the outbox records a shed message as dropped, never as sent, and never
sends it later. Both back ends."""

from __future__ import annotations

import json
from typing import Any

from bot.cluster import receipts
from bot.cluster.relay import OutboxRelay
from bot.store import OutboxMessage, Store
from bot.table import FakeClock
from bot.table.model import ChatRef
from tests.telegram.fakeapi import FakeTelegram
from tests.telegram.harness import FORUM_ID, USERS, max_per_minute

from .test_forum import close_workers, open_workers, tick, unsent

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
    workers = await open_workers(store_target, clock, fake)
    stores = [w.store for w in workers]
    try:
        await workers[0].say(USERS[0], "/gouji", 11)
        chat = ChatRef("tg", str(FORUM_ID), "11")
        news = [f"消息 {i}" for i in range(3)]
        # 60 replies in 10 s (/rules: a refusal would go to the person's private chat), on
        # both workers, with the game's urgent news among them.
        for second in range(60):
            if second < 10:
                for i in range(6):
                    await workers[i % 2].say(USERS[0], "/rules", 11)
                if second % 4 == 1:
                    payload = {"say": news[second // 4], "urgent": True}
                    assert workers[second % 2].manager.relay_reply(chat.key, payload)
            await tick(workers, clock)
        for _ in range(300):
            busy = any(w.bot.sender.pending() or w.manager.repository.relay._busy for w in workers)
            if not busy and not await unsent(stores[0]):
                break
            await tick(workers, clock)
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
        await close_workers(workers)
