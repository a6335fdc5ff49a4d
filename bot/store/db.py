"""The one SQLite file behind the bot."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from .migrations import MIGRATIONS

DB_ENV = "GOUJI_DB"


def default_db_path() -> str:
    """``$GOUJI_DB`` or ``gouji.sqlite3`` in the working directory."""
    return os.environ.get(DB_ENV, "gouji.sqlite3")


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: str
    name: str
    hands: int
    firsts: int
    lasts: int
    points: int


class Store:
    """Async access to the database; one connection, committed after each write."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def migrate(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        version = int(row[0]) if row else 0
        for target in range(version, len(MIGRATIONS)):
            await self.db.executescript(MIGRATIONS[target])
            await self.db.execute(f"PRAGMA user_version = {target + 1}")
            await self.db.commit()
        return len(MIGRATIONS)

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # -- group settings -------------------------------------------------------------------
    async def load_settings(self, group_key: str) -> dict[str, Any] | None:
        async with self.db.execute(
            "SELECT settings FROM group_settings WHERE group_key = ?", (group_key,)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else None

    async def save_settings(self, group_key: str, settings: dict[str, Any]) -> None:
        await self.db.execute(
            "INSERT INTO group_settings (group_key, settings) VALUES (?, ?) "
            "ON CONFLICT(group_key) DO UPDATE SET settings = excluded.settings",
            (group_key, json.dumps(settings, ensure_ascii=False)),
        )
        await self.db.commit()

    # -- live tables ----------------------------------------------------------------------
    async def save_table(
        self,
        table_key: str,
        record: dict[str, Any],
        live: bool,
        new_actions: Sequence[tuple[int, int, int, dict[str, Any]]] = (),
        updated: float = 0.0,
    ) -> None:
        """Save the table record and append actions (deal_no, idx, seat, action) in one commit."""
        await self.db.execute(
            "INSERT INTO tables (table_key, record, live, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_key) DO UPDATE SET record = excluded.record, "
            "live = excluded.live, updated = excluded.updated",
            (table_key, json.dumps(record, ensure_ascii=False), int(live), updated),
        )
        if new_actions:
            await self.db.executemany(
                "INSERT OR REPLACE INTO actions (table_key, deal_no, idx, seat, action) "
                "VALUES (?, ?, ?, ?, ?)",
                [(table_key, d, i, s, json.dumps(a)) for d, i, s, a in new_actions],
            )
        await self.db.commit()

    async def live_tables(self) -> list[tuple[str, dict[str, Any]]]:
        async with self.db.execute("SELECT table_key, record FROM tables WHERE live = 1") as cur:
            rows = await cur.fetchall()
        return [(str(k), json.loads(r)) for k, r in rows]

    async def live_table(self, table_key: str) -> dict[str, Any] | None:
        """One live table's record (a table that left memory comes back on demand)."""
        async with self.db.execute(
            "SELECT record FROM tables WHERE table_key = ? AND live = 1", (table_key,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def load_actions(self, table_key: str, deal_no: int) -> list[tuple[int, dict[str, Any]]]:
        async with self.db.execute(
            "SELECT seat, action FROM actions WHERE table_key = ? AND deal_no = ? ORDER BY idx",
            (table_key, deal_no),
        ) as cur:
            rows = await cur.fetchall()
        return [(int(s), json.loads(a)) for s, a in rows]

    async def drop_actions(self, table_key: str, before_deal: int | None = None) -> None:
        """Forget logged actions of a table (all, or of deals before ``before_deal``)."""
        if before_deal is None:
            await self.db.execute("DELETE FROM actions WHERE table_key = ?", (table_key,))
        else:
            await self.db.execute(
                "DELETE FROM actions WHERE table_key = ? AND deal_no < ?", (table_key, before_deal)
            )
        await self.db.commit()

    # -- finished hands and stats -------------------------------------------------------
    async def record_hand(
        self,
        group_key: str,
        table_key: str,
        deal_no: int,
        record: dict[str, Any],
        players: Sequence[tuple[str, str, int, int]],
    ) -> None:
        """Store a finished hand and add to each human's stats: (user_id, name, place, points)."""
        await self.db.execute(
            "INSERT INTO hands (group_key, table_key, deal_no, record) VALUES (?, ?, ?, ?)",
            (group_key, table_key, deal_no, json.dumps(record, ensure_ascii=False)),
        )
        await self.db.executemany(
            "INSERT INTO player_stats (group_key, user_id, name, hands, firsts, lasts, points) "
            "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT(group_key, user_id) DO UPDATE SET "
            "name = excluded.name, hands = hands + 1, firsts = firsts + excluded.firsts, "
            "lasts = lasts + excluded.lasts, points = points + excluded.points",
            [
                (group_key, uid, name, int(place == 1), int(place == 6), points)
                for uid, name, place, points in players
            ],
        )
        await self.db.commit()

    async def finished_hands(self, group_key: str) -> list[dict[str, Any]]:
        async with self.db.execute(
            "SELECT record FROM hands WHERE group_key = ? ORDER BY id", (group_key,)
        ) as cur:
            rows = await cur.fetchall()
        return [json.loads(r[0]) for r in rows]

    _STATS = "SELECT user_id, name, hands, firsts, lasts, points FROM player_stats "

    async def leaderboard(self, group_key: str, limit: int = 10) -> list[PlayerStats]:
        """The group's players by points (then 头科 count, then fewer hands)."""
        return await self._stats(
            "WHERE group_key = ? ORDER BY points DESC, firsts DESC, hands ASC, name LIMIT ?",
            (group_key, limit),
        )

    async def player(self, group_key: str, user_id: str) -> PlayerStats | None:
        rows = await self._stats("WHERE group_key = ? AND user_id = ?", (group_key, user_id))
        return rows[0] if rows else None

    async def _stats(self, where: str, args: tuple[Any, ...]) -> list[PlayerStats]:
        async with self.db.execute(self._STATS + where, args) as cur:
            rows = await cur.fetchall()
        return [
            PlayerStats(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]
