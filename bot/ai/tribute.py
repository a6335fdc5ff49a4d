"""还贡: which cards a receiver hands back."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.cards import I_THREE, NUM_RANKS, Counts
from ..engine.rules import Rules
from .hand import RANK_SLOTS

LOW_SLOTS = 8  # 3 … 10: a single J or higher still wins tricks, so it is not "low"


def return_cards(hand: Sequence[int], count: int, rules: Rules) -> Counts:
    """The ``count`` cards to give back: lowest singles (3 … 10) first, then the lowest cards.

    A single low card is a whole play saved; 2s and jokers are never given while a rank
    card is left. Under 憋三 the last 3 is kept, since a seat without one must buy a 3
    with a 2.
    """
    left = list(hand)
    out = [0] * NUM_RANKS

    def keep_last_three(i: int) -> bool:
        return rules.bie_san and i == I_THREE and left[i] == 1

    for _ in range(count):
        singles = [i for i in range(LOW_SLOTS) if left[i] == 1 and not keep_last_three(i)]
        others = [i for i in range(RANK_SLOTS) if left[i] and not keep_last_three(i)]
        pool = singles or others or [i for i in range(NUM_RANKS) if left[i]]
        i = pool[0]
        left[i] -= 1
        out[i] += 1
    return tuple(out)


def pick_return(hand: Sequence[int], legal: Sequence[Action], rules: Rules) -> Action:
    """The legal RETURN_TRIBUTE action giving ``return_cards`` to the first giver owed."""
    first = legal[0]
    count = sum(first.cards or ())
    want = return_cards(hand, count, rules)
    for a in legal:
        if a.target == first.target and a.cards == want:
            return a
    return first  # unreachable while return_cards picks from the hand
