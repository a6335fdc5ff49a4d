"""The outbox relay: messages leave in the order their state changes committed, one
sender per chat at a time (a lease in the database), nothing lost and nothing sent twice.

A lease covers what one rate limit covers (``bot.store.lease_key``): a Telegram forum's
topics are chats of their own (a table each) but spend one group budget, so they share
their group's lease — one worker sends for all of them at a time, in one loop, counting
every call against the one budget. Another worker's command in another topic meanwhile
only queues its messages; the holder learns of that topic from its next pass over the
outbox (``chats``) and sends them too.

Per batch of a chat's waiting messages: take (or renew) the chat's lease and note an
attempt on each, commit; hand each message to this worker's adapters inside a
``Receipt`` (bot.cluster.receipts); then, message by message, wait until the platform
calls it caused have returned — renewing the lease meanwhile — and only then mark it
sent, in a commit of its own. A worker killed anywhere in between leaves the message
unsent; once its lease runs out another worker sends it again. Edits render the latest
state, so sending one again is harmless; a new message is marked sent as soon as its
own call returned, so only a death in the instant between the platform's answer and
that commit sends it twice (Telegram has no idempotency key to ask it).

Fencing. A lease is only as good as this worker's knowledge of it: a renewal that takes
longer than the lease (a stalled connection, a paused process) would let another worker
take the chat over while this one still sends. So the relay keeps the lease's expiry by
its own monotonic clock, read *before* each acquire or renewal is sent (the database
may have stamped it later, never earlier), less a safety margin; a platform call is
made only while that local expiry lies ahead (``Receipt.guard``, asked by the adapter
right before the call), and once a renewal fails or returns too late nothing more goes
out. Marks are fenced by the lease's token in the ``UPDATE`` itself: a sender whose
lease changed hands marks nothing. Wall clocks (the lease's ``until`` column) must agree
between workers to within the margin.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..store import Batch, OutboxMessage, Store, StoreTx, lease_key
from .receipts import Receipt, collecting
from .timings import Timings

log = logging.getLogger(__name__)

# Send one message; returns what to keep of the answer (e.g. the new message's id).
Deliver = Callable[[OutboxMessage], Awaitable[dict[str, Any]]]
# Before the first message sent under a lease taken over from another sender: recall
# the chat's adapter values (message ids, the group budget) as stored — for the lease
# and the chats of the messages about to go.
Recall = Callable[[str, list[str]], Awaitable[None]]
# A message handed to the adapters: its receipt and what to keep of the answer.
Handed = tuple[OutboxMessage, Receipt, dict[str, Any]]
Settled = list[tuple[int, dict[str, Any]]]  # (outbox id, answer) of messages that are out
# Outbox kinds whose delivery only edits what is there (the table message): sent twice,
# nothing shows twice. Any other kind may post a new message, which Telegram cannot
# recognise when retried, so its mark is committed the moment its call returned: the
# window in which a worker's death sends it twice is that one short transaction.
EDITS_ONLY = frozenset({"TableChanged"})
# Outbox kinds that always post a new message (a result picture, the match's end, an
# adapter's reply). Two of them are never out unmarked at once: the second is handed
# over only once the first is marked, so a worker's death between a platform's answer
# and the mark posts at most one message twice (a match's end is a result and a text).
POSTS_ANEW = frozenset({"HandFinished", "MatchOver", "Reply"})
# Seconds a worker keeps sending for a chat before it lets the chat go at its next idle
# moment instead of lingering: the worker of the next command there takes it over, so a
# busy chat's sending — its players' private messages with it — moves between the live
# workers (a restarted one included) instead of staying with the first to take it (issue
# #38: one worker made 72-79 % of a run's calls). A takeover costs one read of the
# chat's adapter values: one per 20 s and chat, against one per command without linger.
HOLD = 20.0


@dataclass
class Lease:
    """This worker's hold on one chat, as far as it can be sure of it."""

    token: int
    sure_until: float  # monotonic: the expiry measured from before the call, less the margin
    monotonic: Callable[[], float]

    def live(self) -> bool:
        return self.monotonic() < self.sure_until

    def drop(self) -> None:
        """Stop every call still queued under this lease."""
        self.sure_until = -float("inf")


class _LeaseLost(Exception):
    """Another worker took the chat while this one claimed its next batch."""


