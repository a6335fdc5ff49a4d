"""Adapters' values by group commit (bot.cluster.metawriter), on both back ends: values
set together share a transaction, the latest of a name wins, each caller returns once
its value committed, and a failed batch fails its callers (and only them)."""

from __future__ import annotations

import asyncio

import pytest

from bot.cluster.metawriter import MetaWriter
from bot.store import Store


async def test_values_set_together_are_written_in_one_transaction(store: Store) -> None:
    writer = MetaWriter(store)
    names = [("t1", "a", 1), ("t2", "a", [1.5, 2.5]), ("t1", "b", {"m": 7}), ("t1", "a", 2)]
    await asyncio.gather(*(writer.write(k, n, v) for k, n, v in names))
    async with store.transaction(readonly=True) as tx:
        assert await tx.load_table_meta("t1") == {"a": 2, "b": {"m": 7}}
        assert await tx.load_table_meta("t2") == {"a": [1.5, 2.5]}
    # Set before the writer ran: one transaction (one statement) for all four.
    assert writer.timings.summary()["meta_batch"]["n"] == 1


async def test_a_failed_batch_fails_its_callers_and_the_next_one_goes_on(store: Store) -> None:
    writer = MetaWriter(store)
    await writer.write("t", "ok", 1)
    with pytest.raises(TypeError):
        await writer.write("t", "bad", {1, 2})  # a set is no JSON
    await writer.write("t", "later", 3)
    async with store.transaction(readonly=True) as tx:
        assert await tx.load_table_meta("t") == {"ok": 1, "later": 3}
