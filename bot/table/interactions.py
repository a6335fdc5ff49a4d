"""The state behind interactive messages: which hand and frame a replay stepper shows,
which group a settings menu in an admin's private chat sets.

A button press may arrive at any worker (Telegram webhooks go to any worker; Discord
direct-message presses arrive on shard 0), so with a store this state lives there — any
worker answers it — and otherwise in bounded memory. Each entry expires: a press on an
expired or forgotten message is answered with the polite "out of date".

A stepper's position is a compare-and-set (``move``): of two presses on one view, made
at two workers at once, only the first moves it; the other is stale.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..store import Store
from .cache import BoundedDict

MEMORY_SIZE = 4096  # entries kept without a store (the oldest are forgotten first)


@dataclass(frozen=True, slots=True)
class Kept:
    value: dict[str, Any]
    step: int


@dataclass
class _Entry:
    kind: str
    value: dict[str, Any]
    step: int
    expires: float


class Interactions:
    def __init__(
        self,
        store: Store | None,
        wall: Callable[[], float] = time.time,
        size: int = MEMORY_SIZE,
    ) -> None:
        self.store = store
        self.wall = wall  # wall seconds: expiry times outlive the process in the store
        self._memory: BoundedDict[str, _Entry] = BoundedDict(size)

    async def keep(self, key: str, kind: str, value: dict[str, Any], ttl: float) -> None:
        """Remember the state of the message ``key`` (at step 0) for ``ttl`` seconds."""
        now = self.wall()
        if self.store is None:
            self._memory[key] = _Entry(kind, dict(value), 0, now + ttl)
            return
        async with self.store.transaction() as tx:
            await tx.keep_interaction(key, kind, value, now + ttl, now)

    async def get(self, key: str, kind: str) -> Kept | None:
        """The message's state, unless unknown, of another kind, or expired."""
        now = self.wall()
        if self.store is None:
            entry = self._memory.get(key)
            if entry is None or entry.kind != kind or entry.expires < now:
                return None
            return Kept(dict(entry.value), entry.step)
        async with self.store.transaction(readonly=True) as tx:
            found = await tx.interaction(key, kind, now)
        return None if found is None else Kept(*found)

    async def move(self, key: str, shown: int, to: int) -> bool:
        """Step the message from ``shown`` to ``to``; False if it is no longer at
        ``shown`` (a press on an old view, or another press came first) or expired."""
        now = self.wall()
        if self.store is None:
            entry = self._memory.get(key)
            if entry is None or entry.step != shown or entry.expires < now:
                return False
            entry.step = to
            return True
        async with self.store.transaction() as tx:
            return await tx.move_interaction(key, shown, to, now)