def _rounds(waiting: list[OutboxMessage]) -> list[list[OutboxMessage]]:
    """The claimed messages in rounds, each with at most one that posts anew: a round
    ends before the next such message."""
    rounds: list[list[OutboxMessage]] = [[]]
    for message in waiting:
        if message.kind in POSTS_ANEW and any(m.kind in POSTS_ANEW for m in rounds[-1]):
            rounds.append([])
        rounds[-1].append(message)
    return rounds


def _none_posts_anew(handed: list[Handed]) -> bool:
    """Some of the messages are still out, and none of them posts anew (a table edit, a
    paced group notice, a private update): the chat's next messages may be claimed past
    them. Past only table edits, a turn's keyboard waited behind a paced group notice:
    on one SQLite process the turn gap went from p50 0.22 s to 0.04 s, on three
    PostgreSQL workers p95 from 1.29 s to 0.97 s (docs/store.md, docs/perf.md)."""
    out_yet = [m.kind for m, receipt, _ in handed if not receipt.done]
    return bool(out_yet) and not any(kind in POSTS_ANEW for kind in out_yet)


def _answer(receipt: Receipt, answer: dict[str, Any]) -> dict[str, Any]:
    """What the outbox keeps of a message's delivery: the adapter's answer, and how many
    of its calls were shed (the message's state says whether any went out)."""
    shed = receipt.shed
    return {**answer, "shed": shed} if shed else answer


