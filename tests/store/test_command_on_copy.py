"""A command on a worker's current copy (PostgreSQL): when the worker has heard every
commit and its copy is as new as the newest it heard of, the command runs on the copy
and commits in one statement that checks, under the table's lock, that neither the
table nor its group's settings changed meanwhile (``StoreTx.write_if``) — no BEGIN, no
lock held across the step, one round trip where four were. If either changed (a commit
not heard of yet), nothing is written and the command runs again under the lock with
what is stored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.cluster.shell import shared_manager
from bot.store import Store, StoreTx, TableWrite
from bot.store.backend import Tx
from bot.table import (
    Actor,
    ChangeSettings,
    ChatRef,
    FakeClock,
    GroupSettings,
    Join,
    OpenTable,
    TableManager,
    apply_setting_changes,
)

from .conftest import new_pg_database
from .test_relay_trips import Counted

CHAT = ChatRef("tg", "-100")
ME, YOU, THEM = Actor("u1", "甲"), Actor("u2", "乙"), Actor("u3", "丙")


@pytest.fixture
async def pg_target(pg_server: Any) -> str:
    return await new_pg_database(pg_server)


async def worker(target: str, name: str, clock: FakeClock) -> TableManager:
    store = Store(target)
    await store.open()
    return shared_manager(store, worker=name, clock=clock, seed_source=lambda: 77, lease_seconds=5)


@pytest.fixture
async def pair(pg_target: str) -> AsyncIterator[tuple[TableManager, TableManager]]:
    clock = FakeClock()
    a, b = await worker(pg_target, "w1", clock), await worker(pg_target, "w2", clock)
    settings = apply_setting_changes(GroupSettings(), {"turn_seconds": 30})
    await a.repository.db.save_settings(CHAT.group_key, settings.to_json())
    try:
        yield a, b
    finally:
        for m in (a, b):
            await m.drain()
            await m.repository.db.close()


async def current(m: TableManager) -> None:
    """Until this worker has heard of every commit and read it (its copy current)."""
    await m.refresh(CHAT.key)
    for _ in range(200):
        if CHAT.key in m.tables and not m.repository._behind(CHAT.key):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the copy never caught up")


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    statements: list[str] = []
    original = StoreTx.__init__

    def counted(self: StoreTx, tx: Tx, fault: Any = None) -> None:
        original(self, Counted(tx, statements), fault)

    monkeypatch.setattr(StoreTx, "__init__", counted)
    return statements


async def test_a_command_on_a_current_copy_is_one_statement(
    pair: tuple[TableManager, TableManager], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = pair
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok  # no copy yet: locked
    assert await a.load() == 1 and await b.load() == 1
    await current(a)
    statements = counting(monkeypatch)
    opened: list[bool] = []
    begin = a.repository.db.backend.transaction

    def noting(readonly: bool = False, lane: Any = None, single: bool = False) -> Any:
        opened.append(not (readonly or single))
        return begin(readonly, lane, single)

    monkeypatch.setattr(a.repository.db.backend, "transaction", noting)
    reread: list[str] = []

    async def refresh_behind(key: str) -> None:
        reread.append(key)

    monkeypatch.setattr(a.repository, "_refresh_behind", refresh_behind)
    assert (await a.handle(Join(chat=CHAT, actor=YOU))).ok
    await a.drain()
    await asyncio.sleep(0.2)  # its notice arrives: a's own commit, nothing to follow
    assert reread == [] and not a.repository._refreshing
    # (the other statements are the relay's and b's reads that follow the commit)
    written = [s.split("(")[0] for s in statements if "gouji" in s or s == "lock"]
    assert written == ["SELECT gouji_write_step_if"]
    assert opened and True not in opened  # no BEGIN, no COMMIT, no lock across the step
    monkeypatch.undo()
    assert a.timings.summary().get("write_if") is not None
    # the seat index (table_players) was written in the same statement
    assert await b.tables_of("u2") == [CHAT.key]
    await current(b)  # and b follows it as any commit
    seats = [s.user_id if s else None for s in b.tables[CHAT.key].seats]
    assert seats[:2] == ["u1", "u2"]


async def test_a_commit_not_heard_of_yet_sends_the_command_under_the_lock(
    pair: tuple[TableManager, TableManager],
) -> None:
    """The copy looks current (the other worker's notice is still on its way) but the
    stored table moved on: the checked write refuses, nothing is written, and the
    command runs again on what is stored — once."""
    a, b = pair
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    # a's notices are late (never arrive here): its copy looks current throughout
    a.repository._heard = lambda key, version: None  # type: ignore[method-assign]
    assert await a.load() == 1 and await b.load() == 1
    await current(a)
    version = a.repository._versions[CHAT.key]
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok  # a commit a has not heard of
    assert not a.repository._behind(CHAT.key) and a.repository._versions[CHAT.key] == version
    again = await a.handle(Join(chat=CHAT, actor=YOU))  # on a's old copy: seat 2 is free
    assert not again.ok and again.key == "already_seated"  # judged on what is stored
    summary = a.timings.summary()
    assert summary.get("write_if_refused") is not None and "write_if" not in summary
    assert (await a.handle(Join(chat=CHAT, actor=THEM))).ok
    async with a.repository.db.transaction(readonly=True) as tx:
        stored = await tx.load_table(CHAT.key)
    assert stored is not None
    seats = [s["user_id"] if s else None for s in stored.record["seats"]]
    assert seats[:3] == ["u1", "u2", "u3"]


async def test_settings_changed_elsewhere_send_the_command_under_the_lock(
    pair: tuple[TableManager, TableManager],
) -> None:
    """A step depends on the group's settings too (the AI's level, the turn's time): a
    copy whose settings are no longer what is stored does not commit its step."""
    a, b = pair
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    assert await a.load() == 1
    await current(a)
    changed = apply_setting_changes(GroupSettings(), {"turn_seconds": 45})
    await b.repository.db.save_settings(CHAT.group_key, changed.to_json())  # a hears nothing
    assert (await a.handle(Join(chat=CHAT, actor=YOU))).ok
    assert a.timings.summary().get("write_if_refused") is not None
    assert a.settings_cache[CHAT.group_key].turn_seconds == 45  # read under the lock


async def test_a_settings_change_is_never_made_on_a_copy(
    pair: tuple[TableManager, TableManager],
) -> None:
    """A settings change runs under the lock (it may change nothing of the table, and a
    copy's one checked statement writes only a table that changed): stored, every time."""
    a, b = pair
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    assert await a.load() == 1 and await b.load() == 1
    await current(a)
    admin = Actor("u1", "甲", is_admin=True)
    change = ChangeSettings(chat=CHAT, actor=admin, changes={"turn_seconds": 60})
    assert (await a.handle(change)).ok
    assert (await b.group_settings(CHAT)).turn_seconds == 60
    assert a.timings is not None and a.timings.summary().get("write_if") is None


@pytest.fixture(params=["sqlite", "postgres"])
async def any_target(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    return await new_pg_database(request.getfixturevalue("pg_server"))


async def test_the_checked_write_writes_nothing_when_refused(any_target: str) -> None:
    """Both back ends (the shell uses it on PostgreSQL; SQLite checks part by part)."""
    store = Store(any_target)
    await store.open()
    try:
        write = TableWrite("tg:-5:", {"deal_no": 0}, True, 1.0, players=("u1",))
        async with store.statement() as tx:
            assert await tx.write_if(write, 0, ("tg:-5", None)) is None  # no row: version None
        async with store.transaction() as tx:
            first = await tx.write(write)
        async with store.statement() as tx:
            assert await tx.write_if(write, first + 1, ("tg:-5", None)) is None
        async with store.statement() as tx:  # settings stored meanwhile: refused too
            await tx.save_settings("tg:-5", {"turn_seconds": 20})
        async with store.statement() as tx:
            assert await tx.write_if(write, first, ("tg:-5", None)) is None
        async with store.statement() as tx:
            done = await tx.write_if(write, first, ("tg:-5", {"turn_seconds": 20}))
        assert done == first + 1
        async with store.transaction(readonly=True) as tx:
            assert await tx.table_version("tg:-5:") == first + 1
            assert await tx.tables_of("u1") == ["tg:-5:"]
    finally:
        await store.close()
