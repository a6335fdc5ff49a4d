"""A small memo of results computed from immutable values, keyed by the values' identity.

A chat table asks the same questions of one state several times in a row (its legal
plays for the AI's turn, again for the player's keyboard and play menu, its public view
for every seat), and a hand state is immutable: the answer cannot change. Hashing a state
costs more than the answer, so the key is the object's identity; each entry holds the
object, so its id cannot be reused by another object while the entry lives. Small and
cleared when full: only the last few states are asked about. Safe across threads (one
dict operation each under the GIL; a miss only computes the answer again).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """Values remembered per (object identity, extra key)."""

    __slots__ = ("_entries", "_size")

    def __init__(self, size: int = 32) -> None:
        self._size = size
        self._entries: dict[tuple[int, Hashable], tuple[object, V]] = {}

    def get(self, obj: object, key: Hashable = None) -> V | None:
        hit = self._entries.get((id(obj), key))
        return hit[1] if hit is not None and hit[0] is obj else None

    def put(self, obj: object, key: Hashable, value: V) -> V:
        if len(self._entries) >= self._size:
            self._entries.clear()
        self._entries[(id(obj), key)] = (obj, value)
        return value

    def clear(self) -> None:
        self._entries.clear()
