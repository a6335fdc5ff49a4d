"""Delivery receipts: when is an outbox message out?

The outbox relay hands a message to this worker's adapters; an adapter queues the
platform calls it causes (Telegram's Sender paces them under the group budget). A row is
marked sent only once those calls have returned — so a worker killed between the
hand-off and the call leaves the row unsent, and another worker sends it.

The relay opens a ``Receipt`` around the hand-off (a context variable, so an adapter's
queue learns of it without a parameter through every layer); whatever the adapter
queues inside asks ``expect()`` for an acknowledgement and calls it once its call has
returned (sent, refused for good, or coalesced into a later edit that went out). An
adapter that knows nothing of receipts acknowledges nothing, and the message counts as
out at the hand-off, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Ack = Callable[[], None]


class Receipt:
    """The platform calls one outbox message caused, and whether each has returned."""

    def __init__(self, takeover: bool = False) -> None:
        # True when this worker has just taken the chat over from another sender: a
        # budget kept in memory must be recalled from what the others stored.
        self.takeover = takeover
        self._waiting: list[asyncio.Future[None]] = []

    def expect(self) -> Ack:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)

        def ack() -> None:
            if not future.done():
                future.set_result(None)

        return ack

    @property
    def done(self) -> bool:
        return all(f.done() for f in self._waiting)

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every call; True when all have returned."""
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


def expect() -> Ack | None:
    """For an adapter queueing a platform call: the acknowledgement to call once the call
    returned, or None when no relay is waiting for it."""
    receipt = _current.get()
    return None if receipt is None else receipt.expect()


def takeover() -> bool:
    """Whether the message being handed over comes with a chat just taken over."""
    receipt = _current.get()
    return receipt is not None and receipt.takeover
