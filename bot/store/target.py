"""Where the store lives: a SQLite file (the default) or a PostgreSQL URL, from the
environment."""

from __future__ import annotations

import os

DB_ENV = "GOUJI_DB"
DATABASE_URL_ENV = "GOUJI_DATABASE_URL"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def default_db_path() -> str:
    """``$GOUJI_DB`` or ``gouji.sqlite3`` in the working directory."""
    return os.environ.get(DB_ENV, "gouji.sqlite3")


def default_store_target() -> str:
    """``$GOUJI_DATABASE_URL`` (PostgreSQL) if set, else the SQLite file."""
    return os.environ.get(DATABASE_URL_ENV) or default_db_path()


def is_postgres_url(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)
