"""Think while humans think: a person's turn is the AI seats' time to work ahead.

While a person decides, ``think_ahead`` plays the person's likely answers (``normal``'s
choice for the seat, passing, the cheapest other plays) on the table as it stands, and
along each works out the decisions the AI seats after the person would take, in order,
until the line reaches a person again, a burn window, or the end of the hand. Each
decision is the policy's own (``ExpertPolicy.think_ahead``) on the inputs the seat's
turn will give it — its view, the masked table, the rng ``seat_rng`` seeds from the
hand's seed and the step — so a turn whose table came out as foreseen takes it as it is
(``bot.ai.ahead``): what is decided never changes, only when. The person's hand is read
to guess their answer, and only for that: each AI decision still sees its own seat's
view alone.

The work stops at the next decision boundary once ``stop`` is set (the person acted).
"""

from __future__ import annotations

import asyncio
import functools
import random
import threading
from collections.abc import Callable, Sequence

from ..ai import NormalPolicy, options
from ..ai.base import masked_state
from ..ai.hand import play_of
from ..engine.actions import Action, ActionKind
from ..engine.cards import EMPTY
from ..engine.game import apply
from ..engine.state import HandState, Phase
from ..engine.views import seat_view
from .core.context import seat_rng
from .model import TableStatus
from .outputs import DeadlineKind
from .record import Table

GUESSER = NormalPolicy()  # a person's likely answer (normal's rules of thumb)
ANSWERS = 4  # answers worked ahead, the likeliest first (each: its line of AI turns)
Think = Callable[..., Action | None]  # ExpertPolicy.think_ahead(view, public, legal, rng)


def searches_ahead(policy: object) -> Think | None:
    """The policy's ``think_ahead`` if it can work decisions out ahead."""
    think = getattr(policy, "think_ahead", None)
    return think if callable(think) else None


def likely_answers(state: HandState, seat: int) -> list[Action]:
    """What the person at ``seat`` is likely to do, likeliest first: normal's choice,
    passing, then the plays normal prices cheapest (one per rank and size), ANSWERS in
    all."""
    legal = options(state, seat)
    view = seat_view(state, seat)
    out: list[Action] = []
    guess = GUESSER.choose(view, legal, random.Random(0))
    if guess is not None:
        out.append(guess)
    out += [a for a in legal if a.kind is ActionKind.PASS and a not in out]
    rules = state.rules
    plays = [a for a in legal if a.kind is ActionKind.PLAY and a.cards is not None]
    plays.sort(key=lambda a: GUESSER.cost(play_of(a.cards or EMPTY), view.hand, rules))
    shapes = {_shape(a) for a in out if a.cards is not None}
    for a in plays:
        if len(out) >= ANSWERS:
            break
        if _shape(a) not in shapes:
            shapes.add(_shape(a))
            out.append(a)
    return out[:ANSWERS]


def _shape(a: Action) -> tuple[int, int]:
    p = play_of(a.cards or EMPTY)
    return (p.base, p.size)


def _next_ai(st: HandState, ai: Sequence[bool]) -> int | None:
    """The AI seat the table would ask next from ``st`` for a turn, if any (not past a
    burn window, a person, or the end of the hand)."""
    if st.phase is not Phase.PLAY or not st.started or st.window or st.over:
        return None
    seat = st.to_act
    return seat if seat is not None and ai[seat - 1] else None


def think_ahead(
    state: HandState,
    hand_seed: int,
    ai: Sequence[bool],
    policy: object,
    stop: threading.Event,
) -> int:
    """Work out the AI seats' decisions after the person to act (``ai[s - 1]``: seat
    ``s`` is played by the AI); the number worked out."""
    think = searches_ahead(policy)
    person = state.to_act
    if think is None or person is None or ai[person - 1] or _next_ai(state, [True] * 6) is None:
        return 0
    done = 0
    for answer in likely_answers(state, person):
        st, _ = apply(state, person, answer)
        while not stop.is_set():
            seat = _next_ai(st, ai)
            if seat is None:
                break
            rng = seat_rng(hand_seed, st.step, seat, "turn")
            legal = options(st, seat)
            action = think(seat_view(st, seat), masked_state(st, seat), legal, rng)
            done += 1
            if action is None or action not in legal:
                break  # the turn will say what is wrong with it
            st, _ = apply(st, seat, action)
    return done


class Ahead:
    """A manager's thinking ahead: at most ``at_once`` tables at a time, each until its
    next step (``stop``). A table whose turn comes while others think waits for a place
    (the latest turn of each table; a stopped one is dropped)."""

    def __init__(self, at_once: int = 1) -> None:
        self.at_once = at_once
        self.started = 0  # think-aheads begun or waiting for a place (tests, benchmarks)
        self._stops: dict[str, threading.Event] = {}
        self._tasks: set[asyncio.Future[int]] = set()
        self._waiting: dict[str, Callable[[], int]] = {}  # tables waiting for a place

    def start(self, key: str, t: Table, policy: object) -> bool:
        """Think ahead on ``t`` in a worker thread if a person is to act there (now, or
        once a place is free); whether it will."""
        self.stop(key)
        st = t.run.state
        if (
            searches_ahead(policy) is None
            or st is None
            or st.to_act is None
            or t.status is not TableStatus.PLAYING
            or t.run.window is not None
            or ai_owed(t)
        ):
            return False
        ai = tuple(info is None or info.ai_plays for info in t.seats)
        if ai[st.to_act - 1] or _next_ai(st, [True] * 6) is None:
            return False  # an AI seat (or 托管) is to act, or the play has not begun
        stop = self._stops[key] = threading.Event()
        self._waiting[key] = functools.partial(think_ahead, st, t.hand_seed, ai, policy, stop)
        self.started += 1
        self._launch()
        return True

    def _launch(self) -> None:
        """Begin the waiting think-aheads, oldest first, while there is a place."""
        while self._waiting and len(self._tasks) < self.at_once:
            key = next(iter(self._waiting))
            job = self._waiting.pop(key)
            task = asyncio.ensure_future(asyncio.to_thread(job))
            self._tasks.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[int]) -> None:
        self._tasks.discard(task)
        self._launch()

    def stop(self, key: str) -> None:
        """The table moved on: stop at the next decision (the one being worked out is
        finished, and its turn waits for it rather than search twice)."""
        self._waiting.pop(key, None)
        stop = self._stops.pop(key, None)
        if stop is not None:
            stop.set()

    def thinking(self) -> bool:
        """Whether a table thinks ahead or waits to (tests, benchmarks)."""
        return bool(self._tasks or self._waiting)

    async def wait(self) -> None:
        """Until every table's thinking ahead is done (tests, benchmarks)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop every table's thinking and wait for it."""
        for key in list(self._stops):
            self.stop(key)
        self._waiting.clear()
        await self.wait()


def ai_owed(t: Table) -> bool:
    """The table waits for its AI seats' moves (an ``ai_later`` step left them due):
    nobody thinks ahead before they are made."""
    d = t.run.deadline
    return d is not None and d.kind is DeadlineKind.AI
