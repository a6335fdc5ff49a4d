"""A Telegram forum's topics spend one group budget (Telegram counts about 20 messages a
minute per group, whichever topic they go to). A chat's lease is its group's
(``bot.store.lease_key``): with two workers taking commands in two topics of one forum,
one worker at a time sends for the whole group, so the group's calls in any 60 s stay
within 20 — and every reply goes out once, none lost. Both back ends."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter

from adapters.telegram import TelegramBot
from bot.cluster.shell import shared_manager
from bot.i18n import t
from bot.store import Store, lease_key
from bot.table import FakeClock
from tests.telegram.fakeapi import FakeTelegram
from tests.telegram.harness import FORUM_ID, TOKEN, USERS, FakeRenderer, max_per_minute

TOPICS = (11, 22)
FIRST = 28  # refusals in the first burst (two a second)


class Worker:
    """A worker of a cluster: its table manager and Telegram bot, on the one fake Bot
    API (every worker's calls reach the same group)."""

    def __init__(self, store: Store, name: str, clock: FakeClock, fake: FakeTelegram) -> None:
        self.store = store
        # A lease far longer than the test's real run: the group changes hands only when
        # its sender has nothing left and lets go, as between bursts in production.
        self.manager = shared_manager(
            store, worker=name, clock=clock, seed_source=lambda: 7, lease_seconds=600
        )
        self.bot = TelegramBot(
            self.manager,
            TOKEN,
            request=fake,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=0),
            renderer=FakeRenderer(),
            run_sender=False,
        )
        self.fake = fake

    async def say(self, who: dict[str, Any], text: str, topic: int) -> None:
        update = self.fake.command(who, self.fake.chats[FORUM_ID], text, thread=topic)
        await self.bot.app.process_update(Update.de_json(update, self.bot.app.bot))


async def open_workers(target: str, clock: FakeClock, fake: FakeTelegram) -> list[Worker]:
    """Two workers of one cluster, each with its own connection to the store."""
    workers: list[Worker] = []
    try:
        for i in range(2):
            store = Store(target)
            await store.open()
            worker = Worker(store, f"w{i + 1}", clock, fake)
            workers.append(worker)
            await worker.bot.initialize()
    except BaseException:
        await close_workers(workers)
        raise
    return workers


async def close_workers(workers: list[Worker]) -> None:
    for worker in workers:
        await worker.bot.stop()
    for worker in workers:
        await worker.store.close()


async def tick(
    workers: list[Worker], clock: FakeClock, first: int = 0, polling: list[Worker] | None = None
) -> None:
    """A second passes: the workers poll (``first`` first; only ``polling`` if given)
    and send what is due."""
    clock.advance(1.0)
    for worker in workers[first:] + workers[:first]:
        if polling is None or worker in polling:
            await worker.manager.poll_timers()
    for _ in range(3):
        await asyncio.sleep(0.005)
        for worker in workers:
            await worker.bot.pump()


async def unsent(store: Store) -> int:
    async with store.transaction(readonly=True) as tx:
        row = await tx.tx.fetchone(
            "SELECT count(*) FROM outbox WHERE state NOT IN ('sent', 'dropped')"
        )
    assert row is not None
    return int(row[0])


async def senders(store: Store) -> list[str]:
    """Which worker sent each message, in the order they were queued."""
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT result FROM outbox ORDER BY id")
    return [json.loads(r[0])["worker"] for r in rows]


def test_a_forums_topics_share_their_groups_lease() -> None:
    group = f"tg:{FORUM_ID}:"
    assert lease_key(f"tg:{FORUM_ID}:11") == group == lease_key(group)
    assert lease_key("tg:-100600:") != lease_key("tg:-1006001:5")
    assert lease_key("dc:1:2") == "dc:1:2"  # a Discord channel's limit is its own


