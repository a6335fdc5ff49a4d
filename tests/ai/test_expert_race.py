"""The expert's race stops early: a clear leader ends it, a hopeless alternative leaves
it sooner, and an early decision gets the early budget (no waiting on AI seats)."""

from __future__ import annotations

import random

import pytest

from bot.ai import options
from bot.ai.base import masked_state
from bot.ai.deal import hand_sizes
from bot.ai.expert import (
    EARLY_WORK_PER_PROCESS,
    MIN_DEALS,
    WORK_PER_PROCESS,
    ExpertPolicy,
)
from bot.ai.playouts import Batch, Row
from bot.ai.search_pool import SearchPool
from bot.engine import Action, make_rules
from bot.engine.state import HandState
from bot.engine.views import SeatView, seat_view

from .helpers import mid_hand

SLOW = 600.0
RULES = make_rules("dagang")  # mid_hand's


class Scripted(SearchPool):
    """A search pool whose deal ``d`` scores candidate ``i`` as ``score(d, i)``."""

    def __init__(self, score: dict[int, list[float]], processes: int = 1) -> None:
        super().__init__(processes)
        self.score = score  # candidate -> its score on deals 0, 1, 2, … (cycled)
        self.batches: list[Batch] = []

    def run(self, batch: Batch) -> list[Row]:
        self.batches.append(batch)
        out: list[Row] = []
        for d in range(batch.first, batch.first + batch.deals):
            out.append([self.score[i][d % len(self.score[i])] for i in batch.live])
        return out


def _decision() -> tuple[SeatView, HandState, list[Action | None]]:
    state = mid_hand()
    seat = state.to_act
    assert seat is not None
    view = seat_view(state, seat)
    legal = options(state, seat)
    probe = ExpertPolicy(state.rules)
    cands = probe.candidates(view, legal, probe.normal.choose(view, legal, random.Random(0)))
    assert len(cands) >= 3
    return view, masked_state(state, seat), cands


def test_a_clear_leader_ends_the_race_after_one_batch() -> None:
    view, public, cands = _decision()
    # Candidate 1 beats normal's choice by a whole point on every deal: no noise at all.
    pool = Scripted({0: [0.0], 1: [1.0], 2: [0.0, 0.5], 3: [0.0]})
    expert = ExpertPolicy(RULES, work=200_000, max_seconds=SLOW, pool=pool)
    scores = expert.evaluate(view, public, cands, 5)
    assert expert.deals(sum(hand_sizes(view)), len(cands)) > MIN_DEALS
    assert len(pool.batches) == 1
    assert [len(s) for s in scores] == [MIN_DEALS] * 2 + [MIN_DEALS] * (len(cands) - 2)
    assert expert.pick(scores, expert.z_for(view)) == 1


def test_a_hopeless_alternative_leaves_at_one_standard_error() -> None:
    view, public, cands = _decision()
    # Alternative 1 gains 0.02 on average with a paired spread whose standard error over
    # 6 deals is ~0.009: gain + 2 se reaches the 0.03 margin (the old race kept it),
    # gain + 1 se does not (it leaves now). Alternative 2 ties normal's choice on every
    # deal and leaves too; 3 is far behind.
    ups = [0.04, 0.0, 0.04, 0.0, 0.04, 0.0]
    pool = Scripted({0: [0.0], 1: ups, 2: [0.0], 3: [-1.0]})
    expert = ExpertPolicy(RULES, work=200_000, max_seconds=SLOW, pool=pool)
    scores = expert.evaluate(view, public, cands, 5)
    assert len(pool.batches) == 1  # everyone left after the first batch: the search ends
    assert [len(s) for s in scores] == [MIN_DEALS] * len(cands)
    assert expert.pick(scores) == 0


@pytest.mark.parametrize("processes", [1, 2])
def test_an_early_decision_gets_the_early_budget(processes: int) -> None:
    view, public, cands = _decision()
    assert ExpertPolicy.early(view)
    # Every alternative ties normal's choice (never ahead) and margin -10 keeps it racing:
    # the race runs the whole budget, the early one.
    pool = Scripted({i: [0.0, 1.0] for i in range(len(cands))}, processes)
    expert = ExpertPolicy(RULES, max_seconds=SLOW, margin=-10.0, pool=pool)
    assert expert.budget(early=True) == EARLY_WORK_PER_PROCESS * processes
    assert expert.budget() == WORK_PER_PROCESS * processes
    cards = sum(hand_sizes(view))
    early = expert.deals(cards, len(cands), early=True)
    assert early < expert.deals(cards, len(cands))
    scores = expert.evaluate(view, public, cands, 5)
    assert [len(s) for s in scores] == [early] * len(cands)
    # A given ``work`` (a benchmark's own) holds at every stage unless ``early_work`` is.
    assert ExpertPolicy(work=5000).budget(early=True) == 5000
    assert ExpertPolicy(work=5000, early_work=700).budget(early=True) == 700


def test_without_the_race_every_candidate_plays_all_its_deals() -> None:
    # The scores the clear leader ended after one batch (above), and a hopeless third:
    # with ``race=False`` (the benchmarks that apply other rules afterwards) nobody leaves
    # and nobody ends it — every candidate has the decision's whole share of deals.
    view, public, cands = _decision()
    pool = Scripted({0: [0.0], 1: [1.0], 2: [0.0, 0.5], 3: [-1.0]})
    expert = ExpertPolicy(RULES, work=200_000, max_seconds=SLOW, pool=pool, race=False)
    scores = expert.evaluate(view, public, cands, 5)
    share = expert.deals(sum(hand_sizes(view)), len(cands))
    assert share > MIN_DEALS
    assert len(pool.batches) > 1
    assert [len(s) for s in scores] == [share] * len(cands)
    assert expert.pick(scores, expert.z_for(view)) == 1


def test_the_race_replayed_on_deals_played_ahead_is_the_tables_race() -> None:
    # benchmarks/race.py plays a decision's deals once, every candidate on each, and
    # replays the race on them: a candidate's playout must not depend on which others
    # still race, or the replay would not be the decision a table takes.
    from benchmarks.race import Served, played

    view, public, cands = _decision()
    table = ExpertPolicy(RULES, work=20_000, max_seconds=SLOW, pool=SearchPool(1))
    # the first seed whose race drops an alternative (the case a replay could get wrong)
    for seed in range(1, 40):
        scores = table.evaluate(view, public, cands, seed)
        if len({len(s) for s in scores}) > 1:
            break
    else:
        pytest.fail("no race dropped an alternative")
    rows = played(SearchPool(1), view, public, cands, seed, max(len(s) for s in scores))
    replay = ExpertPolicy(RULES, work=20_000, max_seconds=SLOW, pool=Served(rows, seed))
    assert replay.evaluate(view, public, cands, seed) == scores
