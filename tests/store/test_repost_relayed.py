"""``/gouji`` at a table posts it again at the bottom of the chat. With several workers
that post goes through the outbox like every group message: the chat's one sender makes
it, under its lease and within the group budget — not the worker that happened to take
the command (a second sender for the group, with its own count). Both back ends."""

from __future__ import annotations

import json
from typing import Any

from telegram import Update

from bot.store import Store
from bot.table import FakeClock
from tests.store.test_forum import Worker, close_workers, tick
from tests.telegram.fakeapi import FakeTelegram
from tests.telegram.harness import GROUP_ID, USERS


async def until_photos(workers: list[Worker], fake: FakeTelegram, n: int) -> None:
    """Let the seconds pass (at most a minute) until the group has seen ``n`` photos,
    and a few more for what follows them."""
    for second in range(60):
        await tick(workers, fake.clock, second % 2)
        if [c.method for c in fake.sends_to(GROUP_ID)].count("sendPhoto") >= n:
            break
    for second in range(3):
        await tick(workers, fake.clock, second % 2)


async def say(worker: Worker, who: dict[str, Any], text: str) -> None:
    update = worker.fake.command(who, worker.fake.chats[GROUP_ID], text)
    await worker.bot.app.process_update(Update.de_json(update, worker.bot.app.bot))


async def test_a_repost_asked_on_another_worker_goes_through_the_outbox(store_target: str) -> None:
    clock = FakeClock()
    fake = FakeTelegram(clock)
    fake.add_group(GROUP_ID, "够级群")
    fake.opened.update(u["id"] for u in USERS)
    workers: list[Worker] = []
    try:
        for i in range(2):
            store = Store(store_target)
            await store.open()
            workers.append(Worker(store, f"w{i + 1}", clock, fake))
            await workers[-1].bot.initialize()
        w1, w2 = workers
        await say(w1, USERS[0], "/gouji")
        await until_photos(workers, fake, 1)
        await say(w2, USERS[1], "/gouji")  # the table is there: post it again
        await until_photos(workers, fake, 2)
        photos = [c for c in fake.sends_to(GROUP_ID) if c.method == "sendPhoto"]
        assert len(photos) == 2  # the table, then the same table at the bottom
        async with w1.store.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch("SELECT payload, state FROM outbox ORDER BY id")
        reposts = [str(state) for payload, state in rows if "repost" in json.loads(payload)]
        assert reposts == ["sent"]  # queued, and sent by the chat's sender
    finally:
        await close_workers(workers)
