"""What a database engine must give the store: transactions of plain SQL statements.

The store's queries are written once, with ``?`` placeholders and SQL that SQLite and
PostgreSQL both accept; a backend runs them (translating placeholders where it must) and
says which dialect it speaks, for the few clauses that differ (row locks, lock skipping).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from typing import Any

Row = Sequence[Any]


class Dialect(StrEnum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"


class Lane(StrEnum):
    """Whose transaction: a command's (a player waits for its answer) or bookkeeping's
    (the outbox relay, adapters' values). PostgreSQL gives each lane a pool of its own,
    so bookkeeping can never take the connections commands need; SQLite has one
    connection and ignores it."""

    COMMANDS = "commands"
    BACKGROUND = "background"
    # A new message's "sent" mark: a worker that dies between the platform's answer and
    # this commit has posted a message its successor will post again (the Bot API has no
    # idempotency key), so the mark never waits behind claims and reloads for a connection.
    RECEIPTS = "receipts"


class Tx(ABC):
    """One open transaction: everything run through it commits together or not at all."""

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> None: ...

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def notify(self, channel: str, payload: str) -> None:
        """Tell every listening process, when this transaction commits (PostgreSQL's
        NOTIFY); nothing to do with one process (SQLite)."""
        if self.dialect is Dialect.POSTGRES:
            await self.execute("SELECT pg_notify(?, ?)", channel, payload)

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    @abstractmethod
    async def lock_key(self, key: str, wait: bool = True) -> bool:
        """Hold ``key`` until this transaction ends, across processes; with ``wait=False``
        give up at once (False) if another transaction holds it."""

    @property
    def locks_rows(self) -> bool:
        """True where ``FOR UPDATE`` and ``SKIP LOCKED`` exist (PostgreSQL). SQLite has one
        writer at a time, so its transactions are already exclusive."""
        return self.dialect is Dialect.POSTGRES

    def for_update(self, skip_locked: bool = False, of: str = "") -> str:
        """The row-lock clause to end a SELECT with (nothing on SQLite)."""
        if not self.locks_rows:
            return ""
        clause = " FOR UPDATE"
        if of:
            clause += f" OF {of}"
        return clause + (" SKIP LOCKED" if skip_locked else "")


class Backend(ABC):
    """A connection (SQLite) or a pool (PostgreSQL) that hands out transactions."""

    dialect: Dialect

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(
        self, readonly: bool = False, lane: Lane = Lane.COMMANDS, single: bool = False
    ) -> AbstractAsyncContextManager[Tx]:
        """Commit on a normal exit, roll back on an exception (or a killed process).
        ``single``: the block runs one write statement, atomic by itself, so a back end
        with round trips may skip BEGIN and COMMIT (PostgreSQL's autocommit)."""

    @abstractmethod
    async def migrate(self) -> int:
        """Bring the schema to the newest version; returns that version."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """Call ``callback(payload)`` for each notification committed on ``channel`` by any
        process; False where there are no other processes to hear (SQLite)."""
        return False
