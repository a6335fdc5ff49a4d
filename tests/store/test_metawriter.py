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


async def test_a_failed_value_or_batch_fails_only_its_callers(store: Store) -> None:
    writer = MetaWriter(store)
    await writer.write("t", "ok", 1)
    # Set together with good values: only its own caller fails (a set is no JSON).
    results = await asyncio.gather(
        writer.write("t", "a", 2),
        writer.write("t", "bad", {1, 2}),
        writer.write("t", "b", 3),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None and isinstance(results[1], TypeError)
    # A batch whose transaction fails fails its callers; the next batch goes on.
    await store.close()
    with pytest.raises(RuntimeError):
        await writer.write("t", "lost", 4)
    await store.open()
    await writer.write("t", "later", 5)
    async with store.transaction(readonly=True) as tx:
        assert await tx.load_table_meta("t") == {"ok": 1, "a": 2, "b": 3, "later": 5}
