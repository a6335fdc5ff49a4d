"""A third yardstick: the lecture's advice for the back of the hand (《够级讲堂》, seed 000).

Written independently of ``bot.ai``'s players (only the engine and the Policy contract), and
playing differently from ``normal``: where ``normal`` prices every answer by a cost model,
this player follows a few plain rules a club player quotes for the second half of a hand.

- 打后半场 — "原则上9以上的牌不能动": while the hand is long it answers ordinary plays only
  with whole sets up to J (splitting only up to 9: 挡三不挡四); A, 够级 sets, 2s and jokers
  wait for the second half (15 cards or fewer), 够级 duels and a seat about to go out.
- 憋三 (keep the 3s for last, and a guard for the play before them): the last group before
  the 3s leaves with every joker and 2 the hand still holds, so it cannot be beaten
  (被闷); the last joker is never spent on anything but that guard, a finishing play or a
  seat about to go out.
- 点四 / 开点 (a seat must open before its 4s count, and under 青岛's rules before it may
  burn): not yet opened, it leads its best pure 够级 set of Q or higher whenever it has the
  lead ("争取一套够级牌发一套小牌"), and fights the opposite's opening plays hard (控点);
  it 开点s before it thinks of burning, and burns only when the rest then runs out.
- Who goes last — "剩四人时：先让再打 … 让弱势联邦先混走": in 四户乱缠 it answers an
  opponent with plain cards only (2s, jokers and 够级 sets wait unless the opponent is about
  to go out), and leads a set the size of its shortest teammate's hand so the weaker seat
  goes out first.
- 小花早挂: where it must spend a joker, a small one goes before a big one.
- Before play: never revolts or 冲点s; 明点 with three big jokers; 烩 its 3s (and 4s) when
  it holds them (they are 死牌: nobody can answer with them); returns its lowest singles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Action, ActionKind
from bot.engine.actions import HuiRanks
from bot.engine.cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO
from bot.engine.plays import TWOS_BASE, Play, classify, is_gouji, is_pure_gouji, opens_point
from bot.engine.state import SeatStatus, opp, same_team
from bot.engine.views import SeatView

Option = tuple[Action, Play]
LONG_HAND = 15  # more cards than this: the first half of the hand
NEAR_OUT = 4


def _options(view: SeatView, legal: Sequence[Action], kind: ActionKind) -> list[Option]:
    rules = view.public.rules
    return [(a, classify(a.cards or (), rules)) for a in legal if a.kind is kind]


def _count(view: SeatView, seat: int) -> int | None:
    s = view.public.seats[seat - 1]
    return s.count if s.count is not None else s.reported


def _playing(view: SeatView, seat: int) -> bool:
    return view.public.seats[seat - 1].status is SeatStatus.PLAYING


def _groups(hand: Sequence[int]) -> int:
    """Plain rank groups still to play (3 … A)."""
    return sum(1 for i in range(I_TWO) if hand[i])


def _whole(p: Play, hand: Sequence[int]) -> bool:
    return 0 < p.base < TWOS_BASE and p.n == hand[p.base - 3]


def _plain(p: Play) -> bool:
    return 0 < p.base < TWOS_BASE and not (p.twos or p.jokers)


def _dear(p: Play) -> tuple[int, int, int]:
    """Big jokers, then small ones, then 2s (小花早挂: a small joker before a big one)."""
    twos = p.twos + (p.n if p.base == TWOS_BASE else 0)
    return (p.big, p.small, twos)


class LecturePolicy:
    """The lecture's back-of-the-hand player (see the module docstring)."""

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        kinds = {a.kind for a in legal}
        if ActionKind.RETURN_TRIBUTE in kinds:
            return self._return(view, legal)
        hui = self._hui(view, legal)
        if hui is not None:
            return hui
        declare = next((a for a in legal if a.kind is ActionKind.DECLARE_POINT and not a.pre), None)
        if declare is not None and view.hand[I_BIG] >= 3:
            return declare
        plays = _options(view, legal, ActionKind.PLAY)
        can_pass = ActionKind.PASS in kinds
        if view.public.to_act == view.seat and (plays or can_pass):
            if not can_pass:
                return self._lead(view, plays)
            rang = next((a for a in legal if a.kind is ActionKind.RANG), None)
            return self._answer(view, plays, rang)
        burns = _options(view, legal, ActionKind.BURN)
        return self._burn(view, burns) if burns else None

    # -- before play ----------------------------------------------------------------
    @staticmethod
    def _return(view: SeatView, legal: Sequence[Action]) -> Action:
        returns = [a for a in legal if a.kind is ActionKind.RETURN_TRIBUTE]
        first = returns[0]
        hand = view.hand

        def key(a: Action) -> tuple[int, ...]:
            c = a.cards or ()
            # singles 5 and up first (3s and 4s may be what 憋三/点四 keep), low first
            return tuple(
                (0 if hand[i] == c[i] and i > I_FOUR else 1) * 100 + i
                for i in range(len(c))
                if c[i]
            )

        return min((a for a in returns if a.target == first.target), key=key)

    @staticmethod
    def _hui(view: SeatView, legal: Sequence[Action]) -> Action | None:
        """烩 the 死牌 it holds: 3s and 4s answer nothing and cost a play each."""
        offered = {a.ranks: a for a in legal if a.kind is ActionKind.HUI}
        if not offered:
            return None
        has3, has4 = view.hand[I_THREE] > 0, view.hand[I_FOUR] > 0
        for want, ok in ((HuiRanks.BOTH, has3 and has4), (HuiRanks.THREES, has3)):
            if ok and want in offered:
                return offered[want]
        if has4 and HuiRanks.FOURS in offered:
            return offered[HuiRanks.FOURS]
        return None

    # -- leads ----------------------------------------------------------------------
    def _lead(self, view: SeatView, plays: list[Option]) -> Action:
        hand = view.hand
        total = sum(hand)
        out = [o for o in plays if o[1].size == total]
        if out:
            return out[0][0]
        rules = view.public.rules
        threes = hand[I_THREE] if rules.bie_san else 0
        guard = [o for o in plays if o[1].size == total - threes]
        if threes and guard:  # the play before the 3s: everything, so it cannot be beaten
            return max(guard, key=lambda o: (o[1].jokers, o[1].twos))[0]
        whole = [o for o in plays if _plain(o[1]) and _whole(o[1], hand)]
        if not whole:
            return min(plays, key=lambda o: (_dear(o[1]), o[1].size, o[1].base))[0]
        me = view.public.seats[view.seat - 1]
        if rules.dadian and not me.opened:
            opening = [o for o in whole if is_pure_gouji(o[1]) and o[1].base >= 12]
            if opening and _groups(hand) > 2:
                return max(opening, key=lambda o: (o[1].base, o[1].n))[0]
        feed = self._feed(view, whole)
        if feed is not None:
            return feed
        # the lowest whole set, but keep one strong set for before the 3s
        keep = max(whole, key=lambda o: (o[1].base, o[1].n)) if threes and len(whole) > 1 else None
        rest = [o for o in whole if o is not keep] or whole
        return min(rest, key=lambda o: (o[1].base, -o[1].n))[0]

    @staticmethod
    def _feed(view: SeatView, whole: list[Option]) -> Action | None:
        """先让再打, 让弱势联邦先走: feed the shortest teammate a set of its size."""
        if not view.public.free_play:
            return None
        mates = [
            n
            for s in range(1, 7)
            if s != view.seat and same_team(s, view.seat) and _playing(view, s)
            if (n := _count(view, s)) is not None
        ]
        if not mates:
            return None
        short = min(mates)
        fits = [o for o in whole if o[1].size == short]
        return min(fits, key=lambda o: o[1].base)[0] if fits else None

    # -- answers --------------------------------------------------------------------
    def _answer(self, view: SeatView, plays: list[Option], rang: Action | None) -> Action:
        pub = view.public
        hand = view.hand
        passing = Action(ActionKind.PASS)
        total = sum(hand)
        out = [o for o in plays if o[1].size == total]
        if out:
            return out[0][0]
        top = pub.top_seat
        if top is None or same_team(top, view.seat) or not plays:
            return passing
        urgent = (_count(view, top) or 99) <= NEAR_OUT or pub.seats[top - 1].burning
        fine = [o for o in plays if self._allowed(view, o[1], top, urgent)]
        if not fine:
            return rang if rang is not None else passing
        best = min(fine, key=lambda o: (_dear(o[1]), not _whole(o[1], hand), o[1].base))
        if rang is not None and not urgent and best[1].base >= 10 and not pub.top_gouji:
            return rang  # the teammate two seats on may take it cheaper
        return best[0]

    def _allowed(self, view: SeatView, p: Play, top: int, urgent: bool) -> bool:
        pub = view.public
        rules = pub.rules
        n = sum(view.hand)
        if self._spends_guard(view, p):
            return False
        if urgent:
            return True
        dear = p.jokers or p.twos or p.base == TWOS_BASE or is_gouji(p, rules)
        if pub.free_play and len(pub.out_order) >= 2 and dear:
            return False  # 四户乱缠: 先让再打 — the big cards wait for who goes out next
        if pub.top_gouji and top == opp(view.seat):
            top_play = classify_top(view)
            opening = top_play is not None and rules.dadian and opens_point(top_play, rules)
            return p.big == 0 or opening or n <= LONG_HAND
        if dear:
            return n <= LONG_HAND and not p.big  # the second half, a small joker first
        whole = _whole(p, view.hand)
        limit = (11 if whole else 9) if n > LONG_HAND else 14
        return p.base <= limit

    @staticmethod
    def _spends_guard(view: SeatView, p: Play) -> bool:
        """憋三: the last joker guards the play before the 3s."""
        hand = view.hand
        if not (view.public.rules.bie_san and hand[I_THREE]):
            return False
        left = hand[I_SMALL] + hand[I_BIG]
        return p.jokers > 0 and p.jokers >= left

    # -- burns ----------------------------------------------------------------------
    @staticmethod
    def _burn(view: SeatView, burns: list[Option]) -> Action | None:
        """Burn (only ever after 开点, where the rules ask it) when the rest runs out."""
        top = view.public.top_seat
        if top is None or same_team(top, view.seat):
            return None
        hand = view.hand
        for a, p in sorted(burns, key=lambda o: _dear(o[1])):
            rest = [h - c for h, c in zip(hand, p.counts(), strict=True)]
            jokers = rest[I_SMALL] + rest[I_BIG] + rest[I_TWO] // 2
            threes = 1 if view.public.rules.bie_san and rest[I_THREE] else 0
            if jokers >= _groups(rest) - threes:
                return a
        return None


def classify_top(view: SeatView) -> Play | None:
    """The play on top, from its notation."""
    from bot.engine.cards import parse

    cards = view.public.top_cards
    return classify(parse(cards), view.public.rules) if cards else None
