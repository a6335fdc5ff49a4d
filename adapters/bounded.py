"""Bounded per-chat and per-user memory for the chat adapters.

An adapter keeps small facts per chat or per user (who can get a private message, which
warning was already given, a group's title). None of them may grow for the life of the
process: each is a ``BoundedDict`` (bot/table/cache.py) or a ``BoundedSet`` here, which
forget the least recently used entry first. Forgetting one only costs a repeated check
or message, never a wrong move.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

from bot.table.cache import BoundedDict

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

USERS = 20_000  # per-user facts kept (a few bytes each)
CHATS = 5_000  # per-chat or per-table facts kept


class BoundedSet(Generic[K]):
    """A set that keeps only its ``limit`` most recently added or checked members."""

    def __init__(self, limit: int) -> None:
        self._items: BoundedDict[K, bool] = BoundedDict(limit)

    def add(self, item: K) -> None:
        self._items[item] = True

    def discard(self, item: K) -> None:
        self._items.pop(item)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)


class BoundedMap(BoundedDict[K, V]):
    """A ``BoundedDict`` whose values can be listed (without refreshing their use)."""

    def values(self) -> list[V]:
        return list(self._items.values())
