"""Short table ids for buttons and deep links.

A table key (``tg:-1001234567890:42``) is too long to share 64 bytes of callback data
with a play, and a deep-link parameter allows only [A-Za-z0-9_-]. The short id hashes
the key with the match seed: it needs no storage (so buttons survive a restart), and a
button from an earlier match at the same chat never reaches the next one.
"""

from __future__ import annotations

import base64
import hashlib
import re

from bot.table import ChatRef, Out, TableChanged, TableManager
from bot.table.cache import BoundedDict

from ..frontends import TELEGRAM

TID_RE = re.compile(r"^[a-z2-7]{8}$")


def short_id(key: str, match_seed: int) -> str:
    digest = hashlib.blake2s(f"{key}|{match_seed}".encode(), digest_size=5).digest()
    return base64.b32encode(digest).decode().lower()


class TableIds:
    """Maps short ids to the manager's table keys and back.

    The map is filled from the manager's outputs (every table that changes, including each
    table rebuilt after a restart) and keeps the most recent ``limit`` ids, so it never
    grows without bound. An id it has not seen is looked for among the live tables in
    memory, once: with several workers, a table's outputs reach only the worker that ran
    its command, and the button a player presses may reach any other (a worker started
    while the table was being played knows none of its ids)."""

    def __init__(self, manager: TableManager, limit: int = 50_000) -> None:
        self.manager = manager
        self._by_tid: BoundedDict[str, str] = BoundedDict(limit)
        manager.subscribe(self._on_out, TELEGRAM)

    async def _on_out(self, out: Out) -> None:
        if isinstance(out, TableChanged) and out.snapshot is not None:
            self._note(out.table, out.snapshot.match_id)

    def tid(self, key: str) -> str | None:
        snap = self.manager.snapshot(key)
        if snap is None or not TELEGRAM.owns(key):
            return None
        return self._note(key, snap.match_id)

    def _note(self, key: str, match_id: int) -> str:
        tid = short_id(key, match_id)
        self._by_tid[tid] = key
        return tid

    async def resolve(self, tid: str) -> str | None:
        """The key of the live table this id names, or None (unknown, or an older match).
        A table that left memory is loaded again."""
        key = self._by_tid.get(tid)
        if key is None:
            key = self._look_up(tid)
        if key is None and await self.manager.catch_up(TELEGRAM.key_prefix):
            key = self._look_up(tid)  # a match begun elsewhere, now read
        if key is None:
            return None
        await self.manager.current(ChatRef.from_key(key))
        return key if self.tid(key) == tid else None

    def _look_up(self, tid: str) -> str | None:
        """The live table in memory whose current match has this id, if any (every id
        computed on the way is kept: one pass maps every table this worker holds)."""
        found = None
        for key, seed in self.manager.match_seeds(TELEGRAM.key_prefix).items():
            candidate = short_id(key, seed)
            self._by_tid[candidate] = key
            if candidate == tid:
                found = key
        return found
