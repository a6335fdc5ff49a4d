"""When the Discord adapter writes: the shared pacing lane on Discord's limits.

Discord limits how fast a bot writes to one channel (creating messages: 5 per 5 seconds
per channel; a 429 makes discord.py sleep inside the call, holding up everything queued
behind it). So everything the bot writes to a table's channel — table edits, 报户
answers, results, turn pings and their deletions — goes through that channel's
``ChannelWriter``: a ``Lane`` (adapters/pacing/lane.py) spending from one budget of
``CHANNEL_LIMIT`` calls in any rolling ``CHANNEL_WINDOW`` seconds:

* posts (answers, results, pings, deletions) go first, in order, and may use the whole
  budget;
* the table message is one coalesced edit: it runs at most once per ``edit_interval``
  (and at the pace the posts leave it), always renders the latest state, and leaves
  ``EDIT_RESERVE`` calls of the window to posts.

A 429 that discord.py gives back (``RateLimited``, or a 429 past its own retries)
pauses the channel for its ``retry_after``. The recent calls, which were edits, and a
pause are kept with the table (``dc_sent``/``dc_edits``/``dc_pause``), so a restart does
not start with an empty window. Answers to interactions (buttons, slash commands,
ephemeral views) and DMs are not channel writes and are not counted here.

Every wait goes through a ``Timing`` (``now`` and ``sleep``): production uses the event
loop's monotonic time; tests pass a fake whose ``sleep`` moves a fake clock, so the budget
is kept in fake time and no test waits for real seconds.

With several workers (bot.cluster), what is queued while the outbox relay hands a message
over carries the relay's acknowledgement (``bot.cluster.receipts``), as on Telegram: it
is settled once the job's calls have returned, and a job whose relay is no longer sure
of its lease on the chat is not run (fencing). While a job runs, ``call_nonce()`` gives
the idempotency key of the message it stands for: Discord's ``nonce`` (discord.py sends
it with ``enforce_nonce``), so a message created again by the next worker after a crash
returns the first one instead of posting twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

import discord

from bot.cluster import receipts
from bot.table import TableManager

from ..pacing import Lane, Limits, NoMemory, NoPauses, RateBudget, Rules, calling, running_ack
from ..pacing.memory import MetaMemory, MetaNames

log = logging.getLogger(__name__)

CHANNEL_LIMIT = 5  # writes per channel in any rolling window (Discord: 5 messages / 5 s)
CHANNEL_WINDOW = 5.0
EDIT_RESERVE = 1  # calls of each window the table edits leave to posts
LIMITS = Limits(CHANNEL_LIMIT, CHANNEL_WINDOW, EDIT_RESERVE)
TABLE = "table"  # the channel's one coalesced edit
NAMES = MetaNames("dc_sent", "dc_edits", "dc_pause")
MIN_WAIT = 0.001  # seconds: the shortest sleep of a channel's writer

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


def retry_of(err: Exception) -> float | None:
    """Discord's 429, when discord.py hands it back instead of sleeping on it."""
    if isinstance(err, discord.RateLimited):
        return err.retry_after
    if isinstance(err, discord.HTTPException) and err.status == 429:
        headers = getattr(err.response, "headers", None) or {}
        try:
            return float(headers.get("Retry-After", CHANNEL_WINDOW))
        except ValueError:
            return CHANNEL_WINDOW
    return None


class TableMemory(MetaMemory):
    """A channel's lane memory in its table's meta (the lane's chat is the table key)."""

    def __init__(self, manager: TableManager) -> None:
        super().__init__(manager, str, NAMES)

    def _keys(self, chat: Hashable) -> list[str]:
        return [key for key in super()._keys(chat) if key == chat]


def channel_rules(timing: Timing, manager: TableManager | None = None) -> Rules:
    """Discord's limits on ``timing``; with ``manager``, the lanes' memory kept with the
    tables (wall-clock seconds in production, the fake clock's in tests)."""
    wall = time.time if isinstance(timing, LoopTiming) else timing.now
    memory = TableMemory(manager) if manager is not None else None
    budget = RateBudget(CHANNEL_LIMIT, CHANNEL_WINDOW, timing, memory or NoMemory(), wall)
    pauses = memory or NoPauses()
    return Rules(LIMITS, budget, retry_of, quiet=(discord.HTTPException,), pauses=pauses)


def call_nonce() -> int:
    """The nonce for a message the running job creates: derived from the outbox message
    and the call's place in it, so every worker sending it again uses the same one; drawn
    at random (as discord.py would) outside the outbox. Discord wants at most 25
    characters: 63 bits are 19 digits."""
    ack = running_ack()
    if ack is None or ack.key is None:
        return secrets.randbits(63)
    digest = hashlib.blake2b(ack.key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class ChannelWriter:
    """One channel's lane, driven by a task of its own that sleeps on ``timing``."""

    def __init__(
        self,
        channel: Hashable,
        rules: Rules,
        timing: Timing,
        edit_interval: float,
        on_idle: Callable[[], None] | None = None,
    ) -> None:
        self.lane = Lane(channel, rules)
        self.timing = timing
        self.edit_interval = edit_interval
        self.on_idle = on_idle
        self.task: asyncio.Task[None] | None = None

    @property
    def channel(self) -> Hashable:
        return self.lane.chat

    def post(self, job: Job) -> None:
        self.lane.post(job, urgent=True)
        self._kick()

    def touch(self, job: Job) -> None:
        """Mark the coalesced edit as due; ``job`` renders whatever is latest when it runs."""
        self.lane.touch(TABLE, job, self.edit_interval)
        self._kick()

    def busy(self) -> bool:
        return self.lane.busy()

    def _kick(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self.lane.busy():
            await self.lane.drain()
            at = self.lane.wake_at(self.timing.now())
            if at is None:
                break
            # Never less than a millisecond: a wake time a float's rounding puts a hair
            # past the clock after the sleep would otherwise spin the loop.
            await self.timing.sleep(max(MIN_WAIT, at - self.timing.now()))
        if self.on_idle is not None:
            self.on_idle()


class Coalescer:
    """Runs ``job`` soon after a poke, at most once per ``interval`` (private views).

    A poke while a run waits or works causes one more run, so the last run always sees
    the state after the last poke. (DMs and interaction answers: no channel budget.)
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
            await self._fenced(acks)
            self._last = self.timing.now()

    async def _fenced(self, acks: list[receipts.Ack]) -> None:
        """Run the job for the acknowledgements still sure of their lease (not at all if
        every one had lost it); settle them once it returned, or failed for good."""
        live = receipts.fence(acks)
        if acks and not live:
            return
        try:
            with calling(live):
                await self._job()
        except Exception:
            log.exception("discord update failed")
        finally:
            for ack in live:
                ack()
