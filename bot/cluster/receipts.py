"""Delivery receipts: when is an outbox message out, and may it still go out?

The outbox relay hands a message to this worker's adapters; an adapter queues the
platform calls it causes (Telegram's Sender paces them under the group budget). A row is
marked sent only once those calls have returned — so a worker killed between the
hand-off and the call leaves the row unsent, and another worker sends it.

The relay opens a ``Receipt`` around the hand-off (a context variable, so an adapter's
queue learns of it without a parameter through every layer); whatever the adapter
queues inside asks ``expect()`` for an ``Ack`` and calls it once its call has returned
(sent, refused for good, or coalesced into a later edit that went out).

Fencing: a call may wait in an adapter's queue for a long time (the group budget), and
meanwhile the relay's lease on the chat may run out and another worker take the chat
over. So right before it makes the call, the adapter asks ``ack.live()`` — whether the
relay is still sure of its lease (``Receipt.guard``) — and if not, ``ack.abandon()``s
it instead of calling: the message stays unsent for whoever holds the chat now.

Shedding: an adapter may also decide a call is not worth making any more (Telegram's
Sender sheds a reply to a command that waited past its time for the group's budget, so
a flood of refusals does not hold the game's messages behind it). It ``shed()``s the
acknowledgement: the message is done with but was not sent, and the relay records it so
(``dropped``), never as sent.

An adapter that knows nothing of receipts acknowledges nothing, and the message counts
as out at the hand-off.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from enum import Enum


def _always() -> bool:
    return True


class Outcome(Enum):
    """What became of one platform call an outbox message waited for."""

    MADE = "made"  # the call returned (or was refused for good): it is out
    ABANDONED = "abandoned"  # not made, the lease not sure: the chat's next sender makes it
    SHED = "shed"  # not made, on purpose and for good (a stale reply: Sender's overflow)


class Ack:
    """One platform call an outbox message waits for."""

    def __init__(
        self, future: asyncio.Future[Outcome], guard: Callable[[], bool], key: str | None = None
    ) -> None:
        self._future = future
        self._guard = guard
        # The same on every attempt to send this message's this call, on any worker: a
        # platform that takes an idempotency key (Discord's nonce) recognises a retry.
        self.key = key

    def __call__(self) -> None:
        """The call returned (or will never be made again, e.g. refused for good)."""
        self._settle(Outcome.MADE)

    @property
    def guard(self) -> Callable[[], bool]:
        """Whether the relay is still sure of the chat (the calls a call queues share it)."""
        return self._guard

    def live(self) -> bool:
        """Whether the call may still be made: the relay is sure it holds the chat."""
        return not self._future.done() and self._guard()

    def abandon(self) -> None:
        """The call was not made (the lease is not sure any more): the message stays
        unsent, for the chat's next sender."""
        self._settle(Outcome.ABANDONED)

    def shed(self) -> None:
        """The call will not be made, by the adapter's choice (a reply to a command that
        waited too long for the group's budget): the message is done with, not sent."""
        self._settle(Outcome.SHED)

    def _settle(self, outcome: Outcome) -> None:
        if not self._future.done():
            self._future.set_result(outcome)


class Receipt:
    """The platform calls one outbox message caused, and whether each has returned."""

    def __init__(
        self,
        guard: Callable[[], bool] = _always,
        key: str | None = None,
        queued: float | None = None,
    ) -> None:
        self.guard = guard
        self.key = key  # the outbox message's key
        # When the message was queued (wall-clock seconds): how long a reply has waited
        # counts from there, not from the hand-over.
        self.queued = queued
        self._waiting: list[asyncio.Future[Outcome]] = []

    def expect(self) -> Ack:
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        call = None if self.key is None else f"{self.key}/{len(self._waiting)}"
        self._waiting.append(future)
        return Ack(future, self.guard, call)

    def _outcomes(self) -> list[Outcome | None]:
        return [f.result() if f.done() else None for f in self._waiting]

    @property
    def done(self) -> bool:
        """Every call returned or was shed (none abandoned, none pending)."""
        return all(o in (Outcome.MADE, Outcome.SHED) for o in self._outcomes())

    @property
    def abandoned(self) -> bool:
        """Some call was given up without being made."""
        return Outcome.ABANDONED in self._outcomes()

    @property
    def shed(self) -> int:
        """How many of the message's calls were shed."""
        return self._outcomes().count(Outcome.SHED)

    @property
    def dropped(self) -> bool:
        """Done, and none of its calls made: nothing of the message went out."""
        outcomes = self._outcomes()
        return bool(outcomes) and all(o is Outcome.SHED for o in outcomes)

    @property
    def idle(self) -> bool:
        """No call is pending any more (each returned, was shed, or was abandoned)."""
        return all(f.done() for f in self._waiting)

    def pending(self) -> list[asyncio.Future[Outcome]]:
        """The calls not yet returned, shed or abandoned."""
        return [f for f in self._waiting if not f.done()]

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every call to return or be abandoned; True
        when none is pending any more."""
        pending = [f for f in self._waiting if not f.done()]
        if not pending:
            return True
        _, still = await asyncio.wait(pending, timeout=timeout)
        return not still


_current: ContextVar[Receipt | None] = ContextVar("gouji_receipt", default=None)


@contextlib.contextmanager
def collecting(receipt: Receipt) -> Iterator[Receipt]:
    """Everything queued inside this block reports to ``receipt``."""
    token = _current.set(receipt)
    try:
        yield receipt
    finally:
        _current.reset(token)


@contextlib.contextmanager
def following(acks: list[Ack]) -> Iterator[None]:
    """While the call of ``acks`` is made: what it queues in turn (deleting the message a
    repost replaced, posting the table message again after someone deleted it) is fenced
    by the same lease — made only while that relay is still sure of the chat, like the
    call itself. No relay waits for those calls (their message is out already), so their
    acknowledgements report to a receipt of their own. Without ``acks`` (one process, a
    call no relay handed over) nothing changes."""
    if not acks:
        yield
        return
    token = _current.set(Receipt(acks[0].guard))
    try:
        yield
    finally:
        _current.reset(token)


def expect() -> Ack | None:
    """For an adapter queueing a platform call: the acknowledgement to call once the call
    returned, or None when no relay is waiting for it."""
    receipt = _current.get()
    return None if receipt is None else receipt.expect()


def fence(acks: list[Ack]) -> list[Ack]:
    """The acknowledgements whose call may still be made; the others — their relay is no
    longer sure of its lease on the chat — are abandoned."""
    live = [ack for ack in acks if ack.live()]
    for ack in acks:
        if ack not in live:
            ack.abandon()
    return live


def relaying() -> bool:
    """Whether an outbox message is being handed over now (what is queued is its part)."""
    return _current.get() is not None


def queued_at() -> float | None:
    """When the outbox message being handed over was queued (wall-clock seconds), if one
    is."""
    receipt = _current.get()
    return None if receipt is None else receipt.queued
