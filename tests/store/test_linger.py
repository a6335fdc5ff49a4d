"""One sender for a busy chat (PostgreSQL): a worker whose chat messages are out holds
the chat's lease idle for a while (``OutboxRelay.linger``) and, hearing the other
workers' commits, sends their messages for that chat too — instead of each committing
worker taking the chat over in turn (each takeover recalled the chat's adapter values
from the store, and spread one group's budget over several workers)."""

from __future__ import annotations

import asyncio
import json

from bot.cluster import receipts
from bot.table import Actor, ChatRef, Join, OpenTable, Out, TableChanged, TableManager

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


class HeldEdits:
    """A sink whose table edits wait (the group budget's pace) until ``release``."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.held: list[receipts.Ack] = []

    async def __call__(self, out: Out) -> None:
        self.got.append(type(out).__name__)
        ack = receipts.expect()
        assert ack is not None  # delivered by the relay, under a receipt
        if isinstance(out, TableChanged):
            self.held.append(ack)
        else:
            ack()

    def release(self) -> None:
        for ack in self.held:
            ack()
        self.held.clear()


async def test_a_commit_elsewhere_is_sent_while_the_senders_table_edit_waits(
    pair: tuple[TableManager, TableManager],
) -> None:
    """The chat's sender is busy (its table edit waits for the group's pace) when another
    worker commits there: it claims that commit's messages at once, not after the edit
    (issue #38: a turn's private keyboard came a paced table edit — 3.2 s — after the
    play; the sender heard the commit but, not idle, did not look)."""
    a, b = pair
    assert await a.load() == 0 and await b.load() == 0
    held = HeldEdits()
    a.subscribe(held)
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    for _ in range(200):
        if held.held:
            break
        await asyncio.sleep(0.01)
    assert held.held, held.got  # a's table edit is out, waiting for its pace
    first = len(held.got)
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok  # b cannot take the lease
    try:
        for _ in range(150):  # well within the 5 s lease a keeps renewing while it waits
            if len(held.got) > first:
                break
            await asyncio.sleep(0.01)
        assert len(held.got) > first, "the commit on b waited for a's paced edit"
        assert held.held  # ... which is still waiting
    finally:
        held.release()
    for _ in range(200):
        await a.drain()
        await b.drain()
        held.release()
        async with a.repository.db.transaction(readonly=True) as tx:
            if await tx.unsent(CHAT.key) == []:
                return
        await asyncio.sleep(0.02)
    raise AssertionError("messages left unsent")


async def test_a_sender_lets_a_chat_go_once_it_held_it_long(
    pair: tuple[TableManager, TableManager],
) -> None:
    """Past its ``hold`` a sender does not linger on a chat: the worker of the next
    command there takes the chat and sends its messages — a busy chat's sending moves
    between the workers instead of staying with the first (issue #38)."""
    a, b = pair
    assert await a.load() == 0 and await b.load() == 0
    a.repository.relay.hold = b.repository.relay.hold = 0.0  # held long enough at once
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    await a.drain()
    sent_by_a = await senders(a)
    assert set(sent_by_a.values()) == {"w1"}
    assert not a.repository.relay.lingers(CHAT.key)  # let go, not held idle
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok
    await b.drain()
    new = {k: w for k, w in (await senders(b)).items() if k not in sent_by_a}
    assert new and set(new.values()) == {"w2"}, new  # b took the chat and sent its own
    async with b.repository.db.transaction(readonly=True) as tx:
        assert await tx.unsent(CHAT.key) == []


async def test_the_sender_sends_a_commit_it_read_before_its_notice_came(
    pair: tuple[TableManager, TableManager],
) -> None:
    """The chat's sender read another worker's commit (a delivery's refresh, a press)
    before that commit's notice reached it: the notice still makes it send the commit's
    messages (before, it took the notice for nothing new, and they waited for its next
    pass over the outbox: half a second a turn, issue #38)."""
    a, b = pair
    held: list[tuple[str, int]] = []
    heard = a.repository._heard
    a.repository._heard = lambda key, version: held.append((key, version))  # type: ignore[method-assign]
    assert await a.load() == 0 and await b.load() == 0
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    await a.drain()
    assert a.repository.relay.lingers(CHAT.key)
    sent_by_a = await senders(a)
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok  # b cannot take the lease
    await b.drain()
    for _ in range(200):  # b's notice has reached a, held back
        if any(v > 1 and k == CHAT.key for k, v in held[1:]):
            break
        await asyncio.sleep(0.01)
    await a.refresh(CHAT.key)  # a reads b's commit before it hears of it
    for key, version in held:
        heard(key, version)
    for _ in range(100):
        await a.drain()
        new = {k: w for k, w in (await senders(a)).items() if k not in sent_by_a}
        if new:
            break
        await asyncio.sleep(0.01)
    assert new and set(new.values()) == {"w1"}, new
