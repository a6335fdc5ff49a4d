"""A sign that an AI seat is thinking: the policy of the terminal's AI seats, wrapped so a
decision that takes a while says so at once ("电脑3 思考中…") instead of a silent screen.

The table asks its policy in a worker thread when it searches, so a timer thread can speak
while the decision runs; the choice itself is the wrapped policy's, untouched.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence

from bot.ai import Policy
from bot.engine.actions import Action
from bot.engine.state import HandState
from bot.engine.views import SeatView

THINK_DELAY = 0.3  # seconds a decision may take before the terminal says it is thinking


class Stopped(Exception):
    """Ctrl-C: the AI seats stop deciding, so a step running in a worker thread ends
    (asyncio waits for that thread before the process can exit)."""


class ThinkingPolicy:
    """``inner``'s choices; ``on_think(seat)`` runs once a decision has taken ``delay``
    seconds, and ``on_done()`` after such a decision ends."""

    def __init__(
        self,
        inner: Policy,
        on_think: Callable[[int], None],
        on_done: Callable[[], None],
        delay: float = THINK_DELAY,
        stop: threading.Event | None = None,
    ) -> None:
        self.inner = inner
        self.stop = stop or threading.Event()
        self.on_think = on_think
        self.on_done = on_done
        self.delay = delay
        # Where a table cannot wait for a search it asks the fallback (bot.ai.without_search).
        self.fallback: Policy | None = getattr(inner, "fallback", None)

    def _timed(self, seat: int, decide: Callable[[], Action | None]) -> Action | None:
        if self.stop.is_set():
            raise Stopped
        fired = threading.Event()

        def think() -> None:
            fired.set()
            self.on_think(seat)

        timer = threading.Timer(self.delay, think)
        timer.daemon = True
        timer.start()
        try:
            return decide()
        finally:
            timer.cancel()
            timer.join()
            if fired.is_set():
                self.on_done()

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self._timed(view.seat, lambda: self.inner.choose(view, legal, rng))

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        search = getattr(self.inner, "choose_searching", None)
        if search is None:
            return self.choose(view, legal, rng)
        found: Callable[[], Action | None] = lambda: search(view, public, legal, rng)  # noqa: E731
        return self._timed(view.seat, found)
