"""A rule-of-thumb player: dump low sets, keep 2s and jokers for 够级 duels, help the team.

Every choice is a pick from the legal list the engine gave, so the policy never needs to
know a rule the engine already enforces (憋三, 点四, burner's joker rule, who may answer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import Action, ActionKind
from ..engine.cards import I_THREE, I_TWO
from ..engine.plays import GOUJI_MIN, TWOS_BASE, Play
from ..engine.rules import Rules
from ..engine.state import opp, same_team
from ..engine.views import SeatView
from .choices import (
    Choice,
    burner_lead,
    card_cost,
    choices,
    known_min,
    pick_burn,
    pick_hui,
    revolt_gouji,
    spends_last_guard,
)
from .hand import jokers, minus, plays_needed
from .tribute import pick_return

KING = 13


@dataclass(frozen=True, slots=True)
class Weights:
    """What spending a card costs, in 'rank steps' (3 = 0 … A = 11)."""

    two: float = 5.0
    small: float = 9.0
    big: float = 12.0
    joker_set: float = 4.0  # a play of jokers alone, on top of what its jokers cost
    split: float = 5.0  # leaving part of a rank behind: the rest still needs its own play
    answer_plain: float = 16.0  # any answer from plain cards is worth the trick
    answer_gouji: float = 22.0  # the opposite's 够级牌 is worth a 2 or so
    urgent: float = 40.0  # stop an opponent about to go out (or go out ourselves)
    near_out: int = 4  # "about to go out": this many cards or fewer
    multi: float = 1.0  # per card (up to 4) of a lead: bigger sets are harder to answer
    block: float = 8.0  # lead a set bigger than a short opponent's whole hand
    feed: float = 6.0  # lead a set the size of a short teammate's hand
    last_big: float = 20.0  # under 憋三: spending the last big (else small) joker early
    revolt_max_gouji: int = 1  # revolt only with at most this many 够级-sized ranks
    chong_sets: int = 3  # 冲点 with this many strong pure 够级牌 (K or A, or a big set)
    declare_jokers: int = 4  # 明点 with this many jokers …
    declare_twos: int = 4  # … and this many 2s: enough to stop the opposite's 够级牌


DEFAULT_WEIGHTS = Weights()


class HeuristicPolicy:
    """A sensible, fast, deterministic player (it never needs the rng).

    ``rules`` defaults to the table's rules as the public view shows them.
    """

    def __init__(self, rules: Rules | None = None, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rules = rules
        self.w = weights
        self._by_preset: dict[str, Rules] = {}

    # -- the contract ----------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        rules = self._rules(view)
        returns = [a for a in legal if a.kind is ActionKind.RETURN_TRIBUTE]
        if returns:
            return pick_return(view.hand, returns, rules)
        revolt = next((a for a in legal if a.kind is ActionKind.REVOLT), None)
        if revolt is not None and self._wants_revolt(view, rules):
            return revolt
        before = self._before_play(view, legal)
        if before is not None:
            return before
        can_pass = any(a.kind is ActionKind.PASS for a in legal)
        plays = choices(legal, ActionKind.PLAY)
        if view.public.to_act == view.seat and (plays or can_pass):
            return self._turn(view, plays, can_pass, rules)
        burns = choices(legal, ActionKind.BURN)
        if burns:
            return pick_burn(view, burns, rules, lambda p: self.cost(p, view.hand))
        return None  # never waive 够死级 plays

    def _before_play(self, view: SeatView, legal: Sequence[Action]) -> Action | None:
        """冲点, 明点 and 烩, by simple counts of the hand (no sampling, no card memory)."""
        hand = view.hand
        w = self.w
        chongdian = next((a for a in legal if a.kind is ActionKind.CHONGDIAN), None)
        if chongdian is not None and strong_sets(hand) >= w.chong_sets:
            return chongdian
        declare = next((a for a in legal if a.kind is ActionKind.DECLARE_POINT and not a.pre), None)
        strong = jokers(hand) >= w.declare_jokers and hand[I_TWO] >= w.declare_twos
        if declare is not None and strong:
            return declare
        return pick_hui(view, legal)

    def _rules(self, view: SeatView) -> Rules:
        if self.rules is not None:
            return self.rules
        return view.public.rules

    # -- costs ------------------------------------------------------------------------
    def cost(self, p: Play, hand: Sequence[int]) -> float:
        """How much of the hand's strength a play spends (lower is cheaper)."""
        w = self.w
        return card_cost(
            p, hand, two=w.two, small=w.small, big=w.big, joker_set=w.joker_set, split=w.split
        )

    # -- turns ------------------------------------------------------------------------
    def _turn(self, view: SeatView, plays: list[Choice], can_pass: bool, rules: Rules) -> Action:
        hand = view.hand
        total = sum(hand)
        finish = [c for c in plays if c[1].size == total]
        if finish:
            return min(finish, key=lambda c: self.cost(c[1], hand))[0]
        if not can_pass:
            return self._lead(view, plays, rules)
        return self._answer(view, plays, rules)

    def _lead(self, view: SeatView, plays: list[Choice], rules: Rules) -> Action:
        hand = view.hand
        total = sum(hand)
        if rules.bie_san and hand[I_THREE]:
            # The play before the 3s is caught (闷) if beaten: make it one strong play.
            last = [c for c in plays if c[1].size == total - hand[I_THREE]]
            if last:
                return max(last, key=lambda c: self.cost(c[1], hand))[0]
        if view.public.seats[view.seat - 1].burning:
            return burner_lead(plays, hand)
        # Low rank groups, nothing attached: 2s and jokers stay for 够级 duels.
        plain = [c for c in plays if 0 < c[1].base < TWOS_BASE and not (c[1].twos or c[1].jokers)]
        if not plain:
            return min(plays, key=lambda c: self.cost(c[1], hand))[0]
        w = self.w
        opp_n = self._known_min(view, mates=False)
        mate_n = self._known_min(view, mates=True)

        def score(c: Choice) -> float:
            p = c[1]
            s = self.cost(p, hand) - w.multi * min(p.size, 4)
            if opp_n is not None and p.size > opp_n:
                s -= w.block  # an opponent this short cannot answer a bigger set
            if mate_n is not None and mate_n <= w.near_out and p.size == mate_n:
                s -= w.feed  # a set the size of a short teammate's hand may let it out
            return s

        return min(plain, key=score)[0]

    @staticmethod
    def _known_min(view: SeatView, mates: bool) -> int | None:
        """The fewest cards a playing teammate (or opponent) is known to hold."""
        return known_min(view, mates, lambda seat: _shown_count(view, seat))

    def _answer(self, view: SeatView, plays: list[Choice], rules: Rules) -> Action:
        pub = view.public
        me = view.seat
        top = pub.top_seat
        passing = Action(ActionKind.PASS)
        if top is None or same_team(top, me) or not plays:
            return passing  # never take a trick from a teammate unless it ends our hand
        hand = view.hand

        def cost_of(c: Choice) -> float:
            return self.cost(c[1], hand) + self._keep_for_threes(c[1], hand, rules)

        best = min(plays, key=cost_of)
        cost = cost_of(best)
        limit = self.w.answer_plain
        if pub.top_gouji and top == opp(me):
            limit = self.w.answer_gouji
        rest = minus(hand, best[1].counts())
        if self._near_out(view, top) or plays_needed(rest, rules) <= 1:
            limit = self.w.urgent
        return best[0] if cost <= limit else passing

    def _keep_for_threes(self, p: Play, hand: Sequence[int], rules: Rules) -> float:
        """Under 憋三 the best card left guards the play before the 3s (else 闷 is likely)."""
        return self.w.last_big if spends_last_guard(p, hand, rules) else 0.0

    def _near_out(self, view: SeatView, seat: int) -> bool:
        n = _shown_count(view, seat)
        return n is not None and n <= self.w.near_out

    # -- before play ------------------------------------------------------------------
    def _wants_revolt(self, view: SeatView, rules: Rules) -> bool:
        # 够级-sized ranks are what wins tricks without 2s or jokers.
        gouji = revolt_gouji(view, rules)
        if gouji is None:
            return False
        # Strong 够级 sets and no 2s or jokers: revolt only to 冲点 with them.
        chong = rules.chongdian and rules.dadian and strong_sets(view.hand) >= self.w.chong_sets
        return gouji <= self.w.revolt_max_gouji or chong


def strong_sets(hand: Sequence[int]) -> int:
    """Pure 够级牌 that are hard to beat without 2s and jokers: K or A, or two cards more
    than the rank's 够级 size."""
    return sum(
        1
        for rank, need in GOUJI_MIN.items()
        if hand[rank - 3] >= need and (rank >= KING or hand[rank - 3] >= need + 2)
    )


def _shown_count(view: SeatView, seat: int) -> int | None:
    s = view.public.seats[seat - 1]
    return s.count if s.count is not None else s.reported
