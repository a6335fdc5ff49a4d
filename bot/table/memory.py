"""The tables a process holds: each table, its adapters' values, when it was last
touched, who sits where, and one lock per table.

Owned by the repository (``bot.table.local``, ``bot.cluster.shell``) and read by the
manager: both change it only through these methods."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from .outputs import Json
from .record import Table

# Told a table's key and the table as it leaves memory, before anything is dropped.
Forgetting = Callable[[str, Table | None], None]


class TableMemory:
    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._tables: dict[str, Table] = {}
        self._meta: dict[str, dict[str, Json]] = {}
        self._touched: dict[str, float] = {}
        self._by_user: dict[str, set[str]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._forgetting: list[Forgetting] = []

    @property
    def tables(self) -> Mapping[str, Table]:
        return self._tables

    def get(self, key: str) -> Table | None:
        return self._tables.get(key)

    def keep(self, key: str, before: Table | None, t: Table) -> None:
        """Hold ``t`` as the table at ``key`` (it replaces ``before``)."""
        self._tables[key] = t
        self._touched[key] = self._now()
        self._index(key, before, t)

    def on_forget(self, listener: Forgetting) -> None:
        self._forgetting.append(listener)

    def forget(self, key: str) -> None:
        """Drop a table from memory (a durable repository reads it again on demand)."""
        t = self._tables.get(key)
        for listener in self._forgetting:
            listener(key, t)
        self._tables.pop(key, None)
        self._meta.pop(key, None)
        self._touched.pop(key, None)
        self.drop_lock(key)
        if t is not None:
            self._index(key, t, None)

    def touched(self) -> list[tuple[str, float]]:
        return list(self._touched.items())

    # -- adapters' values -------------------------------------------------------------
    def meta(self, key: str) -> dict[str, Json]:
        """The adapters' values kept with a table (the live dict, to change)."""
        return self._meta.setdefault(key, {})

    def meta_view(self, key: str) -> Mapping[str, Json]:
        return self._meta.get(key, {})

    def set_meta_all(self, key: str, values: Mapping[str, Json]) -> None:
        self._meta[key] = dict(values)

    def drop_meta(self, key: str) -> None:
        self._meta.pop(key, None)

    # -- who sits where ---------------------------------------------------------------
    def tables_of(self, user_id: str) -> list[str]:
        return sorted(self._by_user.get(user_id, ()))

    def _index(self, key: str, old: Table | None, new: Table | None) -> None:
        before = _users(old)
        after = _users(new)
        for user in before - after:
            keys = self._by_user.get(user)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_user[user]
        for user in after - before:
            self._by_user.setdefault(user, set()).add(key)

    # -- locks ------------------------------------------------------------------------
    def lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def locked(self, key: str) -> bool:
        lock = self._locks.get(key)
        return lock is not None and lock.locked()

    def drop_lock(self, key: str) -> None:
        """Locks exist only while a table is in memory or someone waits for one."""
        lock = self._locks.get(key)
        if lock is not None and not lock.locked() and not getattr(lock, "_waiters", None):
            del self._locks[key]

    def has_lock(self, key: str) -> bool:
        return key in self._locks

    def empty(self) -> bool:
        """Nothing held at all: no table, lock, timestamp or seat index left behind."""
        return not (self._tables or self._locks or self._touched or self._by_user or self._meta)


def _users(t: Table | None) -> set[str]:
    return set() if t is None else {s.user_id for s in t.seats if s and s.user_id}
