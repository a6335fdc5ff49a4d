"""Writes the review tests' deliberately bad hands (scenario files, RULES §15).

``python -m tests.ai.review.make_scenarios`` plays seeded hands with ``normal`` at every
seat, except that one seat makes one deliberately bad play the first time its situation
arises late in the hand, and keeps the first seed where the play is clearly bad — judged
alone with ``STRONG`` (60 deals) it costs at least ``MIN_COST`` place points — and where
the whole review ranks it first both with the tests' budget and with ``ReviewConfig()``:

- ``pass_gouji``: the opposite plays a 够级牌 with ``LATE`` cards or fewer left, the seat
  holds exactly one answer (normal would play it) and passes instead;
- ``break_gouji``: an opponent plays a small single (below 10), the seat holds ``LATE``
  cards or fewer with a 够级-sized set of 10s to As among them and answers with one card
  of it, where normal would not (the highest such rank).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.ai.normal import NormalPolicy
from bot.ai.review import ReviewConfig, judge, review
from bot.ai.selfplay import play_hand
from bot.ai.tracking import est_count
from bot.engine.actions import Action, ActionKind
from bot.engine.game import new_hand
from bot.engine.plays import GOUJI_MIN
from bot.engine.rules import make_rules
from bot.engine.state import SEATS, opp, same_team
from bot.engine.views import SeatView
from bot.records import HandRecord, hand_scenario
from bot.records.record import record_json
from bot.records.scenario import replay_scenario

HERE = Path(__file__).parent
CONFIG = ReviewConfig.quick()  # the tests' budget (12 deals)
STRONG = ReviewConfig(deals=60)
MIN_COST = 1.0
LATE = 12

Sabotage = Callable[[SeatView, Sequence[Action], Action | None], Action | None]


def pass_gouji(view: SeatView, legal: Sequence[Action], base: Action | None) -> Action | None:
    pub = view.public
    if pub.top_seat != opp(view.seat) or not pub.top_gouji or pub.leading:
        return None
    if est_count(view, pub.top_seat) > LATE:
        return None
    plays = [a for a in legal if a.kind is ActionKind.PLAY]
    passes = [a for a in legal if a.kind is ActionKind.PASS]
    if len(plays) == 1 and passes and base == plays[0]:
        return passes[0]
    return None


def break_gouji(view: SeatView, legal: Sequence[Action], base: Action | None) -> Action | None:
    pub = view.public
    top = pub.top_cards
    if pub.leading or pub.top_seat is None or same_team(pub.top_seat, view.seat) or not top:
        return None
    if len(top) != 1 or top not in "3456789" or sum(view.hand) > LATE:
        return None
    for rank in sorted(GOUJI_MIN, reverse=True):
        if view.hand[rank - 3] < GOUJI_MIN[rank]:
            continue
        single = next(
            (
                a
                for a in legal
                if a.kind is ActionKind.PLAY
                and a.cards is not None
                and sum(a.cards) == 1
                and a.cards[rank - 3] == 1
            ),
            None,
        )
        if single is not None and single != base:
            return single
    return None


class Saboteur:
    """``normal``, except for one bad play the first time ``sabotage`` offers one."""

    def __init__(self, sabotage: Sabotage) -> None:
        self.normal = NormalPolicy()
        self.sabotage = sabotage
        self.step: int | None = None

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        base = self.normal.choose(view, legal, rng)
        if self.step is None and view.public.to_act == view.seat:
            bad = self.sabotage(view, legal, base)
            if bad is not None:
                self.step = view.public.step
                return bad
        return base


def attempt(kind: str, seed: int, seat: int) -> dict[str, object] | None:
    rules = make_rules("dagang")
    state, _ = new_hand(rules, seed, 1)
    saboteur = Saboteur(pass_gouji if kind == "pass_gouji" else break_gouji)
    policies = [saboteur if s == seat else NormalPolicy() for s in SEATS]
    log = play_hand(state, policies, random.Random(seed))
    if saboteur.step is None:
        return None
    raw = record_json(
        match_id=1,
        hand_no=1,
        deal_no=1,
        seed=seed,
        leader=1,
        owed=(),
        names=[f"#{s}" for s in SEATS],
        log=log.actions,
        state=log.state,
    )
    scenario = hand_scenario(HandRecord.from_json(raw, 1))
    played = replay_scenario(scenario)[0]
    bad = next(
        i
        for i, line in enumerate(played.actions)
        if line["seat"] == seat and played.states[i].step == saboteur.step
    )
    scenario["description"] = f"review test: seat {seat} {kind} at action {bad} (seed {seed})"
    chosen = Action.from_json(dict(played.actions[bad]))
    alone = judge(played.states[bad], seat, chosen, STRONG, bad)
    print(kind, seed, "bad at", bad, "alone:", None if alone is None else alone.to_json())
    if alone is None or alone.cost < MIN_COST:
        return None
    for cfg in (CONFIG, ReviewConfig()):
        got = review(played, seat, cfg)
        print(kind, seed, cfg.deals, "deals:", [m.to_json() for m in got.mistakes])
        if not got.mistakes or got.mistakes[0].step != bad:
            return None
    return scenario


def main(argv: Sequence[str]) -> int:
    kind = argv[0]
    for seed in range(int(argv[1]) if len(argv) > 1 else 1, 2000):
        got = attempt(kind, seed, 4)
        if got is not None:
            (HERE / f"{kind}.json").write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n")
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
