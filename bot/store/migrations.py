"""Versioned schema for both back ends: entry N upgrades a database from version N to N+1.

SQLite keeps its version in ``PRAGMA user_version``; PostgreSQL in ``schema_migrations``.
The two lists move in step (same version numbers, same tables and columns), so the store's
queries are one text for both. JSON values are stored as text in both.
"""

from __future__ import annotations

SQLITE: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE group_settings (
        group_key TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE tables (
        table_key TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        live INTEGER NOT NULL DEFAULT 1,
        updated REAL NOT NULL DEFAULT 0
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
        id INTEGER PRIMARY KEY AUTOINCREMENT,
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
        due REAL NOT NULL
    );
    CREATE INDEX deadlines_due ON deadlines (due);
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_key TEXT NOT NULL,
        msg_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created REAL NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent REAL,
        result TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (chat_key, id) WHERE state <> 'sent';
    CREATE INDEX outbox_sent ON outbox (chat_key, sent);
    CREATE TABLE chat_leases (
        chat_key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until REAL NOT NULL
    );
    """,
)

POSTGRES: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE group_settings (
        group_key TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE tables (
        table_key TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        live BOOLEAN NOT NULL DEFAULT TRUE,
        updated DOUBLE PRECISION NOT NULL DEFAULT 0
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
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
    # 2: several workers (as SQLite's version 2)
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE deadlines (
        table_key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        due DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX deadlines_due ON deadlines (due);
    CREATE TABLE outbox (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        chat_key TEXT NOT NULL,
        msg_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent DOUBLE PRECISION,
        result TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (chat_key, id) WHERE state <> 'sent';
    CREATE INDEX outbox_sent ON outbox (chat_key, sent);
    CREATE TABLE chat_leases (
        chat_key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL
    );
    """,
)

assert len(SQLITE) == len(POSTGRES), "the back ends' schemas move in step"
