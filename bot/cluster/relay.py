"""The outbox relay: messages leave in the order their state changes committed, one
sender per chat at a time (a lease in the database), nothing sent twice.

Per message: note the attempt and commit (a sender that dies after this leaves a mark
the next one sees: ``attempts > 0``), deliver, record the platform's answer. Edits are
idempotent, so a marked edit is simply sent again; a new message carries its key, and
``deliver`` gets the message with its attempts so a platform that can recognise the key
(or a caller that checks ``sent_result``) does not post it twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..store import OutboxMessage, Store

log = logging.getLogger(__name__)

# Send one message; returns what to keep of the answer (e.g. the new message's id).
Deliver = Callable[[OutboxMessage], Awaitable[dict[str, Any]]]


class OutboxRelay:
    def __init__(
        self,
        store: Store,
        holder: str,
        deliver: Deliver,
        now: Callable[[], float],
        lease_seconds: float = 10.0,
        batch: int = 20,
    ) -> None:
        self.store = store
        self.holder = holder
        self.deliver = deliver
        self.now = now
        self.lease_seconds = lease_seconds
        self.batch = batch
        # The lease keeps other workers out; this keeps this worker's own loops (the pass
        # after a command, the background pass) from sending one chat's messages twice.
        self._busy: set[str] = set()

    async def pump_chat(self, chat_key: str) -> int:
        """Send a chat's waiting messages if no other sender is; returns how many."""
        if chat_key in self._busy:
            return 0
        self._busy.add(chat_key)
        try:
            return await self._pump_chat(chat_key)
        finally:
            self._busy.discard(chat_key)

    async def _pump_chat(self, chat_key: str) -> int:
        sent = 0
        while True:
            async with self.store.transaction() as tx:
                # Taking (or renewing) the lease proves it is still ours; the attempts are
                # noted in the same commit, before anything goes out.
                if not await tx.acquire_lease(
                    chat_key, self.holder, self.now(), self.lease_seconds
                ):
                    return sent
                waiting = await tx.unsent(chat_key, self.batch)
                if waiting:
                    await tx.mark_sending_many([m.id for m in waiting])
            if not waiting:
                break
            for message in waiting:
                result = await self.deliver(message)
                async with self.store.transaction() as tx:
                    await tx.mark_sent(message.id, self.now(), result)
                sent += 1
        async with self.store.transaction() as tx:
            await tx.release_lease(chat_key, self.holder)
        return sent

    async def pump(self) -> int:
        """One pass over every chat with waiting messages and no sender."""
        async with self.store.transaction(readonly=True) as tx:
            chats = await tx.chats_to_send(self.now())
        sent = 0
        for chat in chats:
            try:
                sent += await self.pump_chat(chat)
            except Exception:
                log.exception("sending to chat %s failed", chat, extra={"chat": chat})
        return sent

    async def run(self, interval: float = 0.2) -> None:
        while True:
            try:
                await self.pump()
            except Exception:
                log.exception("outbox pass failed")
            await asyncio.sleep(interval)
