"""Many chats' lanes, pumped by one loop: a front end's whole output.

A ``Pacer`` holds one ``Lane`` (adapters/pacing/lane.py) per chat it writes to, all on
one platform's ``Rules``. Time comes from the rules' injected clock: production wakes
itself with ``start()``; tests move a fake clock and call ``pump()``. Only the lanes
whose next work is due are drained, and lanes with nothing left to do or remember are let
go, so per-chat state does not grow with every chat ever written to.

Chats are independent: one slow upload must not hold up every other chat. The production
loop drains each due lane in a task of its own and goes on at once, so a lane that falls
due while another is still uploading a picture (a player's keyboard while the group's
result picture goes out) starts then, not when that upload ends. ``pump()`` drains the
due lanes together and returns when all are done, which is what a test stepping a fake
clock wants.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
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
        # The production loop's lanes being drained, each in its own task.
        self._draining: dict[Hashable, asyncio.Task[None]] = {}

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
        ready = self._ready(clock.now())
        await asyncio.gather(*(self._drain(lane) for lane in ready))
        now = clock.now()
        for lane in ready:
            self._rearm(lane, now)
        self._maybe_evict(now)
        return self._next_delay()

    def _ready(self, now: float) -> list[Lane]:
        """The lanes whose next work is due and that no task is draining yet."""
        return [
            self._lanes[c]
            for c, at in list(self._due.items())
            if at <= now and c not in self._draining
        ]

    def _rearm(self, lane: Lane, now: float) -> None:
        """After a drain: when the lane may next have work (a post that came meanwhile
        makes it due at once)."""
        at = lane.wake_at(now)
        if at is None:
            self._due.pop(lane.chat, None)
        else:
            self._due[lane.chat] = at

    async def _drain(self, lane: Lane) -> None:
        await lane.drain()

    def _maybe_evict(self, now: float) -> None:
        if now - self._evicted_at >= EVICT_EVERY:
            self._evicted_at = now
            self._evict(now)

    def _evict(self, now: float) -> None:
        for chat, lane in list(self._lanes.items()):
            if chat not in self._draining and lane.idle(now):
                del self._lanes[chat]
                self._due.pop(chat, None)
                self.budget.forget(chat)

    def _next_delay(self) -> float | None:
        waiting = [at for c, at in self._due.items() if c not in self._draining]
        if not waiting:
            return None
        return max(0.0, min(waiting) - self.rules.clock.now())

    # -- production loop -------------------------------------------------------------------
    def notify(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        drains, self._draining = list(self._draining.values()), {}
        for running in [task, *drains]:
            if running is not None:
                running.cancel()
        for running in [task, *drains]:
            if running is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await running

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                self._start_drains()
                self._maybe_evict(self.rules.clock.now())
                delay = self._next_delay()
            except Exception:  # the loop must outlive any one bad job
                log.exception("%s loop failed", self.name)
                delay = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    def _start_drains(self) -> None:
        for lane in self._ready(self.rules.clock.now()):
            task = asyncio.create_task(self._drain(lane), name=f"{self.name}:{lane.chat}")
            self._draining[lane.chat] = task
            task.add_done_callback(functools.partial(self._drained, lane))

    def _drained(self, lane: Lane, task: asyncio.Task[None]) -> None:
        if self._draining.get(lane.chat) is not task:
            return  # stopped meanwhile
        del self._draining[lane.chat]
        if task.cancelled():
            return
        now = self.rules.clock.now()
        failed = task.exception()
        if failed is not None:  # one chat's bad job must not stop its lane, nor spin it
            log.error("%s: a lane's drain failed", self.name, exc_info=failed)
            self._due[lane.chat] = now + 1.0
        else:
            self._rearm(lane, now)
        self.notify()
