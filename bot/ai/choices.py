"""Rules of thumb both rule players (``easy`` and ``normal``) share, over the legal list.

A *choice* pairs a legal action with the play its cards make. What is here is the same
for both levels; where they differ (weights, card counting) the caller passes it in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.actions import Action, ActionKind, HuiRanks
from ..engine.cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO
from ..engine.plays import JOKERS_BASE, TWOS_BASE, Play, is_gouji
from ..engine.rules import Rules
from ..engine.state import SeatStatus, same_team
from ..engine.views import SeatView
from .hand import RANK_SLOTS, jokers, minus, play_of_counts, runs_out_burning

Choice = tuple[Action, Play]


def choices(legal: Sequence[Action], kind: ActionKind) -> list[Choice]:
    """The legal actions of ``kind`` that carry cards, each with its play."""
    return [(a, play_of_counts(a.cards)) for a in legal if a.kind is kind and a.cards]


def card_cost(
    p: Play,
    hand: Sequence[int],
    *,
    two: float,
    small: float,
    big: float,
    joker_set: float,
    split: float,
) -> float:
    """What a play spends, in rank steps (3 = 0 … A = 11): its rank, a 2 or a joker at
    the given prices, and ``split`` for leaving part of a rank behind (it still needs a
    play of its own)."""
    if p.base == JOKERS_BASE:
        rank = joker_set
    elif p.base == TWOS_BASE:
        rank = 12.0 + two * (p.n - 1)
    else:
        rank = float(p.base - 3)
        if p.n < hand[p.base - 3]:
            rank += split
    return rank + two * p.twos + small * p.small + big * p.big


def burner_lead(plays: list[Choice], hand: Sequence[int]) -> Action:
    """A burner's lead: one joker per play stretches the jokers over the most groups;
    a big one first since nobody can beat it, so the burn is not released."""

    def key(c: Choice) -> tuple[int, bool, int, int, int]:
        p = c[1]
        whole = 0 < p.base < TWOS_BASE and p.n == hand[p.base - 3]
        return (p.jokers, not whole, p.twos, -p.big, p.base)

    return min(plays, key=key)[0]


def spends_last_guard(p: Play, hand: Sequence[int], rules: Rules, twos: bool = False) -> bool:
    """Under 憋三: whether ``p`` spends the best joker left before the play that goes
    ahead of the 3s (that play is caught, 闷, if anyone beats it); with ``twos``, the last
    2s of a hand without jokers count as its guard too."""
    if not (rules.bie_san and hand[I_THREE]) or p.size >= sum(hand) - hand[I_THREE]:
        return False
    if hand[I_BIG]:
        return p.big >= hand[I_BIG]
    if hand[I_SMALL]:
        return p.small >= hand[I_SMALL]
    if twos and hand[I_TWO]:
        return p.twos + (p.n if p.base == TWOS_BASE else 0) >= hand[I_TWO]
    return False


def known_min(view: SeatView, mates: bool, count: Callable[[int], int | None]) -> int | None:
    """The fewest cards a playing teammate (or opponent) holds, by ``count`` (seat → count
    or None when unknown)."""
    known = [
        n
        for s in view.public.seats
        if s.seat != view.seat
        and same_team(s.seat, view.seat) == mates
        and s.status is SeatStatus.PLAYING
        and (n := count(s.seat)) is not None
    ]
    return min(known, default=None)


def pick_burn(
    view: SeatView, burns: list[Choice], rules: Rules, cost: Callable[[Play], float]
) -> Action | None:
    """Burn to go out at once; else only an opponent's 够级牌, and only with a burn after
    which the rest of the hand runs out under the burner's rule (any burn wins outright
    under ``burn_success: first_trick``) — the cheapest such burn by ``cost``."""
    hand = view.hand
    total = sum(hand)
    top = view.public.top_seat
    finish = [c for c in burns if c[1].size == total]
    if finish:
        return finish[0][0]
    if top is None or same_team(top, view.seat):
        return None
    if rules.burn_success == "first_trick":
        ok = burns
    else:
        ok = [c for c in burns if runs_out_burning(minus(hand, c[1].counts()), rules)]
    if not ok:
        return None
    return min(ok, key=lambda c: cost(c[1]))[0]


def revolt_gouji(view: SeatView, rules: Rules) -> int | None:
    """For a hand that may sensibly revolt (no 2s, no jokers, nobody revolted yet: a
    second revolt voids the hand), how many 够级-sized ranks it holds; else None."""
    if any(s.status is SeatStatus.REVOLTED for s in view.public.seats):
        return None
    hand = view.hand
    if hand[I_TWO] or jokers(hand):
        return None
    return sum(1 for i in range(RANK_SLOTS) if is_gouji(Play(i + 3, hand[i]), rules))


# 烩 sets a low rank aside only while the leader holds it in a set this small: a bigger set
# of 3s or 4s is a lead few seats can answer (it needs as many of a higher rank).
HUI_MAX = 3


def pick_hui(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """烩 (RULES §10; the leader, before the first play): every hand's 3s (and/or 4s) are
    set aside. A low rank answers nothing and costs its holder a play of its own (3 是死牌),
    so the leader sets aside the low ranks it holds in a small set; none it does not hold
    (that only saves the other seats a play)."""
    offered = {a.ranks: a for a in legal if a.kind is ActionKind.HUI and a.ranks is not None}
    if not offered:
        return None
    want = "".join(r for r, i in (("3", I_THREE), ("4", I_FOUR)) if 0 < view.hand[i] <= HUI_MAX)
    if want and HuiRanks(want) in offered:
        return offered[HuiRanks(want)]
    if "3" in want and HuiRanks.THREES in offered:
        return offered[HuiRanks.THREES]  # the table allows only 3s
    return None
