"""Persistence: SQLite (aiosqlite) by default, PostgreSQL (asyncpg) for several workers —
group settings, live tables, finished hands, stats, deadlines and the outbox.

One module per concern: ``tables`` (settings, tables, action logs, seats), ``meta``
(adapters' values), ``interactions``, ``hands`` (finished hands and stats), ``deadlines``,
``outbox`` (with ``leases``), ``steps`` (one step as one transaction; ``StoreTx``) and
``db`` (``Store``); ``backend``, ``sqlite``, ``postgres`` and ``migrations`` run the SQL.
"""

from .db import Store
from .deadlines import Deadline
from .hands import HandWrite, PlayerStats
from .leases import LeasePrefixError, grouped_prefixes, lease_key, share_group_budget
from .outbox import Batch, OutboxMessage, outbox_key, outbox_version
from .steps import Seen, StoreTx, TableWrite
from .tables import ActionsSince, StoredTable
from .target import DATABASE_URL_ENV, default_db_path, default_store_target, is_postgres_url

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
    "outbox_version",
    "share_group_budget",
]
