"""Adapters' values (message ids, the group budget's recent calls) written by group
commit: every value set while one batch is being written goes into the next, and each
batch is one statement (committing by itself: no BEGIN or COMMIT on PostgreSQL). A
worker then spends one connection on this bookkeeping however many chats it serves — at
300 tables, a transaction per value made the bookkeeping take the connections commands
were waiting for. A caller still returns only once its value (or a later one of the
same name) committed, as before."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..store import Store
from .timings import Timings


class MetaWriter:
    def __init__(self, store: Store, timings: Timings | None = None) -> None:
        self.store = store
        self.timings = timings or Timings()
        self._pending: dict[tuple[str, str], Any] = {}  # the next batch, latest value wins
        self._batch: asyncio.Future[None] | None = None  # done when the next batch commits
        self._writer: asyncio.Task[None] | None = None

    async def write(self, key: str, name: str, value: Any) -> None:
        """Keep ``value`` as the table's ``name``; returns once it committed (raises
        TypeError or ValueError at once for a value that is no JSON, else what the
        batch's transaction raised)."""
        # A value that is no JSON fails its own caller here, not the batch it would join.
        json.dumps(value)
        loop = asyncio.get_running_loop()
        self._pending[(key, name)] = value
        if self._batch is None:
            self._batch = loop.create_future()
        batch = self._batch
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all())
        # One caller giving up must not cancel the batch the others wait for.
        await asyncio.shield(batch)

    async def flush(self) -> None:
        """Until every value written so far has committed (or failed): a relay lets a
        chat's lease go only after its adapters' values — the group budget's calls — are
        stored, so the next sender's recall sees them."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def _write_all(self) -> None:
        while self._pending:
            values, self._pending = self._pending, {}
            batch, self._batch = self._batch, None
            assert batch is not None
            try:
                with self.timings.phase("meta_batch"):
                    async with self.store.statement() as tx:  # one statement: no BEGIN
                        await tx.set_table_meta_many([(k, n, v) for (k, n), v in values.items()])
            except Exception as err:
                batch.set_exception(err)
            except BaseException:  # cancelled (shutdown): so are the batches' waiters
                batch.cancel()
                if self._batch is not None:
                    self._batch.cancel()
                self._batch, self._pending = None, {}
                raise
            else:
                batch.set_result(None)
