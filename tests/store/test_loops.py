"""The loops several workers run over the store (bot.cluster), on both back ends: timers
fired exactly once, the outbox relayed in order by one sender per chat, the health
endpoint, JSON log lines."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.cluster import DeadlineRunner, HealthServer, JsonFormatter, OutboxRelay, worker_id
from bot.store import Deadline, OutboxMessage, Store, StoreTx


@pytest.fixture
async def other(store_target: str, store: Store) -> AsyncIterator[Store]:
    s = Store(store_target)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def test_two_runners_fire_every_deadline_once(store: Store, other: Store) -> None:
    async with store.transaction() as tx:
        for i in range(10):
            await tx.set_deadline(f"t{i}", "turn:1", float(i))
    fired: list[tuple[str, str]] = []

    async def fire(tx: StoreTx, d: Deadline) -> None:
        await asyncio.sleep(0.001)
        fired.append((d.table_key, d.kind))
        # the table's next wait: a later turn, not due in this test
        await tx.set_deadline(d.table_key, "turn:2", 1000.0 + d.due)

    runners = [DeadlineRunner(s, fire, lambda: 100.0) for s in (store, other, store, other)]
    counts = await asyncio.gather(*(r.pump() for r in runners))
    assert sum(counts) == 10
    assert sorted(fired) == sorted((f"t{i}", "turn:1") for i in range(10))
    assert await runners[0].pump() == 0  # nothing due any more


async def test_a_deadline_whose_table_is_busy_waits_for_the_next_pass(
    store: Store, other: Store
) -> None:
    async with store.transaction() as tx:
        await tx.set_deadline("busy", "burn", 1.0)
    fired: list[str] = []

    async def fire(tx: StoreTx, d: Deadline) -> None:
        fired.append(d.table_key)
        await tx.set_deadline(d.table_key, "", None)

    held, release = asyncio.Event(), asyncio.Event()

    async def command() -> None:  # another worker's command holds the table
        async with store.transaction() as tx:
            await tx.lock_table("busy")
            held.set()
            await release.wait()

    task = asyncio.create_task(command())
    await held.wait()
    if store.dialect == "postgres":  # SQLite's one writer would simply wait its turn
        assert await DeadlineRunner(other, fire, lambda: 5.0).pump() == 0
        assert fired == []
    release.set()
    await task
    assert await DeadlineRunner(other, fire, lambda: 5.0).pump() == 1
    assert fired == ["busy"]


async def test_the_relay_sends_in_order_once_with_one_sender_per_chat(
    store: Store, other: Store
) -> None:
    async with store.transaction() as tx:
        for i in range(6):
            await tx.enqueue(f"chat{i % 2}", f"m{i}", "send", {"i": i}, float(i))
    delivered: list[tuple[str, str, int]] = []

    def relay(s: Store, name: str) -> OutboxRelay:
        async def deliver(m: OutboxMessage) -> dict[str, Any]:
            await asyncio.sleep(0.002)
            delivered.append((name, m.chat_key, int(m.payload["i"])))
            return {"message_id": 100 + int(m.payload["i"])}

        return OutboxRelay(s, name, deliver, lambda: 50.0)

    a, b = relay(store, "w1"), relay(other, "w2")
    await asyncio.gather(a.pump(), b.pump(), a.pump_chat("chat0"), b.pump_chat("chat1"))
    assert sorted(i for _, _, i in delivered) == list(range(6))  # each once
    for chat in ("chat0", "chat1"):
        mine = [(w, i) for w, c, i in delivered if c == chat]
        assert [i for _, i in mine] == sorted(i for _, i in mine)  # in order
        assert len({w for w, _ in mine}) == 1  # by one sender
    async with store.transaction(readonly=True) as tx:
        assert await tx.sent_result("m3") == {"message_id": 103}
        assert await tx.chats_to_send(60.0) == []


async def test_a_sender_that_died_mid_send_is_taken_over_and_the_retry_is_marked(
    store: Store, other: Store
) -> None:
    async with store.transaction() as tx:
        await tx.enqueue("g", "new:1", "send", {}, 0.0)
        await tx.enqueue("g", "edit:1", "edit", {}, 1.0)

    class Died(Exception):
        pass

    async def dies(m: OutboxMessage) -> dict[str, Any]:
        raise Died

    with pytest.raises(Died):
        await OutboxRelay(store, "w1", dies, lambda: 10.0, lease_seconds=5).pump_chat("g")
    seen: list[tuple[str, int]] = []

    async def deliver(m: OutboxMessage) -> dict[str, Any]:
        seen.append((m.msg_key, m.attempts))
        return {}

    later = OutboxRelay(other, "w2", deliver, lambda: 12.0, lease_seconds=5)
    assert await later.pump_chat("g") == 0  # w1's lease has not run out yet
    later.now = lambda: 16.0
    assert await later.pump_chat("g") == 2
    # w1 noted its whole batch before sending: both are retries the sender recognises
    # (the edit is idempotent; the new message carries its key)
    assert seen == [("new:1", 1), ("edit:1", 1)]


async def test_the_health_endpoint_answers_for_this_worker(store: Store) -> None:
    async def check() -> dict[str, Any]:
        async with store.transaction(readonly=True) as tx:
            await tx.live_tables()
        return {"store": str(store.dialect), "tables": 0}

    server = HealthServer("w-test", check)
    port = await server.start()
    healthy = True

    async def flaky() -> dict[str, Any]:
        if not healthy:
            raise ConnectionError
        return await check()

    server.check = flaky
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/health") as resp:
                assert resp.status == 200
                body = await resp.json()
            assert body["ok"] and body["worker"] == "w-test"
            assert body["store"] == str(store.dialect)
            healthy = False
            async with http.get(f"http://127.0.0.1:{port}/health") as resp:
                assert resp.status == 503
                assert (await resp.json())["error"] == "ConnectionError"
    finally:
        await server.stop()


def test_json_log_lines_name_the_worker_table_and_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOUJI_WORKER_ID", "w7")
    assert worker_id() == "w7"
    monkeypatch.delenv("GOUJI_WORKER_ID")
    assert worker_id().endswith(f"-{__import__('os').getpid()}")
    record = logging.LogRecord("bot.table", logging.INFO, __file__, 1, "step %s", ("ok",), None)
    record.table = "tg:1:"
    record.chat = "tg:1"
    line = json.loads(JsonFormatter("w7").format(record))
    assert line["worker"] == "w7" and line["table"] == "tg:1:" and line["chat"] == "tg:1"
    assert line["msg"] == "step ok" and line["level"] == "INFO"
