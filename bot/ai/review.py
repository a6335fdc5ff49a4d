"""The teacher: a finished hand reviewed for one seat by the expert's playouts.

For every decision of the seat in the hand (a play, pass, 让 or burn it made while it
had a choice) the review rebuilds what the seat knew then — its own hand and the public
table (``seat_view`` and ``masked_state``: never another seat's cards) — lists the
expert's candidates for that decision plus what the seat did, deals the cards it could
not see as the expert deals them (``deal``), and plays every candidate out on the same
deals with the expert's fast playouts (``rollout``). A candidate is scored by the seat's
team's place points at the end of the playout (4 2 0 0 −2 −4 from 头科 to 大落, summed
over the team), so a decision's **cost** is what the best alternative gained over the
move made, in place points on average over the deals. Only a gain clear of the noise
(``margin`` plus ``z`` standard errors of the paired differences) counts; the three
dearest decisions are returned, each with the lecture's reason where a pattern fits
(``lessons``).

Deterministic: the deals of decision ``step`` are seeded from the review's seed, the
seat and the step. Pure CPU work: callers on an event loop run it in a worker thread or
process (``review_async``).
"""

from __future__ import annotations

import asyncio
import math
import random
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..child import spawn_pool
from ..engine.actions import Action, ActionKind
from ..engine.errors import GoujiError
from ..engine.events import TrickWon
from ..engine.game import apply
from ..engine.state import HandState, Phase, same_team
from ..engine.views import SeatView, seat_view
from ..records.replay import Replayed
from . import search_pool
from .base import masked_state, options
from .deal import deal, fours_held, hand_sizes, hidden_cards, pass_caps
from .expert import ExpertPolicy
from .lessons import Lesson, lesson_for
from .playouts import SEAT_POINTS
from .rollout import rollout

REVIEWED = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN})
TOP = 3  # decisions a review reports
BATCH = 6  # deals between looks at which alternatives can still win
REVIEW_NICE = 10  # the review process yields to the table's work (and the searches, at 5)


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """How hard the review looks. ``deals``: at most this many deals a decision (fewer
    when every alternative has dropped out of the race); ``margin`` (place points) and
    ``z`` decide what counts as a real cost rather than noise."""

    deals: int = 36
    margin: float = 0.25
    z: float = 1.5
    seed: int = 0

    @staticmethod
    def quick(seed: int = 0) -> ReviewConfig:
        """A smaller budget (tests, previews): enough to rank a clearly bad play first."""
        return ReviewConfig(deals=12, seed=seed)


@dataclass(frozen=True, slots=True)
class Mistake:
    """One reviewed decision that cost the seat's team place points."""

    step: int  # the action's index in the hand's actions (as ``gouji referee`` counts)
    trick: int  # the trick it was made in (1-based)
    seat: int
    chosen: Action
    better: Action | None  # None: declining a burn
    cost: float  # place points the team lost on average by the estimate
    lesson: Lesson | None
    deals: int  # deals the estimate rests on

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "trick": self.trick,
            "seat": self.seat,
            "chosen": self.chosen.to_json(),
            "better": None if self.better is None else self.better.to_json(),
            "cost": round(self.cost, 2),
            "reason": None if self.lesson is None else self.lesson.value,
            "deals": self.deals,
        }


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: int  # decisions of the seat that had a choice
    mistakes: tuple[Mistake, ...]  # the dearest first, at most TOP


def decisions_of(played: Replayed, seat: int) -> list[int]:
    """Indices of the seat's actions in play that were a real choice (two or more legal)."""
    out: list[int] = []
    for i, line in enumerate(played.actions):
        state = played.states[i]
        if line.get("seat") != seat or state.phase is not Phase.PLAY:
            continue
        kind = str(line.get("do"))
        if kind not in REVIEWED or any(r.index == i for r in played.refused):
            continue
        if len(options(state, seat)) >= 2:
            out.append(i)
    return out


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision to judge: the state before it and what the seat did (picklable, so a
    review process can judge it)."""

    step: int
    trick: int
    state: HandState
    chosen: Action


def decisions(played: Replayed, seat: int) -> list[Decision]:
    tricks = _tricks(played)
    return [
        Decision(i, tricks[i], played.states[i], Action.from_json(dict(played.actions[i])))
        for i in decisions_of(played, seat)
    ]


def judge_decision(d: Decision, seat: int, cfg: ReviewConfig) -> Mistake | None:
    m = judge(d.state, seat, d.chosen, cfg, d.step)
    return None if m is None else _at(m, d.step, d.trick)


def ranked(seat: int, count: int, found: Sequence[Mistake | None]) -> Review:
    """The dearest first (the earlier on a tie), at most TOP."""
    kept = sorted((m for m in found if m is not None), key=lambda m: (-m.cost, m.step))
    return Review(seat, count, tuple(kept[:TOP]))


def review(played: Replayed, seat: int, config: ReviewConfig | None = None) -> Review:
    """The seat's costliest decisions in a replayed hand (see the module docstring)."""
    cfg = config or ReviewConfig()
    todo = decisions(played, seat)
    return ranked(seat, len(todo), [judge_decision(d, seat, cfg) for d in todo])


