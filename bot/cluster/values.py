"""The adapters' values of a worker of several (message ids, the group budget's recent
calls): kept with each table held, and for tables that ended lately; written as rows of
their own in batches (``MetaWriter``), heard from the other workers as they store them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..store import Store, StoreTx
from ..table.cache import BoundedDict
from ..table.memory import TableMemory
from ..table.outputs import Json
from .metawriter import MetaWriter
from .timings import Timings

# Tables that ended lately whose adapter values a worker keeps (``memory_keys``).
ENDED_KEPT = 4096


class AdapterValues:
    def __init__(
        self, memory: TableMemory, writer: MetaWriter, bookkeeping: Store, timings: Timings
    ) -> None:
        self.memory = memory
        self.writer = writer
        self.bookkeeping = bookkeeping
        self.timings = timings
        self.ended: BoundedDict[str, dict[str, Json]] = BoundedDict(ENDED_KEPT)

    def keep_ended(self, key: str) -> None:
        """A table leaves memory (or ended elsewhere): its values stay (``memory_keys``)."""
        self.ended[key] = dict(self.memory.meta(key))

    def memory_keys(self, prefix: str) -> list[str]:
        """The tables under ``prefix`` in memory — live, or ended by this worker's own
        step and not yet forgotten — and those it saw end lately: the group budget's
        memory of a chat whose table has just ended (its last messages — the match's end
        — go out after that commit, perhaps by a worker that takes the chat over then).
        An ended table this worker still holds counts too: left out, a takeover by the
        worker that ended it recalled no calls at all (the cluster benchmark's 21).

        A chat with no table at all (replies in a group where no game was opened) keeps
        its values under its own key — a ``table_meta`` row with no table, which a
        takeover's recall reads like a table's — so its budget too is one across workers."""
        held = (k for k in self.memory.tables if k.startswith(prefix))
        ended = (k for k in self.ended if k.startswith(prefix))
        return sorted({*held, *ended}) or [prefix]

    def remembered(self, key: str) -> Mapping[str, Json]:
        if key in self.memory.tables:
            return self.memory.meta_view(key)
        return self.ended.get(key) or {}

    async def set_meta(self, key: str, name: str, value: Json) -> bool:
        """An adapter's value (a message id, the group budget's recent calls): a row of
        its own, committed without the table's lock and without a new table version, so
        this bookkeeping never waits for a command nor makes the others reload — and in
        batches on the bookkeeping's own connections (``MetaWriter``). A value this worker
        already holds (its own, or heard from the others) is not written again."""
        if (
            key in self.memory.tables
            and name in self.memory.meta(key)
            and self.memory.meta(key)[name] == value
        ):
            return True
        with self.timings.phase("set_meta"):
            await self.writer.write(key, name, value)
            if key in self.memory.tables:
                self.memory.meta(key)[name] = value
            elif key in self.ended:
                self.ended[key][name] = value
        return True

    def heard(self, key: str, name: str, value: Any, has_value: bool) -> bool:
        """Another worker stored a value (``has_value``: here it is); True if it must be
        read (``reload``)."""
        if key not in self.memory.tables and key not in self.ended:
            return False  # read with the table when it is loaded
        if not has_value:
            return True
        if key in self.memory.tables:
            self.memory.meta(key)[name] = value
        else:
            self.ended[key][name] = value
        return False

    async def reload(self, key: str, ended: bool = False) -> None:
        """Read a table's adapter values as stored (``ended``: kept even without a live
        table in memory, for ``memory_keys``)."""
        async with self.bookkeeping.transaction(readonly=True) as tx:
            rows = await tx.load_table_meta(key)
        if key in self.memory.tables:
            self.memory.meta(key).update(rows)
        elif ended or key in self.ended:
            self.ended[key] = {**(self.ended.get(key) or {}), **rows}

    async def first(self, tx: StoreTx, key: str, record: dict[str, Any]) -> None:
        """The adapter values of a table read for the first time (later changes come
        with their notifications). A copy held already keeps its own: this worker's and
        those it heard since. The record carries the committing worker's copy of them,
        which may be older — it had not yet heard the chat's sender store a new table or
        hand message's id — and, put back over a held copy, it had a table message
        posted again (``tests/store/test_forum.py``). The values are written by the
        chat's one sender, and a sender taking the chat over reads them from the store
        first (``SharedTables._recall``)."""
        meta = record.get("meta")
        kept = self.memory.meta(key)
        kept.clear()
        kept.update(meta if isinstance(meta, dict) else {})
        kept.update(await tx.load_table_meta(key))
