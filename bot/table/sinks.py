"""The adapters' subscriptions: table outputs, relayed replies, and recalls.

The manager lets adapters subscribe here; a publisher (``bot.table.local``, or the
outbox relay of ``bot.cluster.shell``) hands each output to them. One object, given to
both, so neither reads the other's lists."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable

from .outputs import Json, Out

log = logging.getLogger(__name__)

Sink = Callable[[Out], Awaitable[None]]
# An adapter's reply that is not a table output (an error text, a settings menu): the
# chat's key and what the adapter needs to send it again (JSON).
ReplySink = Callable[[str, dict[str, Json]], Awaitable[None]]
# Told a chat's lease key when this worker takes the chat over from another sender
# (bot.cluster): forget what it counted there (the group budget) and recall it as stored.
RecallSink = Callable[[str], None]


class Sinks:
    def __init__(self) -> None:
        self._outs: list[Sink] = []
        self._replies: list[ReplySink] = []
        self._recalls: list[RecallSink] = []

    def subscribe(self, sink: Sink) -> None:
        self._outs.append(sink)

    def subscribe_replies(self, sink: ReplySink) -> None:
        self._replies.append(sink)

    def subscribe_recalls(self, sink: RecallSink) -> None:
        self._recalls.append(sink)

    async def deliver(self, outs: Iterable[Out]) -> None:
        """Each output to every sink; an adapter's failure must not stop the table."""
        for out in outs:
            for sink in self._outs:
                try:
                    await sink(out)
                except Exception:
                    log.exception("sink failed on %s for table %s", type(out).__name__, out.table)

    async def reply(self, chat_key: str, payload: dict[str, Json]) -> None:
        for sink in self._replies:
            await sink(chat_key, payload)

    def recall(self, lease: str) -> None:
        for sink in self._recalls:
            sink(lease)
