"""PostgreSQL through asyncpg pools: the store for several worker processes."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .backend import Backend, Dialect, Lane, Row, Tx
from .migrations import POSTGRES

# Connections per worker and lane: commands, and the bookkeeping that must never take
# theirs (the outbox relay, adapters' values). With the listener, 29 a worker.
POOL_SIZES = {Lane.COMMANDS: 16, Lane.BACKGROUND: 10, Lane.RECEIPTS: 3}
# Any constant shared by all workers: only one of them migrates at a time.
MIGRATION_LOCK = 0x6F756A69
_PLACEHOLDER = re.compile(r"\?")
_translated: dict[str, str] = {}


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (the store's SQL has no ``?`` in
    string literals)."""
    out = _translated.get(sql)
    if out is None:
        counter = iter(range(1, 1000))
        out = _translated[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return out


class PostgresTx(Tx):
    dialect = Dialect.POSTGRES

    def __init__(self, conn: PoolConnectionProxy[asyncpg.Record]) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(numbered(sql), *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [tuple(r) for r in await self.conn.fetch(numbered(sql), *args)]

    async def lock_key(self, key: str, wait: bool = True) -> bool:
        # A transaction-level advisory lock: it needs no row (a table not yet created is
        # locked too) and the server releases it at commit, rollback or a lost connection.
        if wait:
            await self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)
            return True
        return bool(
            await self.conn.fetchval(
                "SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))", key
            )
        )


async def _keep_session(conn: asyncpg.Connection[Any]) -> None:
    """Nothing to reset when a connection goes back to the pool: the store sets no session
    state (no SET, no LISTEN — listening has a connection of its own —, no session-level
    locks, no cursors), and asyncpg still rolls back a transaction left open. The default
    reset would cost every transaction one more round trip."""


class PostgresBackend(Backend):
    dialect = Dialect.POSTGRES

    def __init__(self, dsn: str, sizes: dict[Lane, int] | None = None) -> None:
        self.dsn = dsn
        self.sizes = dict(sizes or POOL_SIZES)
        self._pools: dict[Lane, asyncpg.Pool] = {}
        self._listener: asyncpg.Connection | None = None

    async def open(self) -> None:
        for lane in Lane:
            self._pools[lane] = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.sizes[lane], reset=_keep_session
            )

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        # LISTEN needs a connection of its own, kept open (a pooled one goes back).
        if self._listener is None:
            self._listener = await asyncpg.connect(self.dsn)

        def heard(
            conn: asyncpg.Connection[Any] | PoolConnectionProxy[Any],
            pid: int,
            chan: str,
            payload: object,
        ) -> None:
            callback(str(payload))

        await self._listener.add_listener(channel, heard)
        return True

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        pools, self._pools = self._pools, {}
        for pool in pools.values():
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        return self.pool_of(Lane.COMMANDS)

    def pool_of(self, lane: Lane) -> asyncpg.Pool:
        pool = self._pools.get(lane)
        if pool is None:
            raise RuntimeError("store is not open")
        return pool

    @asynccontextmanager
    async def transaction(
        self, readonly: bool = False, lane: Lane = Lane.COMMANDS, single: bool = False
    ) -> AsyncIterator[Tx]:
        async with self.pool_of(lane).acquire() as conn:
            if readonly or single:
                # One statement commits by itself: BEGIN and COMMIT would be two more
                # round trips (and two more waits for a busy event loop) for nothing.
                yield PostgresTx(conn)
                return
            # A process killed inside this block never commits: the server rolls the
            # transaction back when the connection drops.
            async with conn.transaction():
                yield PostgresTx(conn)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
            if not exists:
                return 0
            return int(
                await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")
            )

    async def migrate(self) -> int:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            version = int(
                await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")
            )
            for target in range(version, len(POSTGRES)):
                await conn.execute(POSTGRES[target])
                await conn.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)", target + 1
                )
        return len(POSTGRES)
