"""A per-chat rate budget: at most ``limit`` calls in any rolling ``window`` seconds.

Chat platforms limit how often a bot may write to one chat (Telegram: about 20 messages a
minute in a group; Discord: 5 messages per 5 seconds in a channel). Going over earns a
429 and, on Telegram, a mute that freezes the table for everyone. So every writer to a
chat spends from one ``RateBudget``:

* a call is counted when it has actually been made (after rendering and the HTTP round
  trip), never when its job was queued or started;
* ``reserve`` lets a caller keep the last few calls of the window for more urgent
  messages (a 报户 answer must not wait behind table edits);
* the recent call times go to a ``BudgetMemory`` after each call and come back from it
  the first time a chat is used, so a restarted process does not start with an empty
  window — with which of them were edits (a caller paces its edits by the other calls:
  adapters/telegram/sender.py), so that survives a restart or another process sending
  too. The memory is pluggable and knows nothing of the budget's rules: today it is the
  table's adapter meta, later it can be a row next to an outbox.

Times inside the budget come from the injected clock (monotonic, or fake in tests);
the memory stores wall-clock seconds, which survive a restart.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple, Protocol

from bot.table import Clock

SWEEP_AT = 1024  # chats held before the first sweep of empty windows


class BudgetMemory(Protocol):
    """Where a chat's recent call times (wall-clock seconds) outlive the process: every
    call's, and the edits' among them."""

    def load(self, chat: Hashable) -> Sequence[float]: ...

    def load_edits(self, chat: Hashable) -> Sequence[float]: ...

    async def save(
        self, chat: Hashable, times: Sequence[float], edits: Sequence[float]
    ) -> None: ...


class NoMemory:
    """A budget that forgets on restart (private chats, tests of the budget itself)."""

    def load(self, chat: Hashable) -> Sequence[float]:
        return ()

    def load_edits(self, chat: Hashable) -> Sequence[float]:
        return ()

    async def save(self, chat: Hashable, times: Sequence[float], edits: Sequence[float]) -> None:
        return None


class _Call(NamedTuple):
    at: float  # clock time (monotonic in production)
    wall: float  # wall-clock seconds, rounded: what the memory stores, the same every time
    edit: bool = False  # an edit of a message already there (a coalesced table edit)


class RateBudget:
    def __init__(
        self,
        limit: int,
        window: float,
        clock: Clock,
        memory: BudgetMemory | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a budget needs a positive limit and window")
        self.limit = limit
        self.window = window
        self.clock = clock
        self.memory: BudgetMemory = memory or NoMemory()
        self.wall = wall
        self._sent: dict[Hashable, deque[_Call]] = {}
        self._sweep_at = SWEEP_AT

    def _times(self, chat: Hashable) -> deque[_Call]:
        sent = self._sent.get(chat)
        if sent is None:
            # First use in this process: what the previous one spent still counts.
            recalled = self._recalled(chat)
            now = self.clock.now()
            sent = self._sent[chat] = deque(c for c in recalled if c.at > now - self.window)
        cutoff = self.clock.now() - self.window
        while sent and sent[0].at <= cutoff:
            sent.popleft()
        return sent

    def _recalled(self, chat: Hashable) -> list[_Call]:
        """The calls the memory holds for ``chat``, on this budget's clock, each an edit
        if its time is among the stored edits' (matched as multisets)."""
        now, wall = self.clock.now(), self.wall()
        edits = Counter(self.memory.load_edits(chat))
        calls = []
        for w in sorted(self.memory.load(chat)):
            edit = edits[w] > 0
            edits[w] -= edit
            calls.append(_Call(now - (wall - w), w, edit))
        return calls

    def recall(self, chat: Hashable) -> None:
        """Forget what this process counted for ``chat`` and reload the window from the
        memory now (another process may have sent there since: bot.cluster). Now, not
        at the next use: the memory is read right after it was brought up to date, and
        a later reload of a table could put an older copy of it back meanwhile."""
        self._sent.pop(chat, None)
        self._times(chat)

    def recent(self, chat: Hashable) -> list[float]:
        """The times of the calls still inside the window, oldest first."""
        return [call.at for call in self._times(chat)]

    def used(self, chat: Hashable) -> int:
        """Calls made in the last ``window`` seconds."""
        return len(self._times(chat))

    def edits(self, chat: Hashable) -> int:
        """Edits among the calls made in the last ``window`` seconds (whoever made them)."""
        return sum(call.edit for call in self._times(chat))

    def last_edit(self, chat: Hashable) -> float:
        """The clock time of the last edit in the window (-inf: none)."""
        return max((call.at for call in self._times(chat) if call.edit), default=-math.inf)

    def allows(self, chat: Hashable, reserve: int = 0) -> bool:
        """Whether one more call now leaves ``reserve`` calls of the window unspent."""
        return self.used(chat) + reserve < self.limit

    def free_at(self, chat: Hashable, reserve: int = 0) -> float:
        """The earliest clock time at which ``allows(chat, reserve)`` holds."""
        sent = self._times(chat)
        over = len(sent) + reserve - self.limit  # calls that must leave the window first
        if over < 0:
            return self.clock.now()
        if over >= len(sent):
            return float("inf")  # the reserve alone fills the budget
        return sent[over].at + self.window

    def forget(self, chat: Hashable) -> None:
        """Drop a chat whose window is empty (nothing is lost: its memory has the same)."""
        sent = self._sent.get(chat)
        if sent is not None and not self._times(chat):
            del self._sent[chat]

    def _sweep(self) -> None:
        """Forget every chat whose window is empty, once the table of chats has doubled:
        the budget holds the chats active in the last window, not every chat ever seen."""
        if len(self._sent) < self._sweep_at:
            return
        for chat in list(self._sent):
            self.forget(chat)
        self._sweep_at = max(SWEEP_AT, 2 * len(self._sent))

    async def spend(self, chat: Hashable, edit: bool = False) -> None:
        """Count a call that has just been made (``edit``: an edit), and remember it."""
        self._sweep()
        sent = self._times(chat)
        # Each call keeps the wall time it was stored with: converted again at every save,
        # the same call came out a millisecond apart now and then, and the copies a forum's
        # tables hold (merged as multisets) then counted it twice.
        sent.append(_Call(self.clock.now(), round(self.wall(), 3), edit))
        await self.memory.save(chat, [c.wall for c in sent], [c.wall for c in sent if c.edit])
