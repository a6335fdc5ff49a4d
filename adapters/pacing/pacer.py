"""Many chats' lanes, pumped by one loop: a front end's whole output.

A ``Pacer`` holds one ``Lane`` (adapters/pacing/lane.py) per chat it writes to, all on
one platform's ``Rules``. Time comes from the rules' injected clock: production wakes
itself with ``start()``; tests move a fake clock and call ``pump()``. A pump drains only
the lanes whose next work is due (chats are independent: one slow upload must not hold
up every other chat), and lanes with nothing left to do or remember are let go, so
per-chat state does not grow with every chat ever written to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Hashable

from .budget import RateBudget
from .lane import Job, Lane, Rules

log = logging.getLogger(__name__)

EVICT_EVERY = 1.0  # seconds between two passes over every lane for idle ones


def _always(chat: Hashable) -> bool:
    return True


class Pacer:
    def __init__(
        self,
        rules: Rules,
        limited: Callable[[Hashable], bool] = _always,
        name: str = "pacer",
    ) -> None:
        self.rules = rules
        self.limited = limited  # which chats the budget holds (all, by default)
        self.name = name
        self._lanes: dict[Hashable, Lane] = {}
        # When each lane may next have work (clock time; -inf: now). A pump drains only
        # these, so hundreds of groups kept for their budget's window cost it nothing.
        self._due: dict[Hashable, float] = {}
        self._evicted_at = -math.inf
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def budget(self) -> RateBudget:
        return self.rules.budget

    @property
    def reserve(self) -> int:
        return self.rules.limits.reserve

    def lane(self, chat: Hashable) -> Lane:
        lane = self._lanes.get(chat)
        if lane is None:
            lane = self._lanes[chat] = Lane(chat, self.rules, self.limited(chat))
        return lane

    # -- producers ----------------------------------------------------------------------
    def post(
        self, chat: Hashable, job: Job, urgent: bool = False, expendable: bool = False
    ) -> None:
        """A message to send in order (see ``Lane.post``)."""
        self.lane(chat).post(job, urgent, expendable)
        self._kick(chat)

    def touch(self, chat: Hashable, slot: Hashable, job: Job, interval: float) -> None:
        """Mark a coalesced edit as due (see ``Lane.touch``)."""
        self.lane(chat).touch(slot, job, interval)
        self._kick(chat)

    def _kick(self, chat: Hashable) -> None:
        self._due[chat] = -math.inf
        self.notify()

    def pending(self) -> bool:
        return any(lane.busy() for lane in self._lanes.values())

    def lanes(self) -> int:
        """Chats with state in memory (for tests of the eviction)."""
        return len(self._lanes)

    # -- the pump -----------------------------------------------------------------------
    async def pump(self) -> float | None:
        """Run every job allowed now; return seconds until more work is allowed (None: idle)."""
        clock = self.rules.clock
        now = clock.now()
        ready = [self._lanes[c] for c, at in list(self._due.items()) if at <= now]
        await asyncio.gather(*(self._drain(lane) for lane in ready))
        now = clock.now()
        for lane in ready:
            at = lane.wake_at(now)
            if at is None:
                self._due.pop(lane.chat, None)
            else:
                self._due[lane.chat] = at
        if now - self._evicted_at >= EVICT_EVERY:
            self._evicted_at = now
            self._evict(now)
        return self._next_delay()

    async def _drain(self, lane: Lane) -> None:
        await lane.drain()

    def _evict(self, now: float) -> None:
        for chat, lane in list(self._lanes.items()):
            if lane.idle(now):
                del self._lanes[chat]
                self._due.pop(chat, None)
                self.budget.forget(chat)

    def _next_delay(self) -> float | None:
        if not self._due:
            return None
        return max(0.0, min(self._due.values()) - self.rules.clock.now())

    # -- production loop -------------------------------------------------------------------
    def notify(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.pump()
            except Exception:  # the loop must outlive any one bad job
                log.exception("%s pump failed", self.name)
                delay = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
