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

With several workers (bot.cluster), what is queued while the outbox relay hands a message
over carries the relay's acknowledgement (``bot.cluster.receipts``), as in the Telegram
Sender: it is called once the job's calls have returned — not at the hand-off — and a job
whose relay is no longer sure of its lease on the chat is not run (fencing). While a job
runs, ``call_nonce()`` gives the idempotency key of the message it stands for: Discord's
``nonce`` (discord.py sends it with ``enforce_nonce``), so a message created again by the
next worker after a crash returns the first one instead of posting twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from typing import Protocol

from bot.cluster import receipts

from ..pacing.budget import RateBudget

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


_calling: ContextVar[receipts.Ack | None] = ContextVar("gouji_discord_call", default=None)


def call_nonce() -> int:
    """The nonce for a message the running job creates: derived from the outbox message
    and the call's place in it, so every worker sending it again uses the same one; drawn
    at random (as discord.py would) outside the outbox. Discord wants at most 25
    characters: 63 bits are 19 digits."""
    ack = _calling.get()
    if ack is None or ack.key is None:
        return secrets.randbits(63)
    digest = hashlib.blake2b(ack.key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


async def _run_acked(job: Callable[[], Awaitable[int]], acks: list[receipts.Ack]) -> int | None:
    """Run a job for the acknowledgements still sure of their lease (None: it was not run,
    every one had lost it); acknowledge them once it returned, or failed for good."""
    live = receipts.fence(acks)
    if acks and not live:
        return None
    token = _calling.set(live[0] if live else None)
    try:
        return await job()
    finally:
        _calling.reset(token)
        for ack in live:
            ack()


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
        self._posts: deque[tuple[Job, list[receipts.Ack]]] = deque()
        self._edit: Job | None = None
        self._edit_acks: list[receipts.Ack] = []  # settled by the next edit's run
        self._dirty = False
        self._last_edit = -math.inf
        self.task: asyncio.Task[None] | None = None

    def post(self, job: Job) -> None:
        ack = receipts.expect()
        self._posts.append((job, [] if ack is None else [ack]))
        self._kick()

    def touch(self, job: Job) -> None:
        """Mark the coalesced edit as due; ``job`` renders whatever is latest when it runs."""
        self._edit = job
        self._dirty = True
        ack = receipts.expect()
        if ack is not None:
            self._edit_acks.append(ack)
        self._kick()

    def busy(self) -> bool:
        return bool(self._posts) or self._dirty

    def _kick(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def _next(self) -> tuple[Job, list[receipts.Ack]] | None:
        if self._posts and self.budget.allows(self.channel):
            return self._posts.popleft()
        due = self._last_edit + self.edit_interval <= self.timing.now()
        if self._dirty and due and self.budget.allows(self.channel, EDIT_RESERVE):
            self._dirty = False
            self._last_edit = self.timing.now()
            acks, self._edit_acks = self._edit_acks, []
            assert self._edit is not None
            return self._edit, acks
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
            picked = self._next()
            if picked is None:
                await self.timing.sleep(max(0.0, self._wake_at() - self.timing.now()))
                continue
            try:
                made = await _run_acked(*picked)
            except Exception:
                log.exception("discord channel write failed")
                made = 1  # it may have reached Discord's counter
            if made is None:
                log.info(
                    "channel %s: lease not sure, a write is left to the next sender", self.channel
                )
                continue
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
        self._acks: list[receipts.Ack] = []  # settled by the next run
        self.task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        self._dirty = True
        ack = receipts.expect()
        if ack is not None:
            self._acks.append(ack)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._dirty:
            wait = self._last + self.interval - self.timing.now()
            if wait > 0:
                await self.timing.sleep(wait)
            self._dirty = False
            acks, self._acks = self._acks, []
            try:
                await _run_acked(self._counted, acks)
            except Exception:
                log.exception("discord update failed")
            self._last = self.timing.now()

    async def _counted(self) -> int:
        await self._job()
        return 0
