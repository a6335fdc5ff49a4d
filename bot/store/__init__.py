"""SQLite persistence (aiosqlite): group settings, live tables, finished hands, stats."""

from .db import Store, default_db_path

__all__ = ["Store", "default_db_path"]
