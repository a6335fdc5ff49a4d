"""The bot's database: ``Store``, async access where each public write is one transaction.

``Store(target)`` is SQLite for a file path (the default) and PostgreSQL for a
``postgresql://`` URL; the queries (one text for both back ends) live by concern beside
this module — tables, meta, interactions, hands, deadlines, outbox — and ``StoreTx``
(steps.py) puts them together in one open transaction. Every step of persistence is one
transaction (``save_step``), so a crash at any instant leaves either the whole step or none
of it.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from .backend import Backend, Dialect, Lane
from .base import FaultHook, loads
from .hands import HandWrite, PlayerRow, PlayerStats
from .meta import META_CHANNEL
from .steps import StoreTx, TableWrite
from .tables import TABLES_CHANNEL, ActionRow
from .target import is_postgres_url


class Store:
    """Async access to the database; each public write is one transaction."""

    def __init__(self, target: str | Path) -> None:
        self.target = str(target)
        self.backend: Backend
        if is_postgres_url(self.target):
            from .postgres import PostgresBackend

            self.backend = PostgresBackend(self.target)
        else:
            from .sqlite import SqliteBackend

            self.backend = SqliteBackend(self.target)
        self.lane = Lane.COMMANDS
        self._hook: list[FaultHook | None] = [None]  # one for this store and its lanes

    @property
    def fault_hook(self) -> FaultHook | None:
        return self._hook[0]

    @fault_hook.setter
    def fault_hook(self, hook: FaultHook | None) -> None:
        self._hook[0] = hook

    def background(self) -> Store:
        """This store for bookkeeping (the outbox relay, adapters' values): the same
        database and back end, but on PostgreSQL through a pool of its own, so however
        much of it waits, it never holds a connection a command needs."""
        return self._on(Lane.BACKGROUND)

    def receipts(self) -> Store:
        """This store for marking a new message sent: a pool of its own on PostgreSQL, so
        the commit that closes the double-post window never queues for a connection."""
        return self._on(Lane.RECEIPTS)

    def _on(self, lane: Lane) -> Store:
        view = copy.copy(self)
        view.lane = lane
        return view

    @property
    def dialect(self) -> Dialect:
        return self.backend.dialect

    async def open(self) -> None:
        await self.backend.open()
        await self.migrate()

    async def close(self) -> None:
        await self.backend.close()

    async def migrate(self) -> int:
        return await self.backend.migrate()

    async def listen_tables(self, callback: Callable[[str, int], None]) -> bool:
        """Call ``callback(table_key, version)`` whenever any worker commits a table;
        False on SQLite (one process: nobody else writes)."""

        def heard(payload: str) -> None:
            version, _, key = payload.partition(" ")
            callback(key, int(version))

        return await self.backend.listen(TABLES_CHANNEL, heard)

    async def listen_meta(self, callback: Callable[[str, str, Any, bool], None]) -> bool:
        """Call ``callback(table_key, name, value, has_value)`` whenever any worker commits
        a table's adapter value (``has_value`` False: too large for the notification,
        read it from the store). False on SQLite."""

        def heard(payload: str) -> None:
            raw = loads(payload)
            callback(str(raw[0]), str(raw[1]), raw[2] if len(raw) > 2 else None, len(raw) > 2)

        return await self.backend.listen(META_CHANNEL, heard)

    async def ping(self) -> None:
        """A round trip to the database (the health check); raises if it does not answer."""
        async with self.transaction(readonly=True) as tx:
            await tx.tx.fetch("SELECT 1")

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    @asynccontextmanager
    async def transaction(self, readonly: bool = False) -> AsyncIterator[StoreTx]:
        async with self.backend.transaction(readonly, self.lane) as tx:
            yield StoreTx(tx, self.fault_hook)
            if not readonly:
                self._fault("commit")
        if not readonly:
            self._fault("committed")

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[StoreTx]:
        """A transaction of one write statement (atomic by itself: asyncpg's
        ``executemany`` too): on PostgreSQL without BEGIN and COMMIT — one round trip
        where a transaction takes three. The block must run exactly one statement on
        PostgreSQL (SQLite runs it as a transaction, so there a method may take two)."""
        async with self.backend.transaction(False, self.lane, single=True) as tx:
            yield StoreTx(tx, self.fault_hook)
        self._fault("committed")

    def _fault(self, point: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(point)

    # -- one step of a table --------------------------------------------------------------
    async def save_step(self, write: TableWrite) -> int:
        """Commit one step of a table (see ``StoreTx.write``) as one transaction; returns
        the table row's new version."""
        async with self.transaction() as tx:
            return await tx.write(write)

    # -- single operations, each its own transaction ---------------------------------------
    async def load_settings(self, group_key: str) -> dict[str, Any] | None:
        async with self.transaction(readonly=True) as tx:
            return await tx.load_settings(group_key)

    async def save_settings(self, group_key: str, settings: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.save_settings(group_key, settings)

    async def save_table(
        self,
        table_key: str,
        record: dict[str, Any],
        live: bool,
        new_actions: Sequence[ActionRow] = (),
        updated: float = 0.0,
    ) -> int:
        """Save the table record and append actions (deal_no, idx, seat, action) together."""
        return await self.save_step(
            TableWrite(table_key, record, live, updated, tuple(new_actions))
        )

    async def live_tables(self) -> list[tuple[str, dict[str, Any]]]:
        async with self.transaction(readonly=True) as tx:
            return await tx.live_tables()

    async def live_table(self, table_key: str) -> dict[str, Any] | None:
        """One live table's record (a table that left memory comes back on demand)."""
        async with self.transaction(readonly=True) as tx:
            row = await tx.load_table(table_key)
        return row.record if row is not None and row.live else None

    async def load_actions(self, table_key: str, deal_no: int) -> list[tuple[int, dict[str, Any]]]:
        async with self.transaction(readonly=True) as tx:
            return await tx.load_actions(table_key, deal_no)

    async def drop_actions(self, table_key: str, before_deal: int | None = None) -> None:
        async with self.transaction() as tx:
            await tx.drop_actions(table_key, before_deal)

    async def record_hand(
        self,
        group_key: str,
        table_key: str,
        deal_no: int,
        record: dict[str, Any],
        players: Sequence[PlayerRow],
    ) -> None:
        """Store a finished hand and add to each human's stats: (user_id, name, place, points)."""
        async with self.transaction() as tx:
            await tx.record_hand(
                group_key, table_key, HandWrite(group_key, deal_no, record, tuple(players))
            )

    async def finished_hands(self, group_key: str) -> list[dict[str, Any]]:
        async with self.transaction(readonly=True) as tx:
            return await tx.finished_hands(group_key)

    async def hands_from(
        self, group_key: str, number: int, limit: int = 1
    ) -> list[tuple[int, dict[str, Any]]]:
        """Finished hands of a group from its ``number``-th on (1-based, in play order): the
        number is the hand's short id in the group (bot.records)."""
        if number < 1 or limit < 1:
            return []
        async with self.transaction(readonly=True) as tx:
            return await tx.hands_from(group_key, number, limit)

    async def recent_hands(
        self, group_key: str, limit: int = 10
    ) -> list[tuple[int, dict[str, Any]]]:
        """The group's last ``limit`` finished hands with their short ids, newest first."""
        async with self.transaction(readonly=True) as tx:
            total = await tx.hand_count(group_key)
        first = max(1, total - limit + 1)
        return list(reversed(await self.hands_from(group_key, first, limit)))

    async def leaderboard(self, group_key: str, limit: int = 10) -> list[PlayerStats]:
        """The group's players by points (then 头科 count, then fewer hands)."""
        return await self._stats(
            "WHERE group_key = ? ORDER BY points DESC, firsts DESC, hands ASC, name LIMIT ?",
            group_key,
            limit,
        )

    async def player(self, group_key: str, user_id: str) -> PlayerStats | None:
        rows = await self._stats("WHERE group_key = ? AND user_id = ?", group_key, user_id)
        return rows[0] if rows else None

    async def _stats(self, where: str, *args: Any) -> list[PlayerStats]:
        async with self.transaction(readonly=True) as tx:
            return await tx.stats(where, *args)
