"""The store suite runs against both back ends: SQLite in a temporary file, PostgreSQL in a
throwaway server started here (skipped only when no server binary exists, and never
when GOUJI_REQUIRE_PG=1, as in CI)."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.store import Store

from .pgserver import REQUIRE_ENV, PgServer, find_bindir, throwaway_server

_db_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    if find_bindir() is None:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but no PostgreSQL server binary was found")
        pytest.skip("no PostgreSQL server binary (initdb, pg_ctl) on this machine")
    with throwaway_server() as server:
        yield server


async def new_pg_database(server: PgServer) -> str:
    """A fresh, empty database on the throwaway server; returns its URL."""
    name = f"t{os.getpid()}_{next(_db_names)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return server.url(name)


@pytest.fixture(params=["sqlite", "postgres"])
async def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a fresh, empty store lives: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    server: PgServer = request.getfixturevalue("pg_server")
    return await new_pg_database(server)


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:
    s = Store(store_target)
    await s.open()
    try:
        yield s
    finally:
        await s.close()
