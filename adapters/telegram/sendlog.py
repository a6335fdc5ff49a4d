"""The group budget's memory: recent call times kept in the table's adapter meta.

Every live table of a chat (a group has one; a forum has one per topic, all sharing the
group's budget) carries the chat's recent call times, so whichever tables survive a
restart bring the window back — and on a cluster's worker, so do tables that ended
lately (``TableManager.memory_keys``: a match's last messages go out after the commit
that ended it, perhaps by a worker that has just taken the chat over), and a chat
with no table at all keeps them under its own key (``bot.cluster.values``).
A single process with no live table in a chat at its restart has nothing to recall; its
budget there then starts empty (see docs/telegram.md).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Hashable, Sequence

from bot.table import ChatRef, TableManager

from ..frontends import TELEGRAM

SENT = "tg_sent"
EDITS = "tg_edits"  # which of them were edits (the Sender paces edits by the others)


class TableMetaMemory:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    def _keys(self, chat: Hashable) -> list[str]:
        return self.manager.memory_keys(ChatRef(TELEGRAM.platform, str(chat), None).key)

    def load(self, chat: Hashable) -> Sequence[float]:
        return self._merged(chat, SENT)

    def load_edits(self, chat: Hashable) -> Sequence[float]:
        return self._merged(chat, EDITS)

    def _merged(self, chat: Hashable, name: str) -> list[float]:
        # Each table of the chat holds the whole list (possibly an older copy): merge
        # them as multisets, so calls made at the same instant all count.
        merged: Counter[float] = Counter()
        for key in self._keys(chat):
            stored = self.manager.remembered(key).get(name)
            if isinstance(stored, list):
                merged |= Counter(float(x) for x in stored if isinstance(x, int | float))
        return sorted(merged.elements())

    async def save(self, chat: Hashable, times: Sequence[float], edits: Sequence[float]) -> None:
        for key in self._keys(chat):
            # Together: one batch of the cluster's bookkeeping (``MetaWriter``), not two.
            await asyncio.gather(
                self.manager.set_meta(key, SENT, list(times)),
                self.manager.set_meta(key, EDITS, list(edits)),
            )
