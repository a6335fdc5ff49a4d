"""Decisions worked out ahead of their turn ("think while humans think").

While a person decides, the table may work out the AI seats' next decisions for the
person's likely answers (``bot.table.ahead``). A decision is a pure function of the
seat's view, the masked table and the decision's own seeded rng, so one worked out ahead
is the one the seat would take at its turn: ``Thoughts`` keeps it under exactly those
inputs, and the turn takes it from there instead of searching again (or waits for it if
it is being worked out right now). Only *when* a decision is made changes, never what.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future

from ..engine.actions import Action

KEEP = 512  # decisions kept (a few rounds of every table thinking ahead)

Key = tuple[Hashable, int, Hashable]  # the masked table, the seat, the rng's state


def key_of(public: Hashable, seat: int, rng: random.Random) -> Key:
    return (public, seat, rng.getstate())


class Thoughts:
    """Decisions by their inputs: done, or being worked out (a ``Future``)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._known: OrderedDict[Key, Future[Action | None]] = OrderedDict()
        self.hits = 0  # turns that found their decision worked out (tests, benchmarks)

    def take(self, key: Key) -> Future[Action | None] | None:
        """The decision for these inputs if it was worked out (or is being), else None."""
        with self._lock:
            got = self._known.get(key)
            if got is not None:
                self._known.move_to_end(key)
                self.hits += 1
            return got

    def work_out(self, key: Key, decide: Callable[[], Action | None]) -> Action | None:
        """The decision: worked out now, unless it is known or under way."""
        with self._lock:
            known = self._known.get(key)
            if known is None:
                future: Future[Action | None] = Future()
                self._known[key] = future
                while len(self._known) > self.keep:
                    self._known.popitem(last=False)
        if known is not None:
            return known.result()
        try:
            choice = decide()
        except BaseException as err:
            with self._lock:  # a failed thought is forgotten: the turn decides itself
                if self._known.get(key) is future:
                    del self._known[key]
            future.set_exception(err)
            raise
        future.set_result(choice)
        return choice

    def __len__(self) -> int:
        return len(self._known)
