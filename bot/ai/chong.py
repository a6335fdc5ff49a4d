"""冲点 (RULES §10, 大众场): whether a revolter should lead its three pure 够级牌, and how.

A revolter that 冲点s leads three pure 够级牌 at its opposite, who alone may answer. If
even one of them is not beaten the revolter stays 四科 and counts as opened (no 点贡), and
the opposite loses its three 够死级 plays (its team's best start to the hand). If all
three are beaten the revolter falls to 大落 — its team then wins the hand only with 头科
and 二科 — and owes 落贡. So it is worth it only when the opposite is unlikely to beat
all three: the seat deals the cards it cannot see at random (its own view only), gives
the opposite a hand of its size, and lets it answer every lead it can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.cards import NUM_RANKS, Counts
from ..engine.movegen import gen_answers
from ..engine.plays import GOUJI_MIN, Play
from ..engine.rules import Rules
from ..engine.state import opp
from ..engine.views import SeatView
from .hand import minus
from .tracking import Seen, est_count

PLAYS = 3  # the revolter's three pure 够级牌 (RULES §10)
SAMPLES = 48  # deals of the opposite's hand; a one-off decision before the first play
MAX_FAIL = 0.25  # 冲点 only if the opposite beats all three in at most this share of deals


def pure_plays(hand: Sequence[int]) -> int:
    """How many pure 够级牌 the hand can make at once (each rank at its minimum size)."""
    return sum(hand[rank - 3] // need for rank, need in GOUJI_MIN.items())


def hardness(p: Play) -> tuple[int, int]:
    """Bigger sets need more 2s and jokers to beat; then higher ranks."""
    return (p.size, p.base)


def lead(hand: Sequence[int], due: int) -> Play | None:
    """The hardest pure 够级牌 that leaves ``due`` - 1 more for the plays after it."""
    best: Play | None = None
    for rank, need in GOUJI_MIN.items():
        for n in range(need, hand[rank - 3] + 1):
            p = Play(rank, n)
            if pure_plays(minus(hand, p.counts())) < due - 1:
                continue
            if best is None or hardness(p) > hardness(best):
                best = p
    return best


def _cheapest(answers: list[Play]) -> Play:
    # A pure answer first (it opens the opposite and costs no 2s or jokers), then the
    # fewest jokers and 2s, then the lowest rank.
    return min(answers, key=lambda a: (a.big, a.small, a.twos, a.base, a.n))


def all_beaten(hand: Sequence[int], other: Sequence[int], rules: Rules) -> bool:
    """Whether ``other`` (the opposite's hand) beats all three of ``hand``'s leads."""
    mine, theirs = tuple(hand), tuple(other)
    for due in range(PLAYS, 0, -1):
        p = lead(mine, due)
        if p is None:
            return True  # cannot happen for a legal 冲点; never count it as a success
        answers = gen_answers(theirs, p, rules)
        if not answers:
            return False
        mine = minus(mine, p.counts())
        theirs = minus(theirs, _cheapest(answers).counts())
    return True


def fail_chance(view: SeatView, rng: random.Random, samples: int = SAMPLES) -> float:
    """The share of random deals in which the opposite beats all three leads."""
    rules = view.public.rules
    out = Seen.of(view).outstanding
    pool = [i for i in range(NUM_RANKS) for _ in range(out[i])]
    size = min(len(pool), est_count(view, opp(view.seat)))
    fails = 0
    for _ in range(samples):
        drawn: list[int] = [0] * NUM_RANKS
        for i in rng.sample(pool, size):
            drawn[i] += 1
        counts: Counts = tuple(drawn)
        fails += all_beaten(view.hand, counts, rules)
    return fails / samples


def wants_chongdian(view: SeatView, rng: random.Random) -> bool:
    if pure_plays(view.hand) < PLAYS:
        return False
    return fail_chance(view, rng) <= MAX_FAIL
