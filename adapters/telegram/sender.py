"""Every message and edit the bot makes in a chat goes through one Sender.

Telegram allows a group about 20 messages a minute; past that it answers 429 and can
mute the bot for a while. So each group spends from one ``RateBudget`` (adapters/budget.py)
shared by everything that writes there: a call counts once it has been made, and the
recent call times are kept with the table so a restart does not reset the window.

Within a chat, work goes out by priority:

1. urgent messages (报户 answers, hand results, the end of a match, a player who must
   open the bot before their turn) — they may spend the whole budget;
2. replies to commands, in order — they leave ``reserve`` calls for the urgent ones;
3. *slots*: coalesced edits (the table message, a settings menu). A slot is a job that
   always renders the latest state when it runs, at most once per interval, however
   many changes came in between; it also leaves ``reserve`` calls unspent.

A flood of commands must neither grow the queue without bound nor hold the game behind
it, and nothing the game says may be lost. So only *expendable* posts are ever shed —
replies to a person's command (refusals, usage hints, menus, /rules, /replay), which
that person can ask for again: a reply that has waited ``stale_after`` seconds (a full
window of the group's budget) answers a question no one is waiting on any more and is
shed at its turn instead of sent; and a queue that reaches ``queue_cap`` sheds its
oldest expendable post (or the new one, if it is the only one). Urgent messages and the
game's other posts are never shed: past the cap the queue grows (the game's pace bounds
them). A shed post is not counted and not called; with several workers its outbox row
is recorded as dropped, not sent (``receipts.Ack.shed``).

A 429 pauses the whole chat for its ``retry_after``. Time comes from an injected clock:
production wakes itself with ``run()``; tests move a fake clock and call ``pump()``.

With several workers (bot.cluster), a job queued while the outbox relay hands a message
over carries the relay's acknowledgement (``bot.cluster.receipts``): it is called once
the job's call has returned (or a later run of a coalesced edit went out), so the
outbox marks the message sent only then. Right before such a job's call the Sender asks
whether the relay is still sure of its lease on the chat (``Ack.live``): if not, the
call is not made and the acknowledgement is abandoned — whoever holds the chat now sends
it (lease fencing, bot.cluster.relay). A relay that has just taken the chat over from
another worker makes the budget recall the window the others stored (``recall_chat``,
before the relay hands anything over).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from telegram.error import RetryAfter, TelegramError

from bot.cluster import receipts
from bot.table import ChatRef, Clock

from ..budget import BudgetMemory, RateBudget
from ..frontends import TELEGRAM

log = logging.getLogger(__name__)

# A job makes at most one Bot API call and says whether it made one.
Job = Callable[[], Awaitable[bool]]

GROUP_LIMIT = 20  # calls per group in any rolling minute (Telegram's documented figure)
GROUP_WINDOW = 60.0
GROUP_RESERVE = 1  # calls of each window kept for urgent messages
# The table message's pace: the budget left after the reserve, spread over the window.
GROUP_TABLE_INTERVAL = GROUP_WINDOW / (GROUP_LIMIT - GROUP_RESERVE)


STALE_AFTER = GROUP_WINDOW  # an expendable reply not out by then is shed
EVICT_EVERY = 1.0  # seconds between two passes over every lane for idle ones


@dataclass
class _Post:
    """A queued message: its job, the outbox messages waiting for it, since when it
    waits (clock time; with several workers, from when its outbox row was queued) and
    whether it may be shed."""

    job: Job
    acks: list[receipts.Ack]
    since: float
    expendable: bool = False

    async def __call__(self) -> bool:
        return await self.job()


@dataclass
class _Slot:
    job: Job
    interval: float
    dirty: bool = True
    last: float = -math.inf  # when it last ran
    called: float = -math.inf  # when it last ran and made a call
    acks: list[receipts.Ack] = field(default_factory=list)  # settled by the next run


@dataclass
class _Lane:
    chat_id: int
    limited: bool
    urgent: deque[_Post] = field(default_factory=deque)
    queue: deque[_Post] = field(default_factory=deque)
    slots: dict[Hashable, _Slot] = field(default_factory=dict)
    blocked_until: float = -math.inf
    edited: float = -math.inf  # when this sender's last edit call counted (budget clock)

    def busy(self) -> bool:
        return bool(self.urgent or self.queue or any(s.dirty for s in self.slots.values()))


def _settle(job: Job) -> None:
    if isinstance(job, _Post):
        for ack in job.acks:
            ack()


def _retry_seconds(err: RetryAfter) -> float:
    value = err.retry_after  # a timedelta (PTB_TIMEDELTA, adapters/telegram/__init__.py)
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


class Sender:
    def __init__(
        self,
        clock: Clock,
        group_limit: int = GROUP_LIMIT,
        window: float = GROUP_WINDOW,
        queue_cap: int = 40,
        reserve: int = GROUP_RESERVE,
        memory: BudgetMemory | None = None,
        wall: Callable[[], float] | None = None,
        stale_after: float = STALE_AFTER,
    ) -> None:
        self.clock = clock
        self.reserve = reserve
        self.queue_cap = queue_cap
        self.stale_after = stale_after
        wall = wall or clock.now
        self.wall = wall
        self.budget = RateBudget(group_limit, window, clock, memory, wall)
        self._lanes: dict[int, _Lane] = {}
        # When each lane may next have work (clock time; -inf: now). A pump drains only
        # these lanes, not every chat ever written to: with hundreds of chats, a pass over
        # all of them on every new message held the event loop for a tenth of a second.
        self._due: dict[int, float] = {}
        self._evicted_at = -math.inf
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- producers ----------------------------------------------------------------------
    def _lane(self, chat_id: int) -> _Lane:
        lane = self._lanes.get(chat_id)
        if lane is None:
            # Groups, supergroups and channels have negative ids; private chats positive.
            lane = self._lanes[chat_id] = _Lane(chat_id, limited=chat_id < 0)
        return lane

    def post(self, chat_id: int, job: Job, urgent: bool = False, expendable: bool = False) -> None:
        """A message to send in order (replies; ``urgent``: answers, results, alerts).
        ``expendable``: a reply to a command, which may be shed when stale or when the
        queue is full (never an urgent one)."""
        lane = self._lane(chat_id)
        ack = receipts.expect()
        post = _Post(job, [] if ack is None else [ack], self._since(), expendable and not urgent)
        if urgent:
            lane.urgent.append(post)  # the game's news: never shed
        elif len(lane.queue) < self.queue_cap or self._made_room(lane, post):
            lane.queue.append(post)
        self._due[chat_id] = -math.inf
        self.notify()

    def _since(self) -> float:
        """When a post began to wait, on the clock: now, or — handed over by the outbox
        relay — when its outbox row was queued (wall-clock seconds, as every worker
        counts them)."""
        now = self.clock.now()
        queued = receipts.queued_at()
        return now if queued is None else now - max(0.0, self.wall() - queued)

    def _made_room(self, lane: _Lane, post: _Post) -> bool:
        """The queue is full: shed its oldest expendable post; if it holds none, shed
        ``post`` when it is expendable, else let the queue pass its cap (nothing that
        must be delivered is lost). Returns whether ``post`` is to be queued."""
        oldest = next((i for i, p in enumerate(lane.queue) if p.expendable), None)
        if oldest is not None:
            shed = lane.queue[oldest]
            del lane.queue[oldest]
            self._shed(lane, shed, "queue full")
            return True
        if post.expendable:
            self._shed(lane, post, "queue full")
            return False
        return True

    def _shed(self, lane: _Lane, post: _Post, why: str) -> None:
        for ack in post.acks:
            ack.shed()
        log.info("chat %s: %s, a reply to a command is shed", lane.chat_id, why)

    def _shed_stale(self, lane: _Lane, now: float) -> None:
        """Shed the expendable posts that have waited ``stale_after`` seconds."""
        if not any(p.expendable and p.since + self.stale_after <= now for p in lane.queue):
            return
        kept: deque[_Post] = deque()
        for post in lane.queue:
            if post.expendable and post.since + self.stale_after <= now:
                self._shed(lane, post, "waited too long")
            else:
                kept.append(post)
        lane.queue = kept

    def recall_chat(self, chat_key: str) -> None:
        """Another worker may have sent to this chat (a cluster's relay took its lease
        over): its budget's window is recalled from the store at its next use."""
        if TELEGRAM.owns(chat_key):
            self.budget.recall(int(ChatRef.from_key(chat_key).chat_id))

    def touch(self, chat_id: int, slot: Hashable, job: Job, interval: float) -> None:
        """Mark a coalesced edit as due: ``job`` runs once, no sooner than ``interval``
        after its last run, and renders whatever is latest at that moment."""
        lane = self._lane(chat_id)
        current = lane.slots.get(slot)
        if current is None:
            current = lane.slots[slot] = _Slot(job, interval)
        else:
            current.job = job
            current.interval = interval
            current.dirty = True
        ack = receipts.expect()
        if ack is not None:
            current.acks.append(ack)
        self._due[chat_id] = -math.inf
        self.notify()

    def pending(self) -> bool:
        return any(lane.busy() for lane in self._lanes.values())

    def calls_in_window(self, chat_id: int) -> int:
        return self.budget.used(chat_id) if chat_id < 0 else 0

    # -- the pump -----------------------------------------------------------------------
    async def pump(self) -> float | None:
        """Run every job allowed now; return seconds until more work is allowed (None: idle)."""
        now = self.clock.now()
        ready = [self._lanes[c] for c, at in list(self._due.items()) if at <= now]
        # Chats are independent: one slow upload must not hold up every other chat.
        await asyncio.gather(*(self._drain(lane) for lane in ready))
        now = self.clock.now()
        for lane in ready:
            at = self._lane_wake(lane, now)
            if at is None:
                self._due.pop(lane.chat_id, None)
            else:
                self._due[lane.chat_id] = at
        if now - self._evicted_at >= EVICT_EVERY:
            self._evicted_at = now
            self._evict()
        return self._next_delay()

    def _evict(self) -> None:
        """Forget lanes with nothing to do and nothing to remember: no queued work, no
        pause, no edit still inside its interval and, in a group, no call left in the
        budget's window. So per-chat state does not grow with every chat ever written to."""
        now = self.clock.now()
        for chat_id, lane in list(self._lanes.items()):
            # A slot that is clean and past its interval and the lane's pace holds nothing
            # a new one would not.
            pace = self._pace(lane)
            for name, slot in list(lane.slots.items()):
                if not slot.dirty and slot.last + max(slot.interval, pace) <= now:
                    del lane.slots[name]
            if lane.busy() or lane.blocked_until > now or lane.slots:
                continue
            if lane.limited and self.budget.used(chat_id):
                continue
            del self._lanes[chat_id]
            self._due.pop(chat_id, None)
            self.budget.forget(chat_id)

    def lanes(self) -> int:
        """Chats with state in memory (for tests of the eviction)."""
        return len(self._lanes)

    def _allows(self, lane: _Lane, reserve: int) -> bool:
        return not lane.limited or self.budget.allows(lane.chat_id, reserve)

    def _next_job(self, lane: _Lane, now: float) -> tuple[Job, deque[_Post] | _Slot] | None:
        if lane.urgent and self._allows(lane, 0):
            return lane.urgent.popleft(), lane.urgent
        if not self._allows(lane, self.reserve):
            return None
        if lane.queue:
            return lane.queue.popleft(), lane.queue
        due = [s for s in lane.slots.values() if s.dirty and self._slot_due(lane, s) <= now]
        if not due:
            return None
        slot = min(due, key=lambda s: s.last)
        slot.dirty = False
        slot.last = now
        return slot.job, slot

    def _pace(self, lane: _Lane) -> float:
        """The least time between two edits in a group: what the window has left once
        the reserve and the other messages in it (answers, replies) are counted, spread
        evenly over the window. Edits at this pace leave room for the others instead of
        running into the limit, where the next edit would wait for the oldest call to
        leave the window (the long freeze after a burst).

        Which calls were edits is the budget's to say, whoever made them: this process
        before a restart, or another worker that sent for the chat before this one took
        it over. Counted as "other" messages, a new sender's edits slowed 2-4x for a
        minute (16 of 17 calls another worker's edits: one edit every 15 s)."""
        if not lane.limited:
            return 0.0
        chat = lane.chat_id
        others = self.budget.used(chat) - self.budget.edits(chat)
        share = self.budget.limit - self.reserve - max(0, others)
        return self.budget.window / max(1, share)

    def _slot_due(self, lane: _Lane, slot: _Slot) -> float:
        """When a coalesced edit may run next: its interval or the pace after its last
        run — and the pace after the group's last edit when this sender did not make
        that one (before a restart, or another worker before this one took the chat
        over): the cadence goes on instead of a new sender editing at once."""
        pace = self._pace(lane)
        due = slot.last + max(slot.interval, pace)
        if lane.limited:
            last = self.budget.last_edit(lane.chat_id)
            if last > lane.edited:
                due = max(due, last + pace)
        return due

    async def _drain(self, lane: _Lane) -> None:
        while True:
            now = self.clock.now()
            self._shed_stale(lane, now)  # paused or out of budget: shedding calls nothing
            if now < lane.blocked_until:
                return
            picked = self._next_job(lane, now)
            if picked is None:
                return
            await self._run_job(lane, *picked)
            if self.clock.now() < lane.blocked_until:
                return

    def _fenced(
        self, lane: _Lane, job: Job, source: deque[_Post] | _Slot
    ) -> list[receipts.Ack] | None:
        """The acknowledgements the job's call settles (a slot's run settles every touch
        made so far); None when the call is not to be made: every relay that handed it
        over is no longer sure of its lease (whoever holds the chat now sends it)."""
        if isinstance(source, _Slot):
            taken, source.acks = source.acks, []
            if taken:
                taken = receipts.fence(taken)
                if not taken:
                    return None  # touched only under leases now lost: their new holder edits
            return taken
        if isinstance(job, _Post) and job.acks and not receipts.fence(job.acks):
            log.info("chat %s: lease not sure, a message is left to the next sender", lane.chat_id)
            return None
        return job.acks if isinstance(job, _Post) else []

    async def _run_job(self, lane: _Lane, job: Job, source: deque[_Post] | _Slot) -> None:
        acks = self._fenced(lane, job, source)
        if acks is None:
            if isinstance(source, _Slot):
                source.last = source.called  # no call made: the pace is untouched
            return
        taken = acks if isinstance(source, _Slot) else []
        made, settled = True, True
        try:
            # What the job queues in turn goes out under the same lease, or not at all.
            with receipts.following(acks):
                made = await job()
        except RetryAfter as err:
            settled = False
            self._flooded(lane, job, source, taken, _retry_seconds(err))
        except TelegramError as err:
            log.warning("chat %s: %s: %s", lane.chat_id, type(err).__name__, err.message)
        except Exception:
            log.exception("chat %s: send job failed", lane.chat_id)
        if settled:
            # Out: the outbox may mark it sent now. Before the budget's memory is written
            # (a database write with several workers): a worker killed in between would
            # otherwise leave a message that is out marked unsent, and it would go twice.
            _settle(job)
            for ack in taken:
                ack()
        await self._counted(lane, source, made)

    async def _counted(self, lane: _Lane, source: deque[_Post] | _Slot, made: bool) -> None:
        if made and lane.limited:
            # Counted now that the call has been made (a refused call counts too:
            # it may have reached Telegram's counter).
            await self.budget.spend(lane.chat_id, edit=isinstance(source, _Slot))
            if isinstance(source, _Slot):
                lane.edited = self.budget.last_edit(lane.chat_id)
        if isinstance(source, _Slot):
            # The pace spaces calls: a run that found nothing to change (the table looks
            # as it did) made none, and must not hold the next change a whole interval —
            # nor the outbox relay, which waits for that edit before it claims the
            # chat's next messages.
            if made:
                source.called = source.last
            else:
                source.last = source.called

    def _flooded(
        self,
        lane: _Lane,
        job: Job,
        source: deque[_Post] | _Slot,
        taken: list[receipts.Ack],
        wait: float,
    ) -> None:
        """A 429: pause the chat, and keep the job (and whoever waits for it) to retry."""
        lane.blocked_until = self.clock.now() + wait
        if isinstance(source, _Slot):
            source.dirty = True
            source.acks = taken + source.acks
        else:
            assert isinstance(job, _Post)
            source.appendleft(job)
        log.warning("chat %s: flood control, pausing %.0f s", lane.chat_id, wait)

    def _next_delay(self) -> float | None:
        if not self._due:
            return None
        return max(0.0, min(self._due.values()) - self.clock.now())

    def _lane_wake(self, lane: _Lane, now: float) -> float | None:
        def free(reserve: int) -> float:
            return self.budget.free_at(lane.chat_id, reserve) if lane.limited else now

        times = []
        if lane.urgent:
            times.append(free(0))
        if lane.queue:
            times.append(free(self.reserve))
            stale = [p.since + self.stale_after for p in lane.queue if p.expendable]
            if stale:
                times.append(min(stale))  # shed then, whatever the budget
        dirty = [self._slot_due(lane, s) for s in lane.slots.values() if s.dirty]
        if dirty:
            times.append(max(min(dirty), free(self.reserve)))
        if not times:
            return None
        return max(min(times), lane.blocked_until)

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
