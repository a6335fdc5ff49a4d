"""One chat's pacing lane: what a front end writes to one chat, in order, within its budget.

Every front end that writes to chats with a rate limit (Telegram groups, Discord
channels) queues its calls in the chat's ``Lane``; the platform only says its
``Limits`` and how to read its 429 (``Rules``). A lane holds:

1. urgent posts (报户 answers, hand results, the end of a match) — a FIFO that may spend
   the whole budget;
2. ordinary posts (replies to commands), a FIFO after the urgent ones that leaves
   ``reserve`` calls of the window to them;
3. *slots*: coalesced edits (the table message, a settings menu). A slot is a job that
   always renders the latest state when it runs, at most once per interval and at the
   pace the budget leaves after the other calls, however many changes came in between;
   it also leaves ``reserve`` calls unspent.

A call is counted in the chat's ``RateBudget`` (adapters/pacing/budget.py) once it has
been made, with whether it was an edit; the budget's memory keeps those times with the
table, so a restart neither starts with an empty window nor forgets which calls were
table edits. A 429 pauses the whole lane for its ``retry_after``; the pause's end is
kept too (``PauseMemory``), so a restarted process does not call into a pause.

Only *expendable* posts are ever shed — replies to a command, which their author can
ask for again: one that waited ``stale_after`` seconds, or the oldest when the queue
reaches ``queue_cap``. The game's own posts are never shed.

With several workers (bot.cluster) every job carries the outbox relay's
acknowledgements (``bot.cluster.receipts``): they are settled once the job's call has
returned (a coalesced edit settles every touch made before it ran), left unsettled by a
429 (the call goes again), and a job whose relay is no longer sure of its lease is not
run at all (fencing). ``running_ack()`` names the outbox message of the running call
(Discord's nonce is made from it).

Before each call the lane waits on the platform's ``GlobalRate`` (a bot-wide limit such
as Telegram's 30 calls a second): a process-local bucket, or one shared by the workers.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol

from bot.cluster import receipts
from bot.table import Clock

from .budget import RateBudget
from .rate import GlobalRate, NoGlobalRate

log = logging.getLogger(__name__)

# A job makes the platform calls of one queued item and says how many it made
# (a job of one call may say True or False).
Job = Callable[[], Awaitable[int]]
# A platform's reading of a failed call: the seconds a 429 asks to wait, None otherwise.
RetryOf = Callable[[Exception], float | None]


@dataclass(frozen=True)
class Limits:
    """A platform's per-chat rules."""

    limit: int  # calls per chat in any rolling window
    window: float  # seconds
    reserve: int  # calls of each window kept for urgent posts
    stale_after: float = math.inf  # an expendable post not out by then is shed
    queue_cap: int = 40  # ordinary posts held before expendable ones are shed

    @property
    def edit_interval(self) -> float:
        """The table message's pace: the budget left after the reserve, spread evenly."""
        return self.window / (self.limit - self.reserve)


def _no_retry(err: Exception) -> float | None:
    return None


class PauseMemory(Protocol):
    """Where a chat's 429 pause outlives the process (its wall-clock end, seconds; 0:
    none): adapters/pacing/memory.py keeps it with the table."""

    def load_pause(self, chat: Hashable) -> float: ...

    async def save_pause(self, chat: Hashable, until: float) -> None: ...


class NoPauses:
    """A lane that forgets its pause on restart (tests of the lane itself)."""

    def load_pause(self, chat: Hashable) -> float:
        return 0.0

    async def save_pause(self, chat: Hashable, until: float) -> None:
        return None


@dataclass
class Rules:
    """What every lane of one platform shares."""

    limits: Limits
    budget: RateBudget
    retry_of: RetryOf = _no_retry
    quiet: tuple[type[Exception], ...] = ()  # the platform's errors: a line, no traceback
    rate: GlobalRate = field(default_factory=NoGlobalRate)
    pauses: PauseMemory = field(default_factory=NoPauses)

    @property
    def clock(self) -> Clock:
        return self.budget.clock

    def wall(self) -> float:
        return self.budget.wall()


@dataclass
class Post:
    """A queued message: its job, the outbox messages waiting for it, since when it
    waits (clock time; with several workers, from when its outbox row was queued) and
    whether it may be shed."""

    job: Job
    acks: list[receipts.Ack]
    since: float
    expendable: bool = False


@dataclass
class Slot:
    job: Job
    interval: float
    dirty: bool = True
    last: float = -math.inf  # when it last ran
    called: float = -math.inf  # when it last ran and made a call
    acks: list[receipts.Ack] = field(default_factory=list)  # settled by the next run


Source = deque[Post] | Slot  # where a picked job came from (put back there on a 429)

_running: ContextVar[receipts.Ack | None] = ContextVar("gouji_lane_call", default=None)


def running_ack() -> receipts.Ack | None:
    """The outbox message whose call is being made now (None: none, or not relayed)."""
    return _running.get()