class OutboxRelay:
    def __init__(
        self,
        store: Store,
        holder: str,
        deliver: Deliver,
        now: Callable[[], float],
        lease_seconds: float = 10.0,
        batch: int = 20,
        ack_timeout: float = 120.0,
        timings: Timings | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        margin: float | None = None,
        linger: float = 0.0,
        stored: Callable[[], Awaitable[None]] | None = None,
        recall: Recall | None = None,
        hold: float = HOLD,
    ) -> None:
        self.store = store
        self.recall = recall  # on a takeover, before anything is sent
        self.stored = stored  # before a claim that may let go (``_claim``)
        # Seconds a lease is held idle once its messages are out (0: let go at once):
        # meanwhile this worker sends the chat's next messages too (``lingers``), instead
        # of each committing worker taking the chat over and recalling its values —
        # until it has held the chat ``hold`` seconds (``_idle_until``).
        self.linger, self.hold = linger, hold
        self._idle: dict[str, float] = {}  # lease → monotonic end of its idle hold
        self._since: dict[str, float] = {}  # lease → monotonic time this worker took it
        # A message's mark commits on connections nothing else takes (bot.store.Lane).
        self.marks = store.receipts()
        self.holder, self.deliver, self.now = holder, deliver, now
        self.lease_seconds, self.batch = lease_seconds, batch
        # Longer than any wait the group budget can impose on a call (its 60 s window).
        self.ack_timeout = ack_timeout
        self.timings = timings or Timings()
        self.monotonic = monotonic
        # Calls stop this long before the lease's local expiry (clock skew between
        # workers, the time from the check to the request leaving).
        self.margin = lease_seconds / 5 if margin is None else margin
        # The lease keeps other workers out; this keeps this worker's own loops (the pass
        # after a command, the background pass) from sending one chat's messages twice:
        # one loop per lease (a Telegram group with all its topics), sending for the
        # chats it was told of.
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._news: dict[str, asyncio.Event] = {}  # per lease: committed since the claim
        self._chats: dict[str, set[str]] = {}
        # Per lease, the last token under which this worker's adapter values are known
        # to be current (``_lease``, ``_recall_if_taken_over``).
        self._tokens: dict[str, int] = {}

    async def pump_chat(self, chat_key: str) -> int:
        """Send a chat's waiting messages — with those of every chat under the same lease
        (a forum's topics share their group's: ``lease_key``) — unless this worker is
        sending them already; returns how many."""
        owner = lease_key(chat_key)
        self._chats.setdefault(owner, set()).add(chat_key)
        if owner in self._busy:
            self._again.add(owner)  # the sender running now looks once more
            self._news[owner].set()
            return 0
        self._busy.add(owner)
        self._news[owner] = asyncio.Event()
        try:
            return await self._pump_chat(owner)
        finally:
            self._busy.discard(owner)
            self._again.discard(owner)
            self._chats.pop(owner, None)
            self._news.pop(owner, None)

    async def _take(self, tx: StoreTx, chat_key: str, lease: Lease | None) -> Lease | None:
        """Take or renew the chat's lease in ``tx``, its expiry counted from the clock
        read before the call. Returns ``lease`` renewed, a new lease (none before, or
        ours lapsed in between: others may have sent meanwhile), or None (another holder
        has it)."""
        asked = self.monotonic()
        token = await tx.acquire_lease(chat_key, self.holder, self.now(), self.lease_seconds)
        return None if token is None else self._lease(chat_key, token, asked, lease)

    def _lease(self, chat_key: str, token: int, asked: float, lease: Lease | None) -> Lease:
        """The lease as taken with ``token``, its expiry counted from ``asked`` (the clock
        read before the call): ``lease`` renewed, or a new one.

        The token goes up by one on every take after a release or lapse, so this worker's
        next take gets exactly one more than its last unless another worker held the
        lease in between (two or more): a takeover, recalled before anything is sent. A
        takeover that finds nothing to send recalls nothing and records nothing, so the
        next take is still one (the worker's values are as old as before)."""
        sure_until = asked + self.lease_seconds - self.margin
        self._since.setdefault(chat_key, asked)
        last = self._tokens.get(chat_key)
        if last is not None and token - last in (0, 1):
            # The same token: this worker's idle lease renewed; the next: taken right
            # after its own. Either way nobody else sent meanwhile.
            self._tokens[chat_key] = token
        self._idle.pop(chat_key, None)
        if lease is None or token != lease.token:
            return Lease(token, sure_until, self.monotonic)
        lease.sure_until = sure_until
        return lease

    async def _recall_if_taken_over(
        self, owner: str, lease: Lease, waiting: list[OutboxMessage]
    ) -> None:
        """Before messages go out under a lease taken over from another sender: recall
        the adapters' values (once per lease). (Updates for one chat reach every worker in
        turn, so a chat's sender changes often; recalling on each of this worker's own
        releases cost a read per delivery: 7 % of a worker's time at 120 tables.)"""
        if self._tokens.get(owner) == lease.token:
            return
        if self.recall is not None:
            await self.recall(owner, sorted({m.chat_key for m in waiting}))
        self._tokens[owner] = lease.token

    async def _pump_chat(self, owner: str) -> int:
        sent = 0
        settled: Settled = []  # out, to be marked in the next commit
        lease: Lease | None = None
        # Table edits handed over and not out yet (paced by the group's budget), carried
        # past the next claim: the chat's later messages need not wait for them.
        ahead: list[Handed] = []
        while True:
            mark = time.perf_counter()
            before = lease
            try:
                if before is None:
                    lease, waiting = await self._open(owner)
                else:
                    lease, waiting = await self._claim(owner, before, settled, ahead)
            except _LeaseLost:
                if before is not None:
                    before.drop()  # the edits carried ahead go out by the new holder
                return sent  # nothing marked or claimed: the marks were void anyway
            if lease is None:
                return sent
            sent, settled = sent + len(settled), []
            self.timings.add("outbox_claim", time.perf_counter() - mark)
            if not waiting and ahead:
                waiting_for, ahead = ahead, []  # nothing new: see the edits out, then mark
                marked, left, ahead = await self._deliveries(owner, waiting_for, lease)
                if left is None:
                    return self._lost(owner, lease, sent + marked)
                sent, settled = sent + marked, left
                continue
            if not waiting:
                if owner in self._again:
                    self._again.discard(owner)
                    continue
                return sent
            marked, handed, complete = await self._hand_over_all(owner, lease, waiting)
            sent += marked
            # Claim past pending edits only after a full batch (a burst: more is likely
            # waiting). After a short one it mostly found nothing, or one commit's rows
            # at a time: more claims for the same messages.
            more = len(waiting) >= self.batch
            marked, left, ahead = await self._deliveries(
                owner, ahead + handed, lease, carry=complete and more
            )
            if left is None or not complete:
                return self._lost(owner, lease, sent + marked)
            sent, settled = sent + marked, left

    async def _hand_over_all(
        self, owner: str, lease: Lease, waiting: list[OutboxMessage]
    ) -> tuple[int, list[Handed], bool]:
        """Hand the claimed messages to the adapters, in order, while sure of the lease —
        round by round (``_rounds``): the message that posts anew ending a round is seen
        out and marked before the next round is handed over; the others (edits, which a
        group's budget may hold back) are only handed over. Returns how many were marked,
        what was handed over and not marked, and whether every message was handed over
        (False: the lease is not sure any more)."""
        marked, pending = 0, []
        *firsts, last = _rounds(waiting)
        for part in firsts:
            handed = await self._hand_over_part(owner, lease, part)
            posts = [h for h in handed if h[0].kind in POSTS_ANEW]
            pending += [h for h in handed if h[0].kind not in POSTS_ANEW]
            if len(handed) < len(part):
                return marked, pending + posts, False
            for _, receipt, _ in posts:
                if not await self._settled(owner, receipt, lease):
                    return marked, pending, False
            count, _ = await self._mark(posts, lease, ride=False)
            marked += count
        handed = await self._hand_over_part(owner, lease, last)
        return marked, pending + handed, len(handed) == len(last)

    async def _hand_over_part(
        self, owner: str, lease: Lease, waiting: list[OutboxMessage]
    ) -> list[Handed]:
        handed: list[Handed] = []
        with self.timings.phase("outbox_hand_over"):
            await self._recall_if_taken_over(owner, lease, waiting)
            for message in waiting:
                if not lease.live():  # the claim itself was slow: not sure any more
                    break
                handed.append(await self._hand_over(message, lease))
        return handed

    def _lost(self, owner: str, lease: Lease, sent: int) -> int:
        """Not sure of the lease: nothing more goes out. It is left to lapse, not
        released: a call already on its way keeps the margin before another worker may
        send the rest."""
        lease.drop()
        self._idle.pop(owner, None)
        self._since.pop(owner, None)
        return sent

    async def _open(self, owner: str) -> tuple[Lease | None, list[OutboxMessage]]:
        """A pump's first claim: take the lease, then its oldest waiting messages with an
        attempt noted on each (before anything goes out) — one statement on PostgreSQL,
        committing by itself. Returns the lease (None: another worker holds it) and the
        messages; a lease with nothing to send is let go at once."""
        asked = self.monotonic()
        if not self.lingers(owner):  # not held on from before: a new hold starts
            self._since.pop(owner, None)
        self._news[owner].clear()  # what is committed from now on, the next claim finds
        async with self.store.statement() as tx:
            token, waiting = await tx.take_and_claim(
                owner,
                self.holder,
                self.now(),
                self.lease_seconds,
                self._chats_of(owner),
                self.batch,
            )
        if token is None:
            return None, []
        lease = self._lease(owner, token, asked, None)
        if not waiting and owner not in self._again:
            async with self.store.statement() as tx:  # nothing to send: done
                await tx.release_lease(owner, self.holder, self._idle_until(owner, asked))
        return lease, waiting

    def _idle_until(self, owner: str, asked: float) -> float:
        """The wall-clock end of the lease's idle hold (-1: let go now — no linger, or
        this worker has held the chat ``hold`` seconds), noting it."""
        if self.linger <= 0 or asked - self._since.get(owner, asked) >= self.hold:
            self._since.pop(owner, None)
            return -1.0
        self._idle[owner] = asked + self.linger - self.margin
        return self.now() + self.linger

    def sending(self, chat_key: str) -> bool:
        """Whether a loop of this worker is sending the chat's messages now (told of a
        commit there, it claims the new messages next: ``pump_chat``)."""
        return lease_key(chat_key) in self._busy

    def lingers(self, chat_key: str) -> bool:
        """Whether this worker holds the chat's lease idle (so it sends what the other
        workers commit there): a hint for when to pump, the store decides."""
        return self._idle.get(lease_key(chat_key), -math.inf) > self.monotonic()

    async def _claim(
        self, owner: str, lease: Lease, settled: Settled, ahead: list[Handed]
    ) -> tuple[Lease, list[OutboxMessage]]:
        """A later claim: mark the batch just settled (only while the lease is still
        ours: the token fences the marks), take the lease's next waiting messages with an
        attempt noted on each, and keep the lease while there is more to send or let it
        go — one statement on PostgreSQL. Returns the lease and the messages; raises
        ``_LeaseLost`` if another worker took the lease (nothing marked or claimed)."""
        if self.stored is not None:
            # What the adapters wrote while sending (the group budget's calls) stored
            # first: the calls' acks come before those writes, and the next holder
            # recalls the budget from the store.
            await self.stored()
        asked = self.monotonic()
        self._news[owner].clear()  # what is committed from now on, the next claim finds
        # Edits still out keep the lease (their calls are made under it) and are not
        # claimed again.
        keep = owner in self._again or bool(ahead)
        idle = -1.0 if keep else self._idle_until(owner, asked)
        skip = tuple(m.id for m, _, _ in ahead)
        batch = Batch(settled, self._chats_of(owner), self.batch, keep, idle, skip)
        async with self.store.statement() as tx:
            token, waiting = await tx.settle_and_claim(
                owner, (self.holder, lease.token), self.now(), self.lease_seconds, batch
            )
            if token is None:
                self._idle.pop(owner, None)
                self._since.pop(owner, None)
                # Another worker sends now. Raised inside: SQLite rolls its claim back
                # (PostgreSQL's statement marked and claimed nothing).
                raise _LeaseLost
        if not waiting and not batch.keep:
            return lease, waiting  # let go (or held idle): done
        return self._lease(owner, token, asked, lease), waiting

    def _chats_of(self, owner: str) -> list[str]:
        return sorted(self._chats[owner])

    async def _deliveries(
        self, chat_key: str, handed: list[Handed], lease: Lease, carry: bool = False
    ) -> tuple[int, Settled | None, list[Handed]]:
        """Wait for each handed message's platform calls, in order, and mark each as sent
        as soon as they returned — with every next one already out too (one coalesced
        edit settles many), in one commit. The last of the batch, when it only edits, is
        returned instead, for the next claim's commit (a round trip saved; sending an edit
        again is harmless). ``carry``: once only table edits are still out (paced by the
        group's budget), mark what is out and return those edits instead of waiting, so
        the chat's next messages are claimed meanwhile. Without ``carry`` the same, once
        more messages were committed while a paced edit is out (``_news_first``). Returns
        (marked, left to mark, edits still out); left is None if the lease was lost."""
        marked = 0
        while handed:
            # (a scan per message only behind a pending edit: the relay's hot path)
            head = handed[0][0].kind
            behind_quiet = not handed[0][1].done and head not in POSTS_ANEW
            if (carry and _none_posts_anew(handed)) or (
                behind_quiet and await self._news_first(chat_key, handed, lease)
            ):
                done = [h for h in handed if h[1].done]
                count, left = await self._mark(done, lease, True)
                return marked + count, left, [h for h in handed if not h[1].done]
            with self.timings.phase("outbox_platform_wait"):
                if not await self._settled(chat_key, handed[0][1], lease):
                    return marked, None, []
            done_count = 1
            while done_count < len(handed) and handed[done_count][1].done:
                done_count += 1
            settled, handed = handed[:done_count], handed[done_count:]
            count, left = await self._mark(settled, lease, ride=not handed)
            if left:
                return marked, left, []
            marked += count
        return marked, [], []

    async def _mark(self, settled: list[Handed], lease: Lease, ride: bool) -> tuple[int, Settled]:
        """Mark messages that are out; returns how many went out (not shed) and — with
        ``ride``, when they all only edit and none was shed — those left unmarked for the
        next claim's commit instead."""
        if not settled:
            return 0, []
        out = [(m.id, _answer(receipt, r)) for m, receipt, r in settled if not receipt.dropped]
        shed = len(out) < len(settled)
        if ride and not shed and all(m.kind in EDITS_ONLY for m, _, _ in settled):
            return 0, out  # marked with the next claim (sending an edit again is harmless)
        fence = (self.holder, lease.token)
        with self.timings.phase("outbox_mark_sent"):
            # One statement, no BEGIN/COMMIT around it: the commit that closes the
            # window in which a worker's death posts a new message twice is one
            # round trip. A message its adapter shed (a stale reply) is done with,
            # not sent.
            async with self.marks.statement() as tx:
                await tx.mark_done_many(
                    [
                        (m.id, _answer(rc, r), "dropped" if rc.dropped else "sent")
                        for m, rc, r in settled
                    ],
                    self.now(),
                    fence,
                )
        return len(out), []

    async def _hand_over(self, message: OutboxMessage, lease: Lease) -> Handed:
        receipt = Receipt(lease.live, message.msg_key, message.created)
        with collecting(receipt):
            result = await self.deliver(message)
        return message, receipt, result

    async def _settled(self, chat_key: str, receipt: Receipt, lease: Lease) -> bool:
        """Wait until the message's platform calls have returned, keeping the lease;
        False if the lease could not be kept (or a call was given up, or never
        returned)."""
        waited = 0.0
        step = self.lease_seconds / 3
        while not await receipt.wait(step):
            waited += step
            if not await self._kept(chat_key, lease, waited):
                return False
        return receipt.done

    async def _kept(self, chat_key: str, lease: Lease, waited: float) -> bool:
        """While waiting ``waited`` seconds for the platform: renew the lease; False if
        the wait is past ``ack_timeout`` or the lease could not be kept."""
        if waited > self.ack_timeout:
            log.warning("chat %s: no answer from the platform", chat_key)
            return False
        async with self.store.transaction() as tx:
            kept = await self._take(tx, chat_key, lease)
        if kept is not lease or not lease.live():
            log.warning("chat %s: lease lost or renewed too late", chat_key)
            return False
        return True

    async def _news_first(self, owner: str, handed: list[Handed], lease: Lease) -> bool:
        """Behind a table edit the group's budget paces (seconds, at its pace): wait for
        that edit, or — True — until messages committed since the last claim wait and
        only edits are still out, so they are claimed at once. A turn's private keyboard
        waited for the group's paced edit before (3.2 s a turn on several workers, 0.3 s
        on one process). False: the edit is out (or the lease is not sure any more; the
        caller's wait for it finds out)."""
        news, head = self._news[owner], handed[0][1]
        waited, step = 0.0, self.lease_seconds / 3
        while not head.idle:
            if news.is_set() and _none_posts_anew(handed):
                return True
            calls: list[asyncio.Future[Any]] = [f for h in handed for f in h[1].pending()]
            # Once news is in, only the calls still out can change the answer.
            heard = None if news.is_set() else asyncio.ensure_future(news.wait())
            try:
                woke, _ = await asyncio.wait(
                    calls if heard is None else [*calls, heard],
                    timeout=step,
                    return_when=asyncio.FIRST_COMPLETED,
                )
            finally:
                if heard is not None:
                    heard.cancel()
            if not woke:
                waited += step
                if not await self._kept(owner, lease, waited):
                    return False
        return False

    async def pump(self) -> int:
        """One pass over every chat with waiting messages and no sender; returns how many
        messages went out."""
        chats = await self.chats()
        return sum(await asyncio.gather(*(self._pump_logged(chat) for chat in chats)))

    async def chats(self) -> list[str]:
        """The chats with waiting messages and no sender now — and chats under a lease
        this worker is sending for that it has not been told of (another worker's
        command in another topic of the forum: it cannot send there while this one
        holds the group)."""
        self._forget_let_go()
        async with self.store.transaction(readonly=True) as tx:
            waiting = await tx.chats_waiting(self.now(), self.holder)
        return [
            chat
            for chat, mine in waiting
            if not mine or lease_key(chat) not in self._busy or self._untold(chat)
        ]

    def _forget_let_go(self) -> None:
        """Drop what this worker noted of chats it no longer sends for nor holds idle
        (so the notes do not grow with every chat ever sent to)."""
        now = self.monotonic()
        for owner in [o for o in self._since if o not in self._busy]:
            if self._idle.get(owner, -math.inf) <= now:
                self._since.pop(owner, None)
                self._idle.pop(owner, None)

    def _untold(self, chat_key: str) -> bool:
        owner = lease_key(chat_key)
        return owner in self._busy and chat_key not in self._chats.get(owner, ())

    async def _pump_logged(self, chat: str) -> int:
        try:
            return await self.pump_chat(chat)
        except Exception:
            log.exception("sending to chat %s failed", chat, extra={"chat": chat})
            return 0

    async def run(self, interval: float = 0.2) -> None:
        while True:
            try:
                await self.pump()
            except Exception:
                log.exception("outbox pass failed")
            await asyncio.sleep(interval)
