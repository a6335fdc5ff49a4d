"""A chat's group budget outlives its table by a window: the last messages of a match (its
end, the final table edit) go out after the commit that ended the table, perhaps by a
worker that takes the chat over only then — or by one just restarted. The budget's memory
is the tables' adapter values, and an ended table is no live one; a worker keeps the
values of tables that ended lately (``memory_keys``) and a takeover recalls them from the
store, so that worker counts the calls the others made. (The cluster benchmark counted 21
calls in a group's minute: a silent table timed out just after a worker's restart, and
its match-end messages went out with an empty budget.) Both back ends."""

from __future__ import annotations

from typing import Any

from adapters.telegram.sendlog import SENT, TableMetaMemory
from bot.cluster.shell import shared_manager
from bot.store import Store, TableWrite
from bot.table import Actor, ChatRef, FakeClock
from bot.table.commands import OpenTable, StopMatch

GROUP = -100600
KEY = f"tg:{GROUP}:"
TIMES = [1000.0 + i for i in range(12)]  # another worker's calls (wall-clock seconds)


async def ended_table(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.write(TableWrite(KEY, {"ended": True}, False, 1.0))
    async with store.statement() as tx:
        await tx.set_table_meta_many([(KEY, SENT, TIMES)])


async def test_a_takeover_recalls_the_budget_of_a_table_that_just_ended(store: Store) -> None:
    await ended_table(store)
    manager = shared_manager(store, worker="w2", clock=FakeClock(), seed_source=lambda: 7)
    memory = TableMetaMemory(manager)
    assert list(memory.load(GROUP)) == []  # nothing known before the takeover
    recalled: list[list[float]] = []

    async def sink(chat_key: str, payload: dict[str, Any]) -> None:
        recalled.append(list(memory.load(GROUP)))  # what the adapter's budget would load

    manager.subscribe_replies(sink)
    assert manager.relay_reply(KEY, {"text": "比赛结束"})
    await manager.drain()
    assert recalled == [TIMES]
    # Its own calls then count there too (written to the ended table's values).
    await manager.set_meta(KEY, SENT, [*TIMES, 1012.0])
    assert list(memory.load(GROUP)) == [*TIMES, 1012.0]
    assert manager.memory_keys(KEY) == [KEY]
    assert manager.memory_keys("tg:-5:") == ["tg:-5:"]  # no table: the chat's own key


async def test_a_worker_keeps_the_values_of_a_table_it_saw_end(store: Store) -> None:
    """A worker whose copy of a live table is replaced by the ended row keeps that
    table's adapter values (its budget's memory) rather than forgetting them with it."""
    manager = shared_manager(store, worker="w1", clock=FakeClock(), seed_source=lambda: 7)
    await manager.load()
    await manager.handle(OpenTable(chat=ChatRef("tg", str(GROUP)), actor=Actor("1", "甲")))
    assert KEY in manager.tables
    await manager.set_meta(KEY, SENT, TIMES)
    assert list(TableMetaMemory(manager).load(GROUP)) == TIMES
    await ended_table(store)  # another worker ended it
    await manager.refresh(KEY)
    assert KEY not in manager.tables
    assert list(TableMetaMemory(manager).load(GROUP)) == TIMES


async def test_a_table_this_worker_ended_itself_keeps_the_budget(store: Store) -> None:
    """The worker whose own step ended the table holds it in memory, finished, for a
    while: its values are the budget's memory there too, and a takeover's recall reads
    the other workers' calls into them (it found no table at all, and recalled none)."""
    manager = shared_manager(store, worker="w1", clock=FakeClock(), seed_source=lambda: 7)
    await manager.load()
    chat, actor = ChatRef("tg", str(GROUP)), Actor("1", "甲")
    await manager.handle(OpenTable(chat=chat, actor=actor))
    assert (await manager.handle(StopMatch(chat=chat, actor=actor))).ok
    assert KEY in manager.tables and not manager.tables[KEY].live()
    assert manager.memory_keys(KEY) == [KEY]
    async with store.statement() as tx:  # another worker's calls, stored meanwhile
        await tx.set_table_meta_many([(KEY, SENT, TIMES)])
    memory = TableMetaMemory(manager)
    recalled: list[list[float]] = []

    async def sink(chat_key: str, payload: dict[str, Any]) -> None:
        recalled.append(list(memory.load(GROUP)))

    manager.subscribe_replies(sink)
    assert manager.relay_reply(KEY, {"text": "比赛结束"})
    await manager.drain()
    assert recalled == [TIMES]


async def test_a_chat_with_no_table_keeps_its_budget_across_workers(store: Store) -> None:
    """Replies in a group where no game was opened (``/help``, ``/rules``, a settings
    menu) spend the group's budget too. With no table the values live under the chat's
    own key: the sender writes its calls there, and the next sender's recall reads them
    (each worker counted only its own before)."""
    key = "tg:-100700:"
    first = shared_manager(store, worker="w1", clock=FakeClock(), seed_source=lambda: 7)
    assert first.memory_keys(key) == [key]
    await TableMetaMemory(first).save(-100700, TIMES, TIMES[:1])  # w1's calls, as stored
    await first.repository.meta.flush()
    async with store.transaction(readonly=True) as tx:
        assert (await tx.load_table_meta(key))[SENT] == TIMES
    second = shared_manager(store, worker="w2", clock=FakeClock(), seed_source=lambda: 7)
    memory = TableMetaMemory(second)
    recalled: list[list[float]] = []

    async def sink(chat_key: str, payload: dict[str, Any]) -> None:
        recalled.append(list(memory.load(-100700)))
        recalled.append(list(memory.load_edits(-100700)))

    second.subscribe_replies(sink)
    assert second.relay_reply(key, {"text": "帮助"})
    await second.drain()
    assert recalled == [TIMES, TIMES[:1]]  # w2 takes the chat over knowing w1's calls
