"""Two cluster workers in one plain Telegram group (the forum test's ``Worker``), and
the helpers the cluster message tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update

from bot.store import Store
from bot.table import FakeClock
from tests.store.test_forum import Worker, close_workers, tick
from tests.telegram.fakeapi import FakeTelegram
from tests.telegram.harness import GROUP_ID, USERS


async def open_group_workers(target: str) -> tuple[FakeTelegram, list[Worker]]:
    """A fake Bot API with one group, and two workers on the store at ``target``."""
    fake = FakeTelegram(FakeClock())
    fake.add_group(GROUP_ID, "够级群")
    fake.opened.update(u["id"] for u in USERS)
    workers: list[Worker] = []
    for i in range(2):
        store = Store(target)
        await store.open()
        assert isinstance(fake.clock, FakeClock)
        workers.append(Worker(store, f"w{i + 1}", fake.clock, fake))
        await workers[-1].bot.initialize()
    return fake, workers


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


@asynccontextmanager
async def table_on_first(target: str) -> AsyncIterator[tuple[FakeTelegram, Worker, Worker]]:
    """Two workers in the group, a table opened on the first (its message posted); the
    workers are closed after."""
    fake, workers = await open_group_workers(target)
    try:
        w1, w2 = workers
        await say(w1, USERS[0], "/gouji")
        await until_photos(workers, fake, 1)
        yield fake, w1, w2
    finally:
        await close_workers(workers)
