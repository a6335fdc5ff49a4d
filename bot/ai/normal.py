"""The ``normal`` level: a rule player built on the 《够级讲堂》 lecture's principles.

- 三个记住: it counts the 2s and jokers still out and knows which of its sets nobody can
  beat any more (``Seen``): those are 回牌, plays that come back to it.
- 出小牌 / 出回牌: it leads its lowest whole sets and keeps 2s, jokers and 够级-sized sets
  for 够级 duels; once its sure winners cover the rest of the hand it runs out with them.
- 出下家和对门不吃的牌: against a short opponent it leads sets bigger than its hand.
- Big cards: a 2 or a joker never answers an ordinary play unless an opponent is about to
  go out (or the answer ends our hand); a 够级-sized set is never spent on an ordinary
  play while a lower answer exists; splitting a 够级 set costs what the set is worth.
- 够级 duels: it answers its opposite's 够级牌 whenever the answer is worth it, above all
  when the play would open the opposite's point (开点).
- The team: it never beats a teammate unless the answer ends its hand, feeds a short
  teammate sets of its size, and 让s the opposite's ordinary play when its own answer
  would be dear, so the teammate two seats on can take it cheaply.
- Before play: 革命 with a hand that has no 2s, jokers or 够级 sets; 明点 only with a
  hand that can stop the opposite's pure 够级 sets (many jokers and 2s); burns only
  when the rest of the hand runs out under the burner's rule; 还贡 of its lowest singles.
- The endgame: once 四户乱缠 has begun and few cards are left, the rules of thumb give way
  to a search of the race (``endgame``; ``choose_searching``, within a fixed node budget).

Every choice is a pick from the legal list, so rules the engine enforces (憋三, 点四, who
may answer, the burner's joker rule) need no code here. It is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.actions import Action, ActionKind
from ..engine.cards import I_BIG, I_FOUR, I_THREE, I_TWO, parse
from ..engine.plays import JOKERS_BASE, TWOS_BASE, Play, is_gouji, is_pure_gouji, opens_point
from ..engine.rules import Rules
from ..engine.state import HandState, SeatStatus, down, opp, same_team, up
from ..engine.views import SeatView
from . import chong, endgame
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
from .endgame import DEFAULT_ENDGAME, EndgameConfig
from .hand import (
    jokers,
    last_play,
    minus,
    play_of,
    plays_needed,
)
from .plan import plan_hand
from .tracking import Seen, est_count, known_count, lead_streak, passed_on
from .tribute import pick_return


@dataclass(frozen=True, slots=True)
class NormalWeights:
    """Costs in rank steps (3 = 0 … A = 11) and the limits an answer may cost."""

    two: float = 5.0  # each 2 spent (贴钱 or alone)
    two_late: float = 4.0  # … once the hand is short (2s are then just high cards)
    small: float = 9.0
    big: float = 12.0
    joker_set: float = 4.0  # jokers alone, on top of their own cost
    split: float = 5.0  # leaving part of a rank behind
    split_gouji: float = 4.0  # … when that breaks a 够级-sized set into a smaller one
    gouji_set: float = 3.0  # spending a whole 够级-sized set on an ordinary play
    answer_plain: float = 16.0
    answer_early: float = 12.0  # … while the hand holds more than ``stage`` cards
    stage: int = 12
    answer_gouji: float = 20.0  # the opposite's 够级牌 (or any, when headless) …
    opens_bonus: float = 4.0  # … when letting it live would open the opposite's point
    # … more for a pure 够级牌: the real challenge (it opens under 打点), made without the
    # 2s and jokers a 够级牌 with them has already spent on it.
    pure_bonus: float = 6.0
    urgent: float = 40.0  # an opponent about to go out, or the answer nearly ends our hand
    takes_trick: float = 4.0
    upstream: float = 4.0
    cheap: float = 6.0  # answers this cheap are taken at once rather than 让
    hoard_two: float = 0.0  # per 2 on an ordinary play, unless an opponent is nearly out
    hoard_joker: float = 8.0  # jokers alone on an ordinary play, likewise
    abundant_scale: float = 0.4  # joker costs scale when they outnumber the groups left
    abundant_slack: float = 0.0
    two_share: float = 0.5  # a 2 counts as half a joker toward that
    use_rang: bool = True
    run_bonus: float = 8.0  # per trick in a row an opponent has led, on top of the first …
    run_cap: int = 2  # … counting at most this many
    run_short: int = 15  # … and only while the leader holds at most this many (a race)
    stop_burn: bool = True  # answer a burning opponent's play as if it were about to go out
    count_cards: bool = True  # count each seat's plays when the table shows no counts
    run_out: bool = True
    plan: bool = True  # run out with 回牌 that 2s and jokers make too (``plan.plan_hand``)
    near_out: int = 4
    late: int = 8  # a hand this short plays its 2s as high cards
    multi: float = 1.0  # lead bonus per card (up to 4): bigger sets are harder to answer
    block: float = 8.0
    feed: float = 6.0
    caught: float = 0.0  # 憋三: leaving one beatable play before the 3s
    open_lead: float = 0.0  # 打点, not yet opened: bonus for a play that opens if it lives
    void: float = 2.0  # lead bonus per seat (downstream, opposite) that passed on such a set
    last_big: float = 12.0  # 憋三: keep the last joker for the play before the 3s
    # … where a caught seat ranks 大落 at once (``men_is_last``), both weigh far more:
    last_big_men: float = 40.0
    guard_twos: bool = True  # … and, with no joker left, the last 2s likewise
    caught_men: float = 0.0
    # 点四: a play that leaves a seat that has not opened nothing but its locked 4s and its
    # 3s strands it (the 4s are discarded at its deadline; with only 3s it never wins a
    # trick to lead them: 大落), unless the play opens. Off: it measured no gain (the
    # seat is then caught before its 3s as often; docs/ai.md).
    strand: float = 0.0
    revolt_max_gouji: int = 1
    declare_min_jokers: int = 4  # 明点 only with this many jokers …
    declare_min_big: int = 2  # … of which this many big …
    declare_min_twos: int = 4  # … and this many 2s


DEFAULT_NORMAL = NormalWeights()
Prices = tuple[float, float, float]  # a 2, a small joker, a big joker


class NormalPolicy:
    """The ``normal`` level (see the module docstring). ``rules`` default to the view's."""

    def __init__(
        self,
        rules: Rules | None = None,
        weights: NormalWeights = DEFAULT_NORMAL,
        endgame: EndgameConfig | None = DEFAULT_ENDGAME,
    ) -> None:
        self.rules = rules
        self.w = weights
        self.endgame = endgame  # None: the rules of thumb to the end of the hand

    # -- the contract ----------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        rules = self.rules or view.public.rules
        returns = [a for a in legal if a.kind is ActionKind.RETURN_TRIBUTE]
        if returns:
            return pick_return(view.hand, returns, rules)
        revolt = next((a for a in legal if a.kind is ActionKind.REVOLT), None)
        if revolt is not None and self._wants_revolt(view, rules, rng):
            return revolt
        declare = next((a for a in legal if a.kind is ActionKind.DECLARE_POINT and not a.pre), None)
        if declare is not None and self._wants_declare(view):
            return declare
        chongdian = next((a for a in legal if a.kind is ActionKind.CHONGDIAN), None)
        if chongdian is not None and chong.wants_chongdian(view, rng):
            return chongdian
        hui = pick_hui(view, legal)
        if hui is not None:
            return hui
        can_pass = any(a.kind is ActionKind.PASS for a in legal)
        plays = choices(legal, ActionKind.PLAY)
        if view.public.to_act == view.seat and (plays or can_pass):
            rang = next((a for a in legal if a.kind is ActionKind.RANG), None)
            mate = down(down(view.seat))
            if view.public.seats[mate - 1].status is not SeatStatus.PLAYING:
                rang = None  # 让 helps only while the teammate two seats on can answer
            return self._turn(view, plays, can_pass, rang, rules)
        burns = choices(legal, ActionKind.BURN)
        if burns:
            return pick_burn(view, burns, rules, lambda p: self.cost(p, view.hand, rules))
        return None  # never waive 够死级 plays

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """``choose``, except in a free-play endgame (四户乱缠, few cards left), which it
        searches (``endgame``); ``public`` is ``masked_state`` for this seat."""
        base = self.choose(view, legal, rng)
        cfg = self.endgame
        if base is None or cfg is None or not endgame.applies(view, public, cfg):
            return base
        return endgame.choose(view, public, legal, base, rng, cfg)

    # -- costs ------------------------------------------------------------------------
    def cost(self, p: Play, hand: Sequence[int], rules: Rules) -> float:
        """How much of the hand's strength a play spends (lower is cheaper)."""
        return self._priced(p, hand, rules, self._prices(hand, rules))

    def _prices(self, hand: Sequence[int], rules: Rules) -> Prices:
        """What a 2, a small and a big joker cost from this hand (the same for every
        candidate play of a turn: a turn works them out once)."""
        w = self.w
        if self._abundant(hand, rules):
            # More 2s and jokers than groups left to cover: they are just the way out now.
            return w.two_late, w.small * w.abundant_scale, w.big * w.abundant_scale
        return (w.two_late if sum(hand) <= w.late else w.two), w.small, w.big

    def _priced(self, p: Play, hand: Sequence[int], rules: Rules, prices: Prices) -> float:
        """``cost`` at the hand's ``_prices``."""
        w = self.w
        two, small, big = prices
        out = card_cost(
            p, hand, two=two, small=small, big=big, joker_set=w.joker_set, split=w.split
        )
        if 0 < p.base < TWOS_BASE and p.n < (held := hand[p.base - 3]):
            whole = Play(p.base, held)
            if is_gouji(whole, rules) and not is_gouji(Play(p.base, held - p.n), rules):
                out += w.split_gouji  # breaking a 够级-sized set into a smaller one
        return out

    def _abundant(self, hand: Sequence[int], rules: Rules) -> bool:
        """Whether the 2s and jokers outnumber the rank groups still to be played."""
        groups = plays_needed(hand, rules)
        return jokers(hand) + hand[I_TWO] * self.w.two_share >= groups - 1 + self.w.abundant_slack

    def _spend_gouji(self, p: Play, hand: Sequence[int], rules: Rules) -> float:
        """Extra cost of a whole plain 够级-sized set used where any play would do."""
        if 0 < p.base < TWOS_BASE and not p.jokers and is_gouji(Play(p.base, p.n, p.twos), rules):
            return self.w.gouji_set
        return 0.0

    def _opening(self, view: SeatView, p: Play, rules: Rules) -> float:
        """打点: a seat that has not opened wants a pure 够级 set of its to live (开点);
        else it owes 点贡 next hand (and under 点四 its 4s are lost)."""
        if not self._opening_counts(view, rules):
            return 0.0
        return self.w.open_lead if opens_point(p, rules) else 0.0

    def _opening_counts(self, view: SeatView, rules: Rules) -> bool:
        """Whether ``_opening`` can be other than 0.0 for this seat now."""
        me = view.public.seats[view.seat - 1]
        return bool(rules.dadian and not me.opened and self.w.open_lead)

    def _caught_risk(self, p: Play, hand: Sequence[int], rules: Rules, seen: Seen) -> float:
        """憋三: a play that leaves one beatable play before the 3s invites 闷 (被憋三)."""
        weight = self.w.caught_men if rules.men_is_last else self.w.caught
        if not (rules.bie_san and hand[I_THREE] and weight):
            return 0.0
        rest = minus(hand, p.counts())
        if sum(rest) == rest[I_THREE]:
            return 0.0
        final = last_play(rest, rules)
        return weight if final is not None and seen.beatable(final) else 0.0

    def _may_strand(self, view: SeatView, rules: Rules) -> bool:
        """Whether ``_strands`` can be other than 0.0 for this seat now."""
        me = view.public.seats[view.seat - 1]
        return bool(self.w.strand and rules.dian_si and view.hand[I_FOUR] and not me.opened)

    def _strands(self, p: Play, hand: Sequence[int], rules: Rules) -> float:
        """点四, not yet opened: a play that leaves only the locked 4s and the 3s (see
        ``NormalWeights.strand``); a play that opens if it lives is the way out."""
        rest = minus(hand, p.counts())
        left = sum(rest)
        if not left or left != rest[I_THREE] + rest[I_FOUR] or opens_point(p, rules):
            return 0.0
        return self.w.strand

    def _keep_for_threes(self, p: Play, hand: Sequence[int], rules: Rules) -> float:
        """Under 憋三 the best card left guards the play before the 3s (else 闷 is likely)."""
        if not spends_last_guard(p, hand, rules, self.w.guard_twos):
            return 0.0
        return self.w.last_big_men if rules.men_is_last else self.w.last_big

    # -- turns ------------------------------------------------------------------------
    def _turn(
        self,
        view: SeatView,
        plays: list[Choice],
        can_pass: bool,
        rang: Action | None,
        rules: Rules,
    ) -> Action:
        hand = view.hand
        total = sum(hand)
        finish = [c for c in plays if c[1].size == total]
        if finish:
            return min(finish, key=lambda c: self.cost(c[1], hand, rules))[0]
        if not can_pass:
            if view.public.seats[view.seat - 1].status is SeatStatus.REVOLTED and plays:
                # 冲点: the hand is dead afterwards; lead what is hardest to beat.
                return max(plays, key=lambda c: chong.hardness(c[1]))[0]
            return self._lead(view, plays, rules)
        return self._answer(view, plays, rang, rules)

    def _lead(self, view: SeatView, plays: list[Choice], rules: Rules) -> Action:
        hand = view.hand
        total = sum(hand)
        if rules.bie_san and hand[I_THREE]:
            last = [c for c in plays if c[1].size == total - hand[I_THREE]]
            if last:
                return max(last, key=lambda c: self.cost(c[1], hand, rules))[0]
        if view.public.seats[view.seat - 1].burning:
            return burner_lead(plays, hand)
        plain = [c for c in plays if 0 < c[1].base < TWOS_BASE and not (c[1].twos or c[1].jokers)]
        whole = [c for c in plain if c[1].n == hand[c[1].base - 3]]
        if not whole:
            return min(plays, key=lambda c: self.cost(c[1], hand, rules))[0]
        back = self._run_out(view, plays, plain, whole, rules)
        if back is not None:
            return back
        w = self.w
        opp_n = self._known_min(view, mates=False)
        mate_n = self._known_min(view, mates=True)
        downstream = self._count(view, down(view.seat))
        voids = [passed_on(view, x) for x in (down(view.seat), opp(view.seat)) if w.void]
        seen = Seen.of(view)
        prices = self._prices(hand, rules)  # the same for every candidate: once

        def score(c: Choice) -> float:
            p = c[1]
            s = self._priced(p, hand, rules, prices) + self._spend_gouji(p, hand, rules)
            s -= w.multi * min(p.size, 4) + self._opening(view, p, rules)
            s += self._caught_risk(p, hand, rules, seen)
            if opp_n is not None and p.size > opp_n:
                s -= w.block  # an opponent this short cannot answer a bigger set
            elif downstream is not None and downstream <= w.near_out and p.size <= downstream:
                s += w.block  # the next seat could go out on it
            if mate_n is not None and mate_n <= w.near_out and p.size == mate_n:
                s -= w.feed  # a set the size of a short teammate's hand may let it out
            for passed in voids:  # 出下家和对门不吃的牌: they passed on such a set before
                if p.base >= passed.get(p.size, TWOS_BASE):
                    s -= w.void
            return s

        return min(whole, key=score)[0]

    def _run_out(
        self,
        view: SeatView,
        plays: list[Choice],
        plain: list[Choice],
        whole: list[Choice],
        rules: Rules,
    ) -> Action | None:
        """出回牌: when the sets nobody can beat cover all but one of the others, run out."""
        if not self.w.run_out or self._fours_first(plain, whole):
            return None
        seen = Seen.of(view)
        if self.w.plan:
            return self._run_out_planned(view, plays, whole, rules, seen)
        winners = [c for c in whole if not seen.beatable(c[1])]
        losers = plays_needed(view.hand, rules) - len(winners)
        if not winners or losers > len(winners) + 1:
            return None
        if losers <= 0:
            return min(winners, key=lambda c: c[1].base)[0]
        # Lead the losers first while a winner waits to take the lead back.
        rest = [c for c in whole if c not in winners]
        return min(rest, key=lambda c: c[1].base)[0] if rest else None

    def _run_out_planned(
        self, view: SeatView, plays: list[Choice], whole: list[Choice], rules: Rules, seen: Seen
    ) -> Action | None:
        """出回牌 by the hand plan: the 回牌 count the sets 2s and jokers make unbeatable."""
        pl = plan_hand(view.hand, rules, seen)
        if not (pl.winners or pl.made) or not pl.runs_out():
            return None
        if pl.losers:  # the losers first while a 回牌 waits to take the lead back
            low = pl.losers[0]
            return next((c[0] for c in whole if c[1] == low), None)
        sure = [c for c in whole if c[1] in pl.winners]
        if sure:
            return min(sure, key=lambda c: c[1].base)[0]
        by_play = {c[1]: c[0] for c in plays}
        return next((by_play[p] for p in pl.made if p in by_play), None)

    @staticmethod
    def _fours_first(plain: list[Choice], whole: list[Choice]) -> bool:
        return len(whole) == 1 and whole[0][1].base == 4 and len(plain) == 1

    def _known_min(self, view: SeatView, mates: bool) -> int | None:
        return known_min(view, mates, lambda seat: self._count(view, seat))

    def _answer(
        self, view: SeatView, plays: list[Choice], rang: Action | None, rules: Rules
    ) -> Action:
        pub = view.public
        me = view.seat
        top = pub.top_seat
        passing = Action(ActionKind.PASS)
        if top is None or same_team(top, me) or not plays:
            return passing  # never take a trick from a teammate unless it ends our hand
        hand = view.hand
        w = self.w
        if pub.seats[top - 1].status is SeatStatus.REVOLTED:
            return self._answer_chong(plays, hand, rules)
        duel = pub.top_gouji and (top == opp(me) or pub.seats[me - 1].headless)
        # A burner runs out unless its opposite beats one of its plays (解烧): stop it.
        urgent = self._near_out(view, top) or (w.stop_burn and pub.seats[top - 1].burning)

        cost_of = self._answer_cost(view, rules, duel, urgent)
        best = min(plays, key=cost_of)
        cost = cost_of(best)
        rest = minus(hand, best[1].counts())
        limit = self._limit(view, duel, urgent, rest, rules)
        if cost > limit:
            return rang if rang is not None else passing
        if w.use_rang and rang is not None and cost > w.cheap and not urgent:
            return rang  # the teammate two seats on may take it cheaper; we still decide
        return best[0]

    def _answer_cost(
        self, view: SeatView, rules: Rules, duel: bool, urgent: bool
    ) -> Callable[[Choice], float]:
        """What each answer costs this seat now (the lowest is the candidate answer)."""
        hand = view.hand
        w = self.w
        seen = Seen.of(view)
        # What is the same for every candidate is worked out once; the terms that are
        # 0.0 for this hand and table are skipped (adding 0.0 changes no cost).
        prices = self._prices(hand, rules)
        hoard = not urgent and not self._abundant(hand, rules)  # 2s, jokers: 够级 duels
        threes = bool(rules.bie_san and hand[I_THREE])  # else no 憋三 term applies
        opening = self._opening_counts(view, rules)
        strand = self._may_strand(view, rules)

        def cost_of(c: Choice) -> float:
            p = c[1]
            c_ = self._priced(p, hand, rules, prices)
            if threes:
                c_ += self._keep_for_threes(p, hand, rules)
                c_ += self._caught_risk(p, hand, rules, seen)
            if strand:
                c_ += self._strands(p, hand, rules)
            if not duel:
                spend = self._spend_gouji(p, hand, rules)
                if opening:
                    spend -= self._opening(view, p, rules)
                c_ += spend
                if hoard:
                    twos = p.twos + (p.n if p.base == TWOS_BASE else 0)
                    c_ += w.hoard_two * twos
                    if p.base == JOKERS_BASE:
                        c_ += w.hoard_joker  # a lone joker fired at an ordinary play
            return c_

        return cost_of

    def _answer_chong(self, plays: list[Choice], hand: Sequence[int], rules: Rules) -> Action:
        """冲点: a pure answer opens our point and sheds cards; beating all three of the
        revolter's plays sends it to 大落, so a dear answer is worth it here too."""
        pure = [c for c in plays if is_pure_gouji(c[1])]
        if pure:
            return min(pure, key=lambda c: self.cost(c[1], hand, rules))[0]
        best = min(plays, key=lambda c: self.cost(c[1], hand, rules))
        if self.cost(best[1], hand, rules) <= self.w.urgent:
            return best[0]
        return Action(ActionKind.PASS)

    def _limit(
        self, view: SeatView, duel: bool, urgent: bool, rest: Sequence[int], rules: Rules
    ) -> float:
        """What an answer may cost. 打后半场: early in the hand only cheap answers are
        worth it (the big cards wait for the second half); late, any sound answer is."""
        w = self.w
        pub = view.public
        top = pub.top_seat
        if duel:
            limit = w.answer_gouji
            top_play = _top_play(pub.top_cards)
            if top_play is not None and is_pure_gouji(top_play):
                limit += w.pure_bonus
            if (
                rules.dadian
                and top not in _opened(view)
                and top_play is not None
                and opens_point(top_play, rules)
            ):
                limit += w.opens_bonus
        else:
            limit = w.answer_plain if sum(view.hand) <= w.stage else w.answer_early
            if self._others_passed(view):
                limit += w.takes_trick  # the other two opponents passed: the answer likely wins
            elif top == up(view.seat):
                limit -= w.upstream  # both other opponents still to come: it rarely holds
            limit += self._run_bonus(view)
        if urgent or plays_needed(rest, rules) <= 1:
            limit = max(limit, w.urgent)
        return limit

    def _run_bonus(self, view: SeatView) -> float:
        """An opponent that keeps the lead trick after trick sheds a set each time while
        the table passes: its lead is worth answering at a higher price."""
        w = self.w
        if not w.run_bonus:
            return 0.0
        pub = view.public
        leader, streak = lead_streak(view)
        if leader is None or leader != pub.top_seat or same_team(leader, view.seat):
            return 0.0
        if (self._count(view, leader) or 0) > w.run_short:
            return 0.0
        last = next((m for m in reversed(pub.history) if isinstance(m.act, Play)), None)
        if last is None or last.over is not None:
            return 0.0  # someone answered the lead in this trick
        return w.run_bonus * min(streak - 1, w.run_cap)

    @staticmethod
    def _others_passed(view: SeatView) -> bool:
        """Both opponents other than the opposite passed in this trick (soft evidence: they
        hold nothing they wanted to play on it; a pass locks them out of the trick)."""
        me = view.seat
        seats = view.public.seats
        others = (down(me), up(me))
        return all(
            seats[s - 1].last == "pass" or seats[s - 1].status is not SeatStatus.PLAYING
            for s in others
        )

    def _count(self, view: SeatView, seat: int) -> int | None:
        """A seat's card count: shown or 报户, else (``count_cards``) dealt minus played."""
        return est_count(view, seat) if self.w.count_cards else known_count(view, seat)

    def _near_out(self, view: SeatView, seat: int) -> bool:
        n = self._count(view, seat)
        return n is not None and 0 < n <= self.w.near_out

    # -- before play ------------------------------------------------------------------
    def _wants_revolt(self, view: SeatView, rules: Rules, rng: random.Random) -> bool:
        gouji = revolt_gouji(view, rules)
        if gouji is None:
            return False
        if gouji <= self.w.revolt_max_gouji:
            return True
        # Strong 够级 sets and no 2s or jokers: revolt only to 冲点 with them.
        return rules.chongdian and rules.dadian and chong.wants_chongdian(view, rng)

    def _wants_declare(self, view: SeatView) -> bool:
        """明点: the opposite opens only if a pure 够级 set of its lives, and we answer it."""
        hand = view.hand
        w = self.w
        return (
            jokers(hand) >= w.declare_min_jokers
            and hand[I_BIG] >= w.declare_min_big
            and hand[I_TWO] >= w.declare_min_twos
        )


def _opened(view: SeatView) -> set[int]:
    return {s.seat for s in view.public.seats if s.opened}


def _top_play(cards: str | None) -> Play | None:
    return play_of(parse(cards)) if cards else None
