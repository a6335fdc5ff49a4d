"""A pacing lane's memory kept in the tables' adapter meta (``TableManager.set_meta``).

Every table of a chat (a Telegram group has one; a forum has one per topic, all sharing
the group's budget; a Discord channel has one) carries the chat's recent call times,
which of them were edits, and the end of a 429 pause, so whichever tables survive a
restart bring the window and the pause back — and on a cluster's worker, so do tables
that ended lately (``memory_keys``: a match's last messages go out after the commit that
ended it, perhaps by a worker that has just taken the chat over), and a chat with no
table at all keeps them under its own key (``bot.cluster.values``). A single process
with no live table in a chat at its restart has nothing to recall; its budget there
then starts empty.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from bot.table import TableManager


@dataclass(frozen=True)
class MetaNames:
    """The meta values a platform keeps its lanes' memory under."""

    sent: str  # wall-clock times of the calls in the window
    edits: str  # which of them were edits (the lane paces its edits by the others)
    pause: str  # the wall-clock end of the last 429 pause


class MetaMemory:
    """``BudgetMemory`` and ``PauseMemory`` for the chats whose tables' keys start with
    ``prefix_of(chat)``."""

    def __init__(
        self, manager: TableManager, prefix_of: Callable[[Hashable], str], names: MetaNames
    ) -> None:
        self.manager = manager
        self.prefix_of = prefix_of
        self.names = names

    def _keys(self, chat: Hashable) -> list[str]:
        return self.manager.memory_keys(self.prefix_of(chat))

    def load(self, chat: Hashable) -> Sequence[float]:
        return self._merged(chat, self.names.sent)

    def load_edits(self, chat: Hashable) -> Sequence[float]:
        return self._merged(chat, self.names.edits)

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
                self.manager.set_meta(key, self.names.sent, list(times)),
                self.manager.set_meta(key, self.names.edits, list(edits)),
            )

    def load_pause(self, chat: Hashable) -> float:
        ends = [self.manager.remembered(key).get(self.names.pause) for key in self._keys(chat)]
        return max((float(x) for x in ends if isinstance(x, int | float)), default=0.0)

    async def save_pause(self, chat: Hashable, until: float) -> None:
        for key in self._keys(chat):
            await self.manager.set_meta(key, self.names.pause, until)