@contextlib.contextmanager
def calling(acks: list[receipts.Ack]) -> Iterator[None]:
    """While the call of ``acks`` (those still sure of their lease) is made:
    ``running_ack`` names its outbox message, and what it queues in turn goes out under
    the same lease, or not at all."""
    token = _running.set(acks[0] if acks else None)
    try:
        with receipts.following(acks):
            yield
    finally:
        _running.reset(token)


class Lane:
    def __init__(self, chat: Hashable, rules: Rules, limited: bool = True) -> None:
        self.chat = chat
        self.rules = rules
        self.limited = limited  # held to the budget (a Telegram private chat is not)
        self.urgent: deque[Post] = deque()
        self.queue: deque[Post] = deque()
        self.slots: dict[Hashable, Slot] = {}
        self.edited = -math.inf  # when this lane's last edit call counted (budget clock)
        self.blocked_until = -math.inf
        if limited:
            self.blocked_until = self._recalled_pause()

    @property
    def budget(self) -> RateBudget:
        return self.rules.budget

    @property
    def limits(self) -> Limits:
        return self.rules.limits

    def _recalled_pause(self) -> float:
        """A 429 pause a previous process was told of, on this lane's clock."""
        until = self.rules.pauses.load_pause(self.chat) - self.rules.wall()
        return self.rules.clock.now() + until if until > 0 else -math.inf

    # -- producers ----------------------------------------------------------------------
    def post(self, job: Job, urgent: bool = False, expendable: bool = False) -> None:
        """A message to send in order (``urgent``: before the others, never shed;
        ``expendable``: a reply to a command, shed when stale or when the queue is full)."""
        ack = receipts.expect()
        post = Post(job, [] if ack is None else [ack], self._since(), expendable and not urgent)
        if urgent:
            self.urgent.append(post)
        elif len(self.queue) < self.limits.queue_cap or self._made_room(post):
            self.queue.append(post)

    def touch(self, name: Hashable, job: Job, interval: float) -> None:
        """Mark a coalesced edit as due: ``job`` runs once, no sooner than ``interval``
        after its last run, and renders whatever is latest at that moment."""
        slot = self.slots.get(name)
        if slot is None:
            slot = self.slots[name] = Slot(job, interval)
        else:
            slot.job, slot.interval, slot.dirty = job, interval, True
        ack = receipts.expect()
        if ack is not None:
            slot.acks.append(ack)

    def _since(self) -> float:
        """When a post began to wait, on the clock: now, or — handed over by the outbox
        relay — when its outbox row was queued (wall-clock seconds, as every worker
        counts them)."""
        now = self.rules.clock.now()
        queued = receipts.queued_at()
        return now if queued is None else now - max(0.0, self.rules.wall() - queued)

    def _made_room(self, post: Post) -> bool:
        """The queue is full: shed its oldest expendable post; if it holds none, shed
        ``post`` when it is expendable, else let the queue pass its cap (nothing that
        must be delivered is lost). Returns whether ``post`` is to be queued."""
        oldest = next((i for i, p in enumerate(self.queue) if p.expendable), None)
        if oldest is not None:
            shed = self.queue[oldest]
            del self.queue[oldest]
            self._shed(shed, "queue full")
            return True
        if post.expendable:
            self._shed(post, "queue full")
            return False
        return True

    def _shed(self, post: Post, why: str) -> None:
        for ack in post.acks:
            ack.shed()
        log.info("chat %s: %s, a reply to a command is shed", self.chat, why)

    def _shed_stale(self, now: float) -> None:
        """Shed the expendable posts that have waited ``stale_after`` seconds."""
        stale = self.limits.stale_after
        if not any(p.expendable and p.since + stale <= now for p in self.queue):
            return
        kept: deque[Post] = deque()
        for post in self.queue:
            if post.expendable and post.since + stale <= now:
                self._shed(post, "waited too long")
            else:
                kept.append(post)
        self.queue = kept

    # -- state ----------------------------------------------------------------------------
    def busy(self) -> bool:
        return bool(self.urgent or self.queue or any(s.dirty for s in self.slots.values()))

    def idle(self, now: float) -> bool:
        """Nothing to do and nothing to remember (clean slots past their pace are
        dropped first): the lane may be forgotten."""
        pace = self.pace()
        for name, slot in list(self.slots.items()):
            if not slot.dirty and slot.last + max(slot.interval, pace) <= now:
                del self.slots[name]
        if self.busy() or self.blocked_until > now or self.slots:
            return False
        return not (self.limited and self.budget.used(self.chat))

    def _allows(self, reserve: int) -> bool:
        return not self.limited or self.budget.allows(self.chat, reserve)

    def _free_at(self, reserve: int, now: float) -> float:
        return self.budget.free_at(self.chat, reserve) if self.limited else now

    def pace(self) -> float:
        """The least time between two edits: what the window has left once the reserve
        and the other messages in it (answers, replies) are counted, spread evenly over
        the window. Edits at this pace leave room for the others instead of running into
        the limit, where the next edit would wait for the oldest call to leave the
        window (the long freeze after a burst).

        Which calls were edits is the budget's to say, whoever made them: this process
        before a restart, or another worker that sent for the chat before this one took
        it over. Counted as "other" messages, a new sender's edits slowed 2-4x for a
        minute (16 of 17 calls another worker's edits: one edit every 15 s)."""
        if not self.limited:
            return 0.0
        others = self.budget.used(self.chat) - self.budget.edits(self.chat)
        share = self.budget.limit - self.limits.reserve - max(0, others)
        return self.budget.window / max(1, share)

    def slot_due(self, slot: Slot) -> float:
        """When a coalesced edit may run next: its interval or the pace after its last
        run — and the pace after the chat's last edit when this lane did not make that
        one (before a restart, or another worker before this one took the chat over):
        the cadence goes on instead of a new sender editing at once."""
        pace = self.pace()
        due = slot.last + max(slot.interval, pace)
        if self.limited:
            last = self.budget.last_edit(self.chat)
            if last > self.edited:
                due = max(due, last + pace)
        return due

    def wake_at(self, now: float) -> float | None:
        """When the lane may next have work to do (None: nothing is waiting)."""
        reserve = self.limits.reserve
        times = []
        if self.urgent:
            times.append(self._free_at(0, now))
        if self.queue:
            times.append(self._free_at(reserve, now))
            stale = [p.since + self.limits.stale_after for p in self.queue if p.expendable]
            if stale:
                times.append(min(stale))  # shed then, whatever the budget
        dirty = [self.slot_due(s) for s in self.slots.values() if s.dirty]
        if dirty:
            times.append(max(min(dirty), self._free_at(reserve, now)))
        if not times:
            return None
        return max(min(times), self.blocked_until)

    # -- running --------------------------------------------------------------------------
    def _next_job(self, now: float) -> tuple[Post, Source] | None:
        if self.urgent and self._allows(0):
            return self.urgent.popleft(), self.urgent
        if not self._allows(self.limits.reserve):
            return None
        if self.queue:
            return self.queue.popleft(), self.queue
        due = [s for s in self.slots.values() if s.dirty and self.slot_due(s) <= now]
        if not due:
            return None
        slot = min(due, key=lambda s: s.last)
        slot.dirty, slot.last = False, now
        taken, slot.acks = slot.acks, []  # a run settles every touch made so far
        return Post(slot.job, taken, now), slot

    async def drain(self) -> None:
        """Run every job allowed now, in order, until the lane is paused, out of budget
        or empty."""
        clock = self.rules.clock
        while True:
            now = clock.now()
            self._shed_stale(now)  # paused or out of budget: shedding calls nothing
            if now < self.blocked_until:
                return
            picked = self._next_job(now)
            if picked is None:
                return
            await self._run(*picked)
            if clock.now() < self.blocked_until:
                return

    async def _run(self, post: Post, source: Source) -> None:
        live = receipts.fence(post.acks)
        if post.acks and not live:
            # Every relay that handed it over lost its lease: the chat's new holder sends.
            log.info("chat %s: lease not sure, a call is left to the next sender", self.chat)
            if isinstance(source, Slot):
                source.last = source.called  # no call made: the pace is untouched
            return
        await self.rules.rate.acquire()
        made, settled = 1, True
        try:
            with calling(live):
                made = int(await post.job())
        except Exception as err:  # a bad job must not stop the chat's queue
            wait = self.rules.retry_of(err)
            if wait is not None:
                settled = False
                await self._flooded(Post(post.job, live, post.since, post.expendable), source, wait)
            else:
                self._failed(err)
        if settled:
            # Out: the outbox may mark it sent now. Before the budget's memory is written
            # (a database write with several workers): a worker killed in between would
            # otherwise leave a message that is out marked unsent, and it would go twice.
            for ack in live:
                ack()
        await self._counted(source, made)

    def _failed(self, err: Exception) -> None:
        if isinstance(err, self.rules.quiet):
            log.warning("chat %s: %s: %s", self.chat, type(err).__name__, err)
        else:
            log.error("chat %s: send job failed", self.chat, exc_info=err)

    async def _counted(self, source: Source, made: int) -> None:
        """Count the calls made (a failed call counts too: it may have reached the
        platform's counter) and keep the slot's pace."""
        is_edit = isinstance(source, Slot)
        if made and self.limited:
            for _ in range(made):
                await self.budget.spend(self.chat, edit=is_edit)
            if is_edit:
                self.edited = self.budget.last_edit(self.chat)
        if isinstance(source, Slot):
            # The pace spaces calls: a run that found nothing to change (the table looks
            # as it did) made none, and must not hold the next change a whole interval —
            # nor the outbox relay, which waits for that edit before it claims the
            # chat's next messages.
            if made:
                source.called = source.last
            else:
                source.last = source.called

    async def _flooded(self, post: Post, source: Source, wait: float) -> None:
        """A 429: pause the chat (and remember the pause), keep the job and whoever waits
        for it to retry."""
        self.blocked_until = self.rules.clock.now() + wait
        if isinstance(source, Slot):
            source.dirty = True
            source.acks = post.acks + source.acks
        else:
            source.appendleft(post)
        log.warning("chat %s: flood control, pausing %.0f s", self.chat, wait)
        if self.limited:
            await self.rules.pauses.save_pause(self.chat, round(self.rules.wall() + wait, 3))
