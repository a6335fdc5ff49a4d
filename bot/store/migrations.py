"""Versioned schema: each entry upgrades the database by one version (PRAGMA user_version)."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
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
)
