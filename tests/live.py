"""The table at a key as it is *now*: the manager replaces a table on every step (the core
is pure), so a test that holds on to one reads through this instead."""

from __future__ import annotations

from typing import Any

from bot.table import TableManager


class Live:
    def __init__(self, manager: TableManager, key: str) -> None:
        self._manager = manager
        self._key = key

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager.tables[self._key], name)


def live(manager: TableManager, key: str) -> Any:
    return Live(manager, key)
