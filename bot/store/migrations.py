"""Versioned schema for both back ends: entry N upgrades a database from version N to N+1.

SQLite keeps its version in ``PRAGMA user_version``; PostgreSQL in ``schema_migrations``.
Each step is written once, with the few column types that differ as ``{placeholders}``
filled per back end, so the two lists move in step (same version numbers, same tables and
columns) and the store's queries are one text for both. JSON values are stored as text in
both. A step already applied somewhere never changes: the filled-in text of every step is
exactly what it was when the step was released (tests/store/test_store.py checks the
schema each back end ends with).
"""

from __future__ import annotations

# The types that differ between the back ends.
_SQLITE_TYPES = {
    "boolean": "INTEGER",
    "true": "1",
    "real": "REAL",
    "serial": "INTEGER PRIMARY KEY AUTOINCREMENT",
}
_POSTGRES_TYPES = {
    "boolean": "BOOLEAN",
    "true": "TRUE",
    "real": "DOUBLE PRECISION",
    "serial": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
}

_STEPS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE group_settings (
        group_key TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE tables (
        table_key TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        live {boolean} NOT NULL DEFAULT {true},
        updated {real} NOT NULL DEFAULT 0
    );
    CREATE TABLE actions (
        table_key TEXT NOT NULL,
        deal_no INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (table_key, deal_no, idx)
    );
    CREATE TABLE hands (
        id {serial},
        group_key TEXT NOT NULL,
        table_key TEXT NOT NULL,
        deal_no INTEGER NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX hands_group ON hands (group_key);
    CREATE TABLE player_stats (
        group_key TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        hands INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (group_key, user_id)
    );
    """,
    # 2: several workers — a version per table row, deadlines as rows, the outbox and
    # one sender lease per chat
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE deadlines (
        table_key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        due {real} NOT NULL
    );
    CREATE INDEX deadlines_due ON deadlines (due);
    CREATE TABLE outbox (
        id {serial},
        chat_key TEXT NOT NULL,
        msg_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created {real} NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent {real},
        result TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (chat_key, id) WHERE state <> 'sent';
    CREATE INDEX outbox_sent ON outbox (chat_key, sent);
    CREATE TABLE chat_leases (
        chat_key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until {real} NOT NULL
    );
    """,
    # 3: adapters' small values (message ids, the group budget's recent calls) beside the
    # table, one row per name: writing one takes no table lock and moves no table version
    """
    CREATE TABLE table_meta (
        table_key TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (table_key, name)
    );
    """,
    # 4: a fencing token per chat lease: one up each time the lease changes hands (or
    # lapses), so a message is marked sent only by the sender that holds it now
    """
    ALTER TABLE chat_leases ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: what any worker must be able to answer — who sits at which live table, and the
    # short-lived state of interactive messages (replay steppers, private settings menus)
    """
    CREATE TABLE table_players (
        user_id TEXT NOT NULL,
        table_key TEXT NOT NULL,
        PRIMARY KEY (user_id, table_key)
    );
    CREATE INDEX table_players_table ON table_players (table_key);
    CREATE TABLE interactions (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        step INTEGER NOT NULL DEFAULT 0,
        expires {real} NOT NULL
    );
    CREATE INDEX interactions_expires ON interactions (expires);
    """,
)

SQLITE: tuple[str, ...] = tuple(step.format(**_SQLITE_TYPES) for step in _STEPS)
POSTGRES: tuple[str, ...] = tuple(step.format(**_POSTGRES_TYPES) for step in _STEPS)
