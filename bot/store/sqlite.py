"""The embedded default: one SQLite file through aiosqlite, for one process."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .backend import Backend, Dialect, Lane, Row, Tx
from .migrations import SQLITE

BUSY_TIMEOUT_MS = 5000  # another process's write transaction: wait this long for it


class SqliteTx(Tx):
    dialect = Dialect.SQLITE

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.wrote = False

    async def execute(self, sql: str, *args: Any) -> None:
        self.wrote = True
        await self.db.execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.wrote = True
        await self.db.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        rows: list[Row] = list(await self.db.execute_fetchall(sql, args))
        if self.db.in_transaction:  # an INSERT/UPDATE … RETURNING: a write to commit
            self.wrote = True
        return rows

    async def lock_key(self, key: str, wait: bool = True) -> bool:
        # SQLite locks the whole file: take the write lock now (not at the first write),
        # so what this transaction reads cannot change under it, even from another process.
        if self.db.in_transaction:
            return True
        if wait:
            await self.db.execute("BEGIN IMMEDIATE")
            self.wrote = True
            return True
        await self.db.execute("PRAGMA busy_timeout=0")
        try:
            await self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # "database is locked": another process writes
            return False
        finally:
            await self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self.wrote = True
        return True


class SqliteBackend(Backend):
    """One connection. sqlite3 opens a transaction before the first write and the context
    commits it at the end; a lock keeps two coroutines' transactions from interleaving on
    the shared connection."""

    dialect = Dialect.SQLITE

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @asynccontextmanager
    async def transaction(
        self, readonly: bool = False, lane: Lane = Lane.COMMANDS, single: bool = False
    ) -> AsyncIterator[Tx]:
        db = self.db
        async with self._lock:
            tx = SqliteTx(db)
            try:
                yield tx
            except BaseException:
                if tx.wrote:
                    await db.rollback()
                raise
            if tx.wrote:
                await db.commit()

    async def schema_version(self) -> int:
        rows = await self.db.execute_fetchall("PRAGMA user_version")
        return int(next(iter(rows))[0])

    async def migrate(self) -> int:
        async with self._lock:
            version = await self.schema_version()
            for target in range(version, len(SQLITE)):
                # One transaction per step, the version bump included: a crash mid-way
                # leaves the previous version, never half of the next.
                await self.db.executescript(
                    f"BEGIN;\n{SQLITE[target]}\nPRAGMA user_version = {target + 1};\nCOMMIT;"
                )
        return len(SQLITE)
