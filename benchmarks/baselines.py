"""Two yardsticks for the AI ladder, written independently of ``bot.ai``'s players.

They are kept out of the shipped package on purpose: a level is measured against
players it does not share code with (only the engine and the Policy contract).

- ``GreedyPolicy``: always the cheapest beating play against an opponent (fewest 2s and
  jokers, then the lowest rank); leads its lowest rank, whole; passes on teammates.
- ``CarefulPolicy``: a "careful human" from the lecture's principles — 3s first (有3不发单),
  small whole sets; answers ordinary plays with whole sets up to K, splits only low
  ranks (掰牌), keeps A, 够级 sets, 2s and jokers for 够级 duels with the opposite, a
  short opponent or its own last ten cards (后半场); 让s the opposite's ordinary play
  rather than spend a J or better on it; burns only when the rest runs out with jokers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Action, ActionKind
from bot.engine.cards import I_BIG, I_SMALL, I_THREE, I_TWO
from bot.engine.plays import TWOS_BASE, Play, classify, is_gouji
from bot.engine.state import opp, same_team
from bot.engine.views import SeatView


def _play(a: Action, view: SeatView) -> Play:
    assert a.cards is not None
    return classify(a.cards, view.public.rules)


def _seat_cards(view: SeatView, seat: int) -> int | None:
    s = view.public.seats[seat - 1]
    return s.count if s.count is not None else s.reported


class GreedyPolicy:
    """The cheapest beating play, every time an opponent is on top."""

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        returns = [a for a in legal if a.kind is ActionKind.RETURN_TRIBUTE]
        if returns:
            first = returns[0]
            return min(
                (a for a in returns if a.target == first.target),
                key=lambda a: tuple(reversed(a.cards or ())),
            )
        plays = [a for a in legal if a.kind is ActionKind.PLAY]
        can_pass = any(a.kind is ActionKind.PASS for a in legal)
        if view.public.to_act != view.seat or not (plays or can_pass):
            return None  # no burns, revolts or declarations
        top = view.public.top_seat
        if can_pass and (not plays or top is None or same_team(top, view.seat)):
            return Action(ActionKind.PASS)

        def cheap(a: Action) -> tuple[int, int, int, int]:
            p = _play(a, view)
            base = p.base if p.base else 99
            split = p.base not in (0, TWOS_BASE) and p.n < view.hand[p.base - 3]
            return (p.jokers, p.twos, base, int(split))

        return min(plays, key=cheap)


class CarefulPolicy:
    """A cautious club player's rules of thumb (see the module docstring)."""

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        returns = [a for a in legal if a.kind is ActionKind.RETURN_TRIBUTE]
        if returns:
            return self._return(view, returns)
        plays = [(a, _play(a, view)) for a in legal if a.kind is ActionKind.PLAY]
        burns = [(a, _play(a, view)) for a in legal if a.kind is ActionKind.BURN]
        can_pass = any(a.kind is ActionKind.PASS for a in legal)
        rang = next((a for a in legal if a.kind is ActionKind.RANG), None)
        if view.public.to_act == view.seat and (plays or can_pass):
            if not can_pass:
                return self._lead(view, plays)
            return self._answer(view, plays, rang)
        if burns:
            return self._burn(view, burns)
        return None

    def _return(self, view: SeatView, returns: Sequence[Action]) -> Action:
        hand = view.hand
        first = returns[0]

        def key(a: Action) -> tuple[int, ...]:
            c = a.cards or ()
            # Give singles first (each saves a play), low before high.
            return tuple((0 if hand[i] == c[i] else 1) * 100 + i for i in range(len(c)) if c[i])

        return min((a for a in returns if a.target == first.target), key=key)

    def _lead(self, view: SeatView, plays: list[tuple[Action, Play]]) -> Action:
        hand = view.hand
        total = sum(hand)
        out = [c for c in plays if c[1].size == total]
        if out:
            return out[0][0]
        rules = view.public.rules
        if rules.bie_san and hand[I_THREE]:
            last = [c for c in plays if c[1].size == total - hand[I_THREE]]
            if last:
                return max(last, key=lambda c: (c[1].jokers, c[1].twos))[0]
        whole = [
            c
            for c in plays
            if 0 < c[1].base < TWOS_BASE
            and c[1].n == hand[c[1].base - 3]
            and not c[1].twos
            and not c[1].jokers
        ]
        if whole:
            return min(whole, key=lambda c: c[1].base)[0]
        return min(plays, key=lambda c: (c[1].jokers, c[1].twos, c[1].size, c[1].base))[0]

    def _answer(
        self, view: SeatView, plays: list[tuple[Action, Play]], rang: Action | None
    ) -> Action:
        pub = view.public
        me = view.seat
        top = pub.top_seat
        hand = view.hand
        passing = Action(ActionKind.PASS)
        total = sum(hand)
        finishing = [c for c in plays if c[1].size == total]
        if finishing:
            return finishing[0][0]
        if top is None or same_team(top, me):
            return passing
        short = (_seat_cards(view, top) or 99) <= 5
        duel = pub.top_gouji and top == opp(me)
        rules = pub.rules
        late = total <= 10  # 后半场: big cards are now for going out

        def ok(p: Play) -> bool:
            if p.big:
                return duel or short or (late and p.size >= 2)
            if p.small:
                return duel or short or late
            if p.base == TWOS_BASE or p.twos:
                return duel or short or late
            if p.n < hand[p.base - 3]:  # 掰牌: split only low ranks (挡三不挡四)
                return p.base <= 10 or duel
            if p.base == 14 or is_gouji(p, rules):  # A and 够级 sets wait for duels
                return duel or short or late
            return True

        def dear(p: Play) -> int:
            return 3 * p.big + 2 * p.small + p.twos + (p.n if p.base == TWOS_BASE else 0)

        good = [c for c in plays if ok(c[1])]
        if good:
            best = min(
                good,
                key=lambda c: (
                    dear(c[1]),
                    c[1].n < hand[c[1].base - 3] if 0 < c[1].base < TWOS_BASE else False,
                    c[1].base,
                ),
            )
            p = best[1]
            if rang is not None and not short and (p.base >= 11 or dear(p)):
                return rang  # 让: the teammate two seats on may take it cheaper
            return best[0]
        if rang is not None:
            return rang
        return passing

    def _burn(self, view: SeatView, burns: list[tuple[Action, Play]]) -> Action | None:
        top = view.public.top_seat
        if top is None or same_team(top, view.seat):
            return None
        hand = view.hand
        rules = view.public.rules
        for a, p in sorted(burns, key=lambda c: (c[1].jokers, c[1].twos, c[1].base)):
            rest = [h - c for h, c in zip(hand, p.counts(), strict=True)]
            groups = sum(1 for i in range(12) if rest[i])
            threes = rules.bie_san and rest[I_THREE] > 0
            jokers = rest[I_SMALL] + rest[I_BIG]
            runs_out = rules.burn_success == "first_trick" or jokers >= groups - 1 - int(threes)
            if runs_out and not (rest[I_TWO] and groups == 0 and jokers == 0):
                return a
        return None