async def review_async(played: Replayed, seat: int, config: ReviewConfig | None = None) -> Review:
    """``review`` off the event loop. When the expert searches in processes (``gouji``:
    ``GOUJI_SEARCH_PROCESSES`` > 1) the decisions are judged in as many review processes
    of their own (spawned at ``nice`` 10), in parallel — each decision is seeded on its
    own, so the review is the same; else in a worker thread (a library caller, a test)."""
    loop = asyncio.get_running_loop()
    cfg = config or ReviewConfig()
    pool = _processes()
    if pool is not None:
        todo = decisions(played, seat)
        jobs = [loop.run_in_executor(pool, judge_decision, d, seat, cfg) for d in todo]
        try:
            return ranked(seat, len(todo), await asyncio.gather(*jobs))
        except BrokenProcessPool:
            _drop()  # a process died (killed, out of memory): the review runs here
    return await loop.run_in_executor(None, review, played, seat, cfg)


_pool: list[ProcessPoolExecutor] = []
_pool_lock = threading.Lock()


def _processes() -> ProcessPoolExecutor | None:
    processes = search_pool.shared().processes
    if processes <= 1:
        return None
    with _pool_lock:
        if not _pool:
            _pool.append(spawn_pool(processes, REVIEW_NICE, __name__))
        return _pool[0]


def _drop() -> None:
    with _pool_lock:
        if _pool:
            _pool.pop().shutdown(wait=False, cancel_futures=True)


def _tricks(played: Replayed) -> list[int]:
    """The trick number (1-based) each action was made in."""
    out, n = [], 1
    for evs in played.events:
        out.append(n)
        n += sum(1 for e in evs if isinstance(e, TrickWon))
    return out


def _at(m: Mistake, step: int, trick: int) -> Mistake:
    return Mistake(step, trick, m.seat, m.chosen, m.better, m.cost, m.lesson, m.deals)


def candidates(view: SeatView, public: HandState, chosen: Action) -> list[Action | None]:
    """What the seat did first, then the expert's candidates for the decision."""
    legal = options_of(view, public)
    expert = ExpertPolicy(view.public.rules)
    base = expert.normal.choose(view, legal, random.Random(0))
    out: list[Action | None] = [chosen]
    for c in expert.candidates(view, legal, base):
        if c not in out:
            out.append(c)
    return out


def options_of(view: SeatView, public: HandState) -> list[Action]:
    # The seat's own options depend only on its hand and the public table.
    return options(public, view.seat)


def judge(
    state: HandState, seat: int, chosen: Action, cfg: ReviewConfig, step: int = 0
) -> Mistake | None:
    """The decision's cost against the expert's alternatives, or None when nothing was
    clearly better."""
    view = seat_view(state, seat)
    public = masked_state(state, seat)
    cands = candidates(view, public, chosen)
    if len(cands) < 2:
        return None
    rng = random.Random(f"review:{cfg.seed}:{seat}:{step}")
    scores = race(view, public, cands, cfg, rng)
    best, gain, n = _best(scores, cfg)
    if not best:
        return None
    better = cands[best]
    return Mistake(step, 0, seat, chosen, better, gain, lesson_for(view, chosen, better), n)


def race(
    view: SeatView,
    public: HandState,
    cands: Sequence[Action | None],
    cfg: ReviewConfig,
    rng: random.Random,
) -> list[list[float]]:
    """Each candidate's playout points, deal by deal on the same deals; an alternative
    that can no longer beat the move made (index 0) leaves the race."""
    hidden = hidden_cards(view, public)
    sizes = hand_sizes(view, hidden)
    caps = pass_caps(view)
    fours = fours_held(view, public)
    scores: list[list[float]] = [[] for _ in cands]
    live = list(range(len(cands)))
    done = 0
    while len(live) > 1 and done < cfg.deals:
        for _ in range(min(BATCH, cfg.deals - done)):
            deal_rng = random.Random(rng.getrandbits(64))
            full = public._replace(hands=deal(view, sizes, caps, deal_rng, hidden, fours))
            seeds = [deal_rng.getrandbits(32) for _ in cands]
            for i in live:
                scores[i].append(points(full, view.seat, cands[i], seeds[i]))
            done += 1
        live = [0] + [i for i in live[1:] if _may_win(scores[i], scores[0], cfg)]
    return scores


def points(state: HandState, seat: int, cand: Action | None, seed: int) -> float:
    """The seat's team's place points after ``cand`` and a playout to the end."""
    if cand is not None:
        try:
            state, _ = apply(state, seat, cand)
        except GoujiError:
            return -100.0  # not legal on this deal (cannot happen for own-hand moves)
    res = rollout(state, random.Random(seed)).result
    if res is None or res.voided:
        return 0.0
    return float(sum(SEAT_POINTS[i] for i, s in enumerate(res.places) if same_team(s, seat)))


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def _may_win(alt: Sequence[float], made: Sequence[float], cfg: ReviewConfig) -> bool:
    gain, se = _paired(alt, made[: len(alt)])
    return gain + cfg.z * se > cfg.margin


def _best(scores: Sequence[Sequence[float]], cfg: ReviewConfig) -> tuple[int, float, int]:
    """The alternative that ran the whole race and gained most over the move made, if
    its gain clears the noise: (index, gain, deals); index 0 when none does."""
    n = len(scores[0])
    best, best_gain = 0, 0.0
    for i, alt in enumerate(scores[1:], start=1):
        if len(alt) < n or not n:
            continue
        gain, se = _paired(alt, scores[0])
        if gain > best_gain and gain > cfg.margin + cfg.z * se:
            best, best_gain = i, gain
    return best, best_gain, n
