"""The adapters' subscriptions: table outputs, relayed replies, and recalls.

The manager lets adapters subscribe here; a publisher (``bot.table.local``, or the
outbox relay of ``bot.cluster.shell``) hands each output to them. One object, given to
both, so neither reads the other's lists.

A sink subscribes for one front end's tables (``FrontEnd.owns``: it never sees another
platform's) or for all of them, and says whether it sees hands. Each output is handed
over thick — ``TableChanged`` with the table's snapshot and version, ``HandChanged``
with the player's own view — filled in once (``fill_with``: the manager's snapshots) as
the table stands when the output is delivered, so no adapter pulls it again. A player's
view goes only to a sink that sees hands (one that shows it to that player alone);
every other sink gets the ``HandChanged`` without it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from .outputs import HandChanged, Json, Out

log = logging.getLogger(__name__)

Sink = Callable[[Out], Awaitable[None]]
# An adapter's reply that is not a table output (an error text, a settings menu): the
# chat's key and what the adapter needs to send it again (JSON).
ReplySink = Callable[[str, dict[str, Json]], Awaitable[None]]
# Told a chat's lease key when this worker takes the chat over from another sender
# (bot.cluster): forget what it counted there (the group budget) and recall it as stored.
RecallSink = Callable[[str], None]
# An output with its snapshots filled in (``hands``: a player's own view too).
Fill = Callable[[Out, bool], Out]


class Platform(Protocol):
    """Which tables are a front end's (``bot.frontend.FrontEnd``)."""

    def owns(self, table_key: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class _Subscription:
    sink: Sink
    platform: Platform | None
    hands: bool


def _bare(out: Out, hands: bool) -> Out:
    return out


class Sinks:
    def __init__(self) -> None:
        self._outs: list[_Subscription] = []
        self._replies: list[ReplySink] = []
        self._recalls: list[RecallSink] = []
        self._fill: Fill = _bare

    def subscribe(self, sink: Sink, platform: Platform | None = None, hands: bool = False) -> None:
        """``sink`` gets the outputs of ``platform``'s tables (None: every table's);
        ``hands``: with each player's own view in their ``HandChanged``."""
        self._outs.append(_Subscription(sink, platform, hands))

    def subscribe_replies(self, sink: ReplySink) -> None:
        self._replies.append(sink)

    def subscribe_recalls(self, sink: RecallSink) -> None:
        self._recalls.append(sink)

    def fill_with(self, fill: Fill) -> None:
        """How an output gets its snapshots (the manager's, as the table stands)."""
        self._fill = fill

    async def deliver(self, outs: Iterable[Out]) -> None:
        """Each output to every sink subscribed to its table; an adapter's failure must
        not stop the table."""
        for out in outs:
            filled: dict[bool, Out] = {}  # filled once (a hand's view: once more, if seen)
            private = isinstance(out, HandChanged)
            for sub in self._outs:
                if sub.platform is not None and not sub.platform.owns(out.table):
                    continue
                hands = sub.hands and private
                given = filled.get(hands)
                if given is None:
                    given = filled[hands] = self._filled(out, hands)
                try:
                    await sub.sink(given)
                except Exception:
                    log.exception("sink failed on %s for table %s", type(out).__name__, out.table)

    def _filled(self, out: Out, hands: bool) -> Out:
        given = self._fill(out, hands)
        if not hands and isinstance(given, HandChanged) and given.snapshot is not None:
            given = replace(given, snapshot=None)  # a player's cards: only their own sinks
        return given

    async def reply(self, chat_key: str, payload: dict[str, Json]) -> None:
        for sink in self._replies:
            await sink(chat_key, payload)

    def recall(self, lease: str) -> None:
        for sink in self._recalls:
            sink(lease)
