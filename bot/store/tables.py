"""Group settings, live tables with their action logs, and who sits where."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .backend import Dialect, Row
from .base import TxQueries, dumps, loads

TABLES_CHANNEL = "gouji_tables"  # NOTIFY: "<version> <table key>" at each commit

# (deal_no, idx, seat, action as JSON)
ActionRow = tuple[int, int, int, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_key: str
    record: dict[str, Any]
    live: bool
    version: int


@dataclass(frozen=True, slots=True)
class ActionsSince:
    """A deal's logged actions from the ``start``-th on, read with the table's row."""

    deal_no: int
    start: int
    actions: tuple[tuple[int, dict[str, Any]], ...]


# A table's row and its deal's actions from an index on, in one statement (``load_table_since``).
_TABLE_SINCE = (
    "SELECT t.record, t.live, t.version, a.idxs, a.seats, a.acts FROM tables t, LATERAL ("
    "SELECT array_agg(idx ORDER BY idx) AS idxs, array_agg(seat ORDER BY idx) AS seats, "
    "array_agg(action ORDER BY idx) AS acts FROM actions "
    "WHERE table_key = t.table_key AND deal_no = ? AND idx >= ?) a WHERE t.table_key = ?"
)


class TableQueries(TxQueries):
    """Settings, tables, action logs and seats inside one open transaction."""

    # -- settings -----------------------------------------------------------------------
    async def load_settings(self, group_key: str) -> dict[str, Any] | None:
        row = await self.tx.fetchone(
            "SELECT settings FROM group_settings WHERE group_key = ?", group_key
        )
        return loads(row[0]) if row else None

    async def save_settings(self, group_key: str, settings: dict[str, Any]) -> None:
        await self.tx.execute(
            "INSERT INTO group_settings (group_key, settings) VALUES (?, ?) "
            "ON CONFLICT (group_key) DO UPDATE SET settings = excluded.settings",
            group_key,
            dumps(settings),
        )

    async def save_table(
        self,
        table_key: str,
        record: dict[str, Any],
        live: bool,
        updated: float = 0.0,
        notify: bool = False,
    ) -> int:
        """Write the table row; its version goes up by one with every write (1 when new),
        so a worker that holds an older copy sees it must reload. ``notify``: tell the
        other workers at the commit (``notify_table``, in the same statement)."""
        told = ""
        if notify and self.tx.dialect is Dialect.POSTGRES:
            told = f", pg_notify('{TABLES_CHANNEL}', tables.version || ' ' || tables.table_key)"
        row = await self.tx.fetchone(
            "INSERT INTO tables (table_key, record, live, version, updated) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT (table_key) DO UPDATE SET "
            "record = excluded.record, live = excluded.live, version = tables.version + 1, "
            "updated = excluded.updated RETURNING version" + told,
            table_key,
            dumps(record),
            live,
            float(updated),
        )
        assert row is not None
        return int(row[0])

    async def append_actions(self, table_key: str, rows: Sequence[ActionRow]) -> None:
        await self.tx.executemany(
            "INSERT INTO actions (table_key, deal_no, idx, seat, action) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (table_key, deal_no, idx) DO UPDATE SET "
            "seat = excluded.seat, action = excluded.action",
            [(table_key, d, i, s, json.dumps(a)) for d, i, s, a in rows],
        )

    async def drop_actions(self, table_key: str, before_deal: int | None = None) -> None:
        """Forget logged actions of a table (all, or of deals before ``before_deal``)."""
        if before_deal is None:
            await self.tx.execute("DELETE FROM actions WHERE table_key = ?", table_key)
        else:
            await self.tx.execute(
                "DELETE FROM actions WHERE table_key = ? AND deal_no < ?", table_key, before_deal
            )

    async def lock_table(self, table_key: str) -> StoredTable | None:
        """Hold the table for the rest of this transaction, across processes, and read it.

        PostgreSQL: a transaction-level advisory lock on the key (it works before the row
        exists, so two workers cannot both create a table); SQLite: the file's write lock."""
        await self.tx.lock_key(table_key)
        return await self.load_table(table_key)

    async def lock_table_and_settings(
        self, table_key: str, group_key: str
    ) -> tuple[StoredTable | None, dict[str, Any] | None]:
        """``lock_table`` and ``load_settings`` (a command needs both; read after the
        lock, so both are as of its start). PostgreSQL takes the lock and reads in one
        round trip: a function whose read, a statement of its own, sees every commit made
        before the lock was granted."""
        if self.tx.dialect is Dialect.POSTGRES:
            # The lock and the read in one round trip (``gouji_lock_table``, migration 5).
            row = await self.tx.fetchone(
                "SELECT * FROM gouji_lock_table(?, ?)", table_key, group_key
            )
        else:
            row = await self._lock_and_read(table_key, group_key)
        assert row is not None
        table = (
            None
            if row[0] is None
            else StoredTable(table_key, loads(row[0]), bool(row[1]), int(row[2]))
        )
        return table, None if row[3] is None else loads(row[3])

    async def _lock_and_read(self, table_key: str, group_key: str) -> Row | None:
        await self.tx.lock_key(table_key)
        return await self.tx.fetchone(
            "SELECT t.record, t.live, t.version, s.settings "
            "FROM (SELECT CAST(? AS TEXT) AS k, CAST(? AS TEXT) AS g) q "
            "LEFT JOIN tables t ON t.table_key = q.k "
            "LEFT JOIN group_settings s ON s.group_key = q.g",
            table_key,
            group_key,
        )

    async def try_lock_table(self, table_key: str) -> bool:
        """The lock of ``lock_table`` if free now; never waits (timers use it, so they never
        wait on a table while holding a deadline row)."""
        return await self.tx.lock_key(table_key, wait=False)

    async def load_table(self, table_key: str) -> StoredTable | None:
        row = await self.tx.fetchone(
            "SELECT record, live, version FROM tables WHERE table_key = ?", table_key
        )
        if row is None:
            return None
        return StoredTable(table_key, loads(row[0]), bool(row[1]), int(row[2]))

    async def load_table_since(
        self, table_key: str, deal_no: int, start: int
    ) -> tuple[StoredTable | None, ActionsSince | None]:
        """``load_table`` and the actions of deal ``deal_no`` from the ``start``-th on —
        what a copy holding that deal's first ``start`` actions lacks. On PostgreSQL one
        statement: one round trip where two were, and the row and its actions from one
        snapshot (two statements outside a transaction could read actions committed after
        the row). The actions are None when the row is at another deal (a new deal is
        read whole with ``load_actions``)."""
        if self.tx.dialect is Dialect.POSTGRES:
            row = await self.tx.fetchone(_TABLE_SINCE, deal_no, start, table_key)
            if row is None:
                return None, None
            idxs, seats, acts = row[3] or [], row[4] or [], row[5] or []
        else:
            row = await self.tx.fetchone(
                "SELECT record, live, version FROM tables WHERE table_key = ?", table_key
            )
            if row is None:
                return None, None
            logged = await self.tx.fetch(
                "SELECT idx, seat, action FROM actions WHERE table_key = ? AND deal_no = ? "
                "AND idx >= ? ORDER BY idx",
                table_key,
                deal_no,
                start,
            )
            idxs, seats, acts = ([r[i] for r in logged] for i in range(3))
        table = StoredTable(table_key, loads(row[0]), bool(row[1]), int(row[2]))
        if table.record.get("deal_no") != deal_no or list(idxs) != list(
            range(start, start + len(idxs))
        ):
            return table, None
        return table, ActionsSince(
            deal_no, start, tuple((int(s), loads(a)) for s, a in zip(seats, acts, strict=True))
        )

    async def notify_table(self, table_key: str, version: int) -> None:
        """Tell the other workers, at the commit, that this table is now at ``version``."""
        await self.tx.notify(TABLES_CHANNEL, f"{version} {table_key}")

    async def table_version(self, table_key: str) -> int | None:
        row = await self.tx.fetchone("SELECT version FROM tables WHERE table_key = ?", table_key)
        return int(row[0]) if row else None

    async def live_tables(self) -> list[tuple[str, dict[str, Any]]]:
        rows = await self.tx.fetch(
            "SELECT table_key, record FROM tables WHERE live ORDER BY table_key"
        )
        return [(str(k), loads(r)) for k, r in rows]

    async def load_actions(
        self, table_key: str, deal_no: int, start: int = 0
    ) -> list[tuple[int, dict[str, Any]]]:
        """The deal's logged actions, from the ``start``-th on (a worker that holds the
        first ones already reads only the rest)."""
        rows = await self.tx.fetch(
            "SELECT seat, action FROM actions WHERE table_key = ? AND deal_no = ? AND idx >= ? "
            "ORDER BY idx",
            table_key,
            deal_no,
            start,
        )
        return [(int(s), loads(a)) for s, a in rows]

    # -- who sits where ------------------------------------------------------------------
    async def set_players(self, table_key: str, users: Sequence[str]) -> None:
        """The users seated at a live table (none: it ended)."""
        await self.tx.execute("DELETE FROM table_players WHERE table_key = ?", table_key)
        await self.add_players([(u, table_key) for u in users])

    async def add_players(self, pairs: Sequence[tuple[str, str]]) -> None:
        """(user, table) rows, kept if already there."""
        if pairs:
            await self.tx.executemany(
                "INSERT INTO table_players (user_id, table_key) VALUES (?, ?) "
                "ON CONFLICT (user_id, table_key) DO NOTHING",
                list(pairs),
            )

    async def tables_of(self, user_id: str, prefix: str = "") -> list[str]:
        """The live tables where this user has a seat (keys starting with ``prefix``)."""
        rows = await self.tx.fetch(
            "SELECT p.table_key FROM table_players p JOIN tables t ON t.table_key = p.table_key "
            "WHERE p.user_id = ? AND substr(p.table_key, 1, ?) = ? AND t.live "
            "ORDER BY p.table_key",
            user_id,
            len(prefix),
            prefix,
        )
        return [str(r[0]) for r in rows]
