"""Persistence: SQLite (aiosqlite) by default, PostgreSQL (asyncpg) for several workers —
group settings, live tables, finished hands, stats, deadlines and the outbox."""

from .db import (
    DATABASE_URL_ENV,
    ActionsSince,
    Batch,
    Deadline,
    HandWrite,
    OutboxMessage,
    PlayerStats,
    Seen,
    Store,
    StoredTable,
    StoreTx,
    TableWrite,
    default_db_path,
    default_store_target,
    is_postgres_url,
    outbox_key,
)
from .leases import LeasePrefixError, grouped_prefixes, lease_key, share_group_budget

__all__ = [
    "DATABASE_URL_ENV",
    "ActionsSince",
    "Batch",
    "Deadline",
    "HandWrite",
    "LeasePrefixError",
    "OutboxMessage",
    "PlayerStats",
    "Seen",
    "Store",
    "StoreTx",
    "StoredTable",
    "TableWrite",
    "default_db_path",
    "default_store_target",
    "grouped_prefixes",
    "is_postgres_url",
    "lease_key",
    "outbox_key",
    "share_group_budget",
]