async def test_the_sql_lease_of_a_chat_is_lease_key(store: Store) -> None:
    keys = ["tg:-100600:", "tg:-100600:11", "tg:-5:", "dc:1:2", "console:local:", "g"]
    async with store.transaction() as tx:
        for i, key in enumerate(keys):
            await tx.enqueue(key, f"k{i}", "Reply", {}, 0.0)
            await tx.acquire_lease(lease_key(key), "w1", 0.0, 5.0)
        # Every chat's lease is w1's (found through the SQL twin of lease_key) ...
        assert sorted(c for c, mine in await tx.chats_waiting(1.0, "w1") if mine) == sorted(keys)
        assert await tx.chats_to_send(1.0) == []  # ... so none is free ...
        messages = await tx.unsent(keys)
        fence = [(m.id, {}) for m in messages]
        await tx.mark_sent_many(fence, 1.0, ("w1", 1))  # ... and w1's marks pass the fence
        assert await tx.unsent(keys) == []


Command = tuple[Worker, int, dict[str, Any]]


async def run(
    workers: list[Worker],
    commands: list[Command],
    clock: FakeClock,
    polling: list[Worker] | None = None,
) -> None:
    """Two commands a second, each to its worker; the workers (``polling``: only those)
    poll in turn first and send, until every message is out and every sender idle."""
    for second in range(600):
        for worker, topic, who in commands[2 * second : 2 * second + 2]:
            await worker.say(who, "/rules", topic)
        await tick(workers, clock, second % 2, polling)
        busy = any(w.bot.sender.pending() or w.manager.repository.relay._busy for w in workers)
        if 2 * second >= len(commands) and not busy and not await unsent(workers[0].store):
            return
    raise AssertionError("the outbox never emptied")


async def test_two_workers_in_two_topics_keep_one_group_budget(store_target: str) -> None:
    clock = FakeClock()
    fake = FakeTelegram(clock)
    fake.add_group(FORUM_ID, "够级论坛", forum=True)
    fake.opened.update(u["id"] for u in USERS)  # the bot may write to them in private
    workers = await open_workers(store_target, clock, fake)
    stores = [w.store for w in workers]
    try:
        w1, w2 = workers
        # A table in each topic (the group budget's memory lives with the tables), each
        # opened on one worker; then replies (/rules: refusals now go to the person's
        # private chat, so they no longer fill the group's budget): first
        # FIRST, each topic's landing on both workers; then, while the group's last minute
        # is still full, 14 more on the worker that was not sending, while the other one
        # stops polling (so the group changes hands: whether it would otherwise depends
        # on how the two workers' polls interleave). The first burst's last replies go
        # out when the first minute's calls leave the window: while the relay waited for
        # a batch's paced table edits before claiming the replies behind them, the last
        # one was handed over as it turned stale, and shed, in about one run in ten
        # (``tests/store/test_relay_ahead.py``).
        await w1.say(USERS[0], "/gouji", TOPICS[0])
        await w2.say(USERS[1], "/gouji", TOPICS[1])
        await run(
            workers,
            [(workers[(i // 2 + i // 14) % 2], TOPICS[i % 2], USERS[i % 2]) for i in range(FIRST)],
            clock,
        )
        last = (await senders(stores[0]))[-1]
        idle = w2 if last == "w1" else w1
        await run(workers, [(idle, TOPICS[i % 2], USERS[i % 2]) for i in range(14)], clock, [idle])
        for worker in workers:
            await worker.manager.drain()
        calls = fake.sends_to(FORUM_ID)
        refusals = [
            m.thread_id for m in fake.in_chat(FORUM_ID) if (m.text or "").startswith(t("tg_rules"))
        ]
        each = (FIRST + 14) // 2
        assert sorted(refusals) == [TOPICS[0]] * each + [TOPICS[1]] * each  # each once
        assert len(calls) >= FIRST + 16  # two table messages and the refusals: over two minutes'
        # Each table message posted once: a worker's reload once put back the record's
        # older copy of the adapter values, without the other topic's message id, and
        # that topic's table was posted again (three times in all).
        photos = sorted(c.params.get("message_thread_id") for c in calls if c.method == "sendPhoto")
        assert photos == sorted(TOPICS)
        assert max_per_minute(calls) <= 20  # but never more than 20 in a minute
        assert not [c for c in fake.calls if c.error == 429]
        by = await senders(stores[0])
        # The group changed hands while its last minute was full (the budget recalled):
        # the worker that was not sending sent the last messages.
        assert set(by[-14:]) == {idle.manager.repository.worker}
    finally:
        await close_workers(workers)
