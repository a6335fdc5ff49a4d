"""Hand arithmetic for the policies: plays from count vectors, groups, run-out checks.

Works on the engine's 15-slot count vectors (3 … A, 2, small joker, big joker).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..engine.cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO, Counts
from ..engine.plays import JOKERS_BASE, TWOS_BASE, Play
from ..engine.rules import Rules

RANK_SLOTS = 12  # 3 … A: the slots a play can take as its base rank


def play_of(cards: Sequence[int]) -> Play:
    """The Play a legal card multiset makes (no validation: the engine already did it)."""
    return play_of_counts(cards if type(cards) is tuple else tuple(cards))


# A policy reads the same legal actions back into plays at every turn: each distinct card
# multiset is read once (bounded: far more than the plays a bot meets).
@lru_cache(maxsize=1 << 15)
def play_of_counts(cards: Counts) -> Play:
    """``play_of`` for a count tuple (an action's cards), memoised."""
    for i in range(RANK_SLOTS):
        if cards[i]:
            return Play(i + 3, cards[i], cards[I_TWO], cards[I_SMALL], cards[I_BIG])
    if cards[I_TWO]:
        return Play(TWOS_BASE, cards[I_TWO], 0, cards[I_SMALL], cards[I_BIG])
    return Play(JOKERS_BASE, 0, 0, cards[I_SMALL], cards[I_BIG])


def jokers(hand: Sequence[int]) -> int:
    return hand[I_SMALL] + hand[I_BIG]


def rank_groups(hand: Sequence[int]) -> int:
    """Distinct base ranks 3 … A held: the plays the hand needs before 2s and jokers."""
    return sum(1 for i in range(RANK_SLOTS) if hand[i])


# Ranks that never carry 2s or jokers, by (憋三, 点四): a lookup, asked at every cost.
_PLAIN_ONLY = {
    (False, False): (),
    (True, False): (I_THREE,),
    (False, True): (I_FOUR,),
    (True, True): (I_THREE, I_FOUR),
}


def plain_only_slots(rules: Rules) -> tuple[int, ...]:
    """Ranks that never carry 2s or jokers: 3s under 憋三, 4s under 点四."""
    return _PLAIN_ONLY[rules.bie_san, rules.dian_si]


def plays_needed(hand: Sequence[int], rules: Rules) -> int:
    """A lower bound on the plays that empty the hand: one per rank, 2s and jokers ride along.

    2s and jokers attach to any rank group that may carry them; with none, they make one
    play of their own.
    """
    counts = hand if type(hand) is tuple else tuple(hand)
    return _plays_needed(counts, plain_only_slots(rules))


# Asked for the hand and for what each candidate play leaves, several times a turn:
# remembered per (hand, plain-only ranks), bounded.
@lru_cache(maxsize=1 << 14)
def _plays_needed(hand: Counts, plain: tuple[int, ...]) -> int:
    groups = rank_groups(hand)
    carriers = sum(1 for i in range(RANK_SLOTS) if hand[i] and i not in plain)
    extras = hand[I_TWO] + jokers(hand)
    if extras and not carriers:
        groups += 1
    return groups


def runs_out_burning(hand: Sequence[int], rules: Rules) -> bool:
    """Whether a burner holding ``hand`` can lead out: every play but the last needs a joker.

    Plain-only ranks (3s, 4s) can never carry a joker, so at most one of them may remain
    and it must be the last play. 2s ride on a rank group, or make a group of their own.
    """
    if not any(hand):
        return True
    plain = plain_only_slots(rules)
    n_plain = sum(1 for i in plain if hand[i])
    n_other = sum(1 for i in range(RANK_SLOTS) if hand[i] and i not in plain)
    if hand[I_TWO] and not n_other:
        n_other = 1
    if n_plain > 1:
        return False
    j = jokers(hand)
    if n_plain == 1:
        # Unopened 4s under 点四 cannot be led at all; 3s may close the hand.
        if rules.dian_si and hand[I_FOUR]:
            return False
        return j >= n_other
    return j >= n_other - 1


def minus(hand: Sequence[int], cards: Sequence[int]) -> Counts:
    return tuple(h - c for h, c in zip(hand, cards, strict=True))


def last_play(hand: Sequence[int], rules: Rules) -> Play | None:
    """The one play that empties ``hand`` but its 3s under 憋三 (every other card together),
    or None when those cards need more than one play."""
    rest = list(hand)
    if rules.bie_san:
        rest[I_THREE] = 0
    ranks = [i for i in range(RANK_SLOTS) if rest[i]]
    if len(ranks) > 1 or not any(rest):
        return None
    small, big = rest[I_SMALL], rest[I_BIG]
    if ranks:
        i = ranks[0]
        if i in plain_only_slots(rules) and (rest[I_TWO] or small or big):
            return None
        return Play(i + 3, rest[i], rest[I_TWO], small, big)
    if rest[I_TWO]:
        return Play(TWOS_BASE, rest[I_TWO], 0, small, big)
    return Play(JOKERS_BASE, 0, 0, small, big)
