"""Every message and edit the bot makes in a chat goes through one Sender.

Telegram allows a group about 20 messages a minute; past that it answers 429 and can
mute the bot for a while. So each group has a budget (a sliding window of the calls
actually made), messages wait in a queue, and the table image is a *slot*: a job that
always renders the latest snapshot when it runs, at most once per interval, however many
changes came in between. A 429 pauses the whole chat for its ``retry_after``.

Time comes from an injected clock: production wakes itself with ``run()``; tests move a
fake clock and call ``pump()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import math
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from telegram.error import RetryAfter, TelegramError

from bot.table import Clock

log = logging.getLogger(__name__)

# A job makes at most one Bot API call and says whether it made one.
Job = Callable[[], Awaitable[bool]]


@dataclass
class _Slot:
    job: Job
    interval: float
    dirty: bool = True
    last: float = -math.inf


@dataclass
class _Lane:
    chat_id: int
    limited: bool
    sent: deque[float] = field(default_factory=deque)
    queue: deque[Job] = field(default_factory=deque)
    slots: dict[Hashable, _Slot] = field(default_factory=dict)
    blocked_until: float = -math.inf


def _retry_seconds(err: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the int/timedelta migration warning of PTB 22
        value = err.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


class Sender:
    def __init__(
        self,
        clock: Clock,
        group_limit: int = 20,
        window: float = 60.0,
        queue_cap: int = 40,
    ) -> None:
        self.clock = clock
        self.group_limit = group_limit
        self.window = window
        self.queue_cap = queue_cap
        self._lanes: dict[int, _Lane] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- producers ----------------------------------------------------------------------
    def _lane(self, chat_id: int) -> _Lane:
        lane = self._lanes.get(chat_id)
        if lane is None:
            # Groups, supergroups and channels have negative ids; private chats positive.
            lane = self._lanes[chat_id] = _Lane(chat_id, limited=chat_id < 0)
        return lane

    def post(self, chat_id: int, job: Job) -> None:
        """A message to send in order (replies, results, notices)."""
        lane = self._lane(chat_id)
        if len(lane.queue) >= self.queue_cap:
            # A flood of commands must not grow without bound; the oldest reply goes.
            lane.queue.popleft()
            log.info("chat %s: reply queue full, dropped the oldest", chat_id)
        lane.queue.append(job)
        self.notify()

    def touch(self, chat_id: int, slot: Hashable, job: Job, interval: float) -> None:
        """Mark a coalesced edit as due: ``job`` runs once, no sooner than ``interval``
        after its last run, and renders whatever is latest at that moment."""
        lane = self._lane(chat_id)
        current = lane.slots.get(slot)
        if current is None:
            lane.slots[slot] = _Slot(job, interval)
        else:
            current.job = job
            current.interval = interval
            current.dirty = True
        self.notify()

    def pending(self) -> bool:
        return any(
            lane.queue or any(s.dirty for s in lane.slots.values()) for lane in self._lanes.values()
        )

    def calls_in_window(self, chat_id: int) -> int:
        lane = self._lanes.get(chat_id)
        return len(lane.sent) if lane else 0

    # -- the pump -----------------------------------------------------------------------
    async def pump(self) -> float | None:
        """Run every job allowed now; return seconds until more work is allowed (None: idle)."""
        # Chats are independent: one slow upload must not hold up every other chat.
        await asyncio.gather(*(self._drain(lane) for lane in list(self._lanes.values())))
        return self._next_delay()

    def _next_job(self, lane: _Lane, now: float) -> tuple[Job, _Slot | None] | None:
        if lane.queue:
            return lane.queue.popleft(), None
        due = [s for s in lane.slots.values() if s.dirty and s.last + s.interval <= now]
        if not due:
            return None
        slot = min(due, key=lambda s: s.last)
        slot.dirty = False
        slot.last = now
        return slot.job, slot

    async def _drain(self, lane: _Lane) -> None:
        while True:
            now = self.clock.now()
            if now < lane.blocked_until:
                return
            if lane.limited:
                while lane.sent and lane.sent[0] <= now - self.window:
                    lane.sent.popleft()
                if len(lane.sent) >= self.group_limit:
                    return
            picked = self._next_job(lane, now)
            if picked is None:
                return
            job, slot = picked
            made = True
            try:
                made = await job()
            except RetryAfter as err:
                wait = _retry_seconds(err)
                lane.blocked_until = self.clock.now() + wait
                if slot is not None:
                    slot.dirty = True
                else:
                    lane.queue.appendleft(job)
                log.warning("chat %s: flood control, pausing %.0f s", lane.chat_id, wait)
            except TelegramError as err:
                log.warning("chat %s: %s: %s", lane.chat_id, type(err).__name__, err.message)
            except Exception:
                log.exception("chat %s: send job failed", lane.chat_id)
            if made and lane.limited:
                lane.sent.append(now)
            if now < lane.blocked_until:
                return

    def _next_delay(self) -> float | None:
        now = self.clock.now()
        wake: float | None = None
        for lane in self._lanes.values():
            dirty = [s for s in lane.slots.values() if s.dirty]
            if not lane.queue and not dirty:
                continue
            at = now if lane.queue else min(s.last + s.interval for s in dirty)
            at = max(at, now, lane.blocked_until)
            if lane.limited and len(lane.sent) >= self.group_limit:
                at = max(at, lane.sent[0] + self.window)
            wake = at if wake is None else min(wake, at)
        return None if wake is None else max(0.0, wake - now)

    # -- production loop -------------------------------------------------------------------
    def notify(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="telegram-sender")

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
                log.exception("sender pump failed")
                delay = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
