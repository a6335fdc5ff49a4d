"""One sender for a busy chat (PostgreSQL): a worker whose chat messages are out holds
the chat's lease idle for a while (``OutboxRelay.linger``) and, hearing the other
workers' commits, sends their messages for that chat too — instead of each committing
worker taking the chat over in turn (each takeover recalled the chat's adapter values
from the store, and spread one group's budget over several workers)."""

from __future__ import annotations

import asyncio
import json

from bot.table import Actor, ChatRef, Join, OpenTable, TableManager

from .test_command_on_copy import pair, pg_target

__all__ = ["pair", "pg_target"]

CHAT = ChatRef("tg", "-100")
ME, YOU, THEM = Actor("u1", "甲"), Actor("u2", "乙"), Actor("u3", "丙")


async def senders(m: TableManager) -> dict[str, str]:
    async with m.repository.db.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT msg_key, state, result FROM outbox ORDER BY id")
    return {str(k): json.loads(r)["worker"] for k, state, r in rows if str(state) == "sent"}


async def test_the_chats_sender_sends_what_another_worker_commits(
    pair: tuple[TableManager, TableManager],
) -> None:
    a, b = pair
    assert await a.load() == 0 and await b.load() == 0
    assert a.repository.relay.linger > 0  # hearing every commit: it lingers
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    await a.drain()
    assert a.repository.relay.lingers(CHAT.key)  # its messages out, it holds the chat idle
    sent_by_a = await senders(a)
    assert set(sent_by_a.values()) == {"w1"}
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok  # b cannot take the lease ...
    for _ in range(200):  # ... a hears the commit and sends its messages
        await a.drain()
        await b.drain()
        new = {k: w for k, w in (await senders(a)).items() if k not in sent_by_a}
        if new:
            break
        await asyncio.sleep(0.02)
    assert new and set(new.values()) == {"w1"}, new
    async with a.repository.db.transaction(readonly=True) as tx:
        assert await tx.unsent(CHAT.key) == []
