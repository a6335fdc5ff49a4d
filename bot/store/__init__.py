"""SQLite persistence (aiosqlite): group settings, live tables, finished hands, stats."""

from .db import PlayerStats, Store, default_db_path

__all__ = ["PlayerStats", "Store", "default_db_path"]
