"""Timers as rows: any worker fires any table's deadline, each exactly once.

A pass claims the earliest due deadline with ``FOR UPDATE SKIP LOCKED`` (rows another
worker is firing are skipped, not waited for), takes the table's lock without waiting
(a command in progress wins; the deadline is tried again on the next pass), fires it and
commits the new state with the table's next deadline — or nothing, if the worker dies
first, and then the row is still there for the next worker.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..store import Deadline, Store, StoreTx

log = logging.getLogger(__name__)

# Fire one deadline inside the transaction; it must replace or clear the deadline row.
Fire = Callable[[StoreTx, Deadline], Awaitable[None]]
# Told after the commit (what a fire changed is only true from then on).
Committed = Callable[[Deadline], Awaitable[None]]


class DeadlineRunner:
    def __init__(
        self,
        store: Store,
        fire: Fire,
        now: Callable[[], float],
        committed: Committed | None = None,
    ) -> None:
        self.store = store
        self.fire = fire
        self.now = now
        self.committed = committed

    async def pump(self, limit: int = 100) -> int:
        """Fire the deadlines due now (at most ``limit``); returns how many fired."""
        skip: list[str] = []
        fired = 0
        while fired < limit:
            async with self.store.transaction() as tx:
                due = await tx.claim_due(self.now(), skip)
                if due is None:
                    return fired
                if not await tx.try_lock_table(due.table_key):
                    skip.append(due.table_key)  # busy: a command holds it; next pass
                    continue
                await self.fire(tx, due)
                fired += 1
            if self.committed is not None:
                await self.committed(due)
        return fired

    async def run(self, interval: float = 0.25) -> None:
        """Production loop: a pass every ``interval`` seconds, forever."""
        while True:
            try:
                await self.pump()
            except Exception:
                log.exception("deadline pass failed")
            await asyncio.sleep(interval)
