"""When the Discord adapter writes: one budget per channel, coalesced edits, injectable time.

Discord limits how fast a bot writes to one channel (creating messages: 5 per 5 seconds
per channel; a 429 makes discord.py sleep inside the call, holding up everything queued
behind it). So everything the bot writes to a channel — table edits, 报户 answers,
results, turn pings and their deletions — goes through that channel's ``ChannelWriter``,
which spends from one ``RateBudget`` (adapters/budget.py) of ``CHANNEL_LIMIT`` calls in any
rolling ``CHANNEL_WINDOW`` seconds:

* posts (answers, results, pings, deletions) go first, in order, and may use the whole
  budget;
* the table message is one coalesced edit: it runs at most once per ``edit_interval``,
  always renders the latest state, and leaves ``EDIT_RESERVE`` calls of the window to posts.

Answers to interactions (buttons, slash commands, ephemeral views) and DMs are not
channel writes and are not counted here.

Every wait goes through a ``Timing`` (``now`` and ``sleep``): production uses the event
loop's monotonic time; tests pass a fake whose ``sleep`` moves a fake clock, so the budget
is kept in fake time and no test waits for real seconds.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

from ..budget import RateBudget

log = logging.getLogger(__name__)

CHANNEL_LIMIT = 5  # writes per channel in any rolling window (Discord: 5 messages / 5 s)
CHANNEL_WINDOW = 5.0
EDIT_RESERVE = 1  # calls of each window the table edits leave to posts

# A job makes some Discord calls and says how many (each one spends from the budget).
Job = Callable[[], Awaitable[int]]


class Timing(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class LoopTiming:
    """Real time: monotonic seconds and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def channel_budget(timing: Timing) -> RateBudget:
    return RateBudget(CHANNEL_LIMIT, CHANNEL_WINDOW, timing)


class ChannelWriter:
    """Posts in order and one coalesced edit for one channel, within its budget."""

    def __init__(
        self,
        channel: Hashable,
        budget: RateBudget,
        timing: Timing,
        edit_interval: float,
        on_idle: Callable[[], None] | None = None,
    ) -> None:
        self.channel = channel
        self.budget = budget
        self.timing = timing
        self.edit_interval = edit_interval
        self.on_idle = on_idle
        self._posts: deque[Job] = deque()
        self._edit: Job | None = None
        self._dirty = False
        self._last_edit = -math.inf
        self.task: asyncio.Task[None] | None = None

    def post(self, job: Job) -> None:
        self._posts.append(job)
        self._kick()

    def touch(self, job: Job) -> None:
        """Mark the coalesced edit as due; ``job`` renders whatever is latest when it runs."""
        self._edit = job
        self._dirty = True
        self._kick()

    def busy(self) -> bool:
        return bool(self._posts) or self._dirty

    def _kick(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def _next(self) -> Job | None:
        if self._posts and self.budget.allows(self.channel):
            return self._posts.popleft()
        due = self._last_edit + self.edit_interval <= self.timing.now()
        if self._dirty and due and self.budget.allows(self.channel, EDIT_RESERVE):
            self._dirty = False
            self._last_edit = self.timing.now()
            return self._edit
        return None

    def _wake_at(self) -> float:
        times = []
        if self._posts:
            times.append(self.budget.free_at(self.channel))
        if self._dirty:
            edit_at = self._last_edit + self.edit_interval
            times.append(max(edit_at, self.budget.free_at(self.channel, EDIT_RESERVE)))
        return min(times)

    async def _run(self) -> None:
        while self.busy():
            job = self._next()
            if job is None:
                await self.timing.sleep(max(0.0, self._wake_at() - self.timing.now()))
                continue
            try:
                made = await job()
            except Exception:
                log.exception("discord channel write failed")
                made = 1  # it may have reached Discord's counter
            for _ in range(made):
                await self.budget.spend(self.channel)
        if self.on_idle is not None:
            self.on_idle()


class Coalescer:
    """Runs ``job`` soon after a poke, at most once per ``interval`` (private views).

    A poke while a run waits or works causes one more run, so the last run always sees
    the state after the last poke.
    """

    def __init__(self, job: Callable[[], Awaitable[None]], interval: float, timing: Timing):
        self._job = job
        self.interval = interval
        self.timing = timing
        self._dirty = False
        self._last = -math.inf
        self.task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        self._dirty = True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._dirty:
            wait = self._last + self.interval - self.timing.now()
            if wait > 0:
                await self.timing.sleep(wait)
            self._dirty = False
            try:
                await self._job()
            except Exception:
                log.exception("discord update failed")
            self._last = self.timing.now()
