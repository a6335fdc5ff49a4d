"""Ranks, count vectors and the one-character card notation of RULES.md §3.

Suits never matter for strength, so the engine holds cards as count vectors: a tuple of
15 counts indexed by ``rank - 3`` (3 … A, 2, small joker, big joker).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Sequence
from enum import IntEnum

from .errors import ErrorCode, IllegalAction


class Rank(IntEnum):
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    SMALL = 16
    BIG = 17


Counts = tuple[int, ...]

NUM_RANKS = 15
NOTATION = "3456789TJQKA2SB"
I_THREE, I_FOUR, I_TWO, I_SMALL, I_BIG = 0, 1, 12, 13, 14
EMPTY: Counts = (0,) * NUM_RANKS
_CHAR_INDEX = {ch: i for i, ch in enumerate(NOTATION)}
_CHAR_INDEX.update({ch.lower(): i for ch, i in list(_CHAR_INDEX.items()) if ch.isalpha()})
PER_RANK = 16  # four decks x four suits
JOKERS_EACH = 4


def rank_char(rank: int) -> str:
    return NOTATION[rank - 3]


def parse(text: str) -> Counts:
    """Parse notation such as ``SS888`` into counts; whitespace is ignored."""
    counts = [0] * NUM_RANKS
    for pos, ch in enumerate(text, start=1):  # positions count from 1, as a person does
        if ch.isspace():
            continue
        idx = _CHAR_INDEX.get(ch)
        if idx is None:
            raise IllegalAction(ErrorCode.BAD_NOTATION, char=ch, position=pos)
        counts[idx] += 1
    return tuple(counts)


def fmt(counts: Sequence[int]) -> str:
    """Canonical notation: ascending rank order, e.g. ``888SS``."""
    return "".join(NOTATION[i] * n for i, n in enumerate(counts))


def total(counts: Sequence[int]) -> int:
    return sum(counts)


def add(a: Sequence[int], b: Sequence[int]) -> Counts:
    _same_length(a, b)
    return tuple(map(operator.add, a, b))


def sub(a: Sequence[int], b: Sequence[int]) -> Counts:
    _same_length(a, b)
    return tuple(map(operator.sub, a, b))


def contains(hand: Sequence[int], cards: Sequence[int]) -> bool:
    _same_length(hand, cards)
    return all(map(operator.ge, hand, cards))


# ``map`` over two count vectors is a third of a generator's cost (every action adds and
# takes cards), but stops at the shorter one: the lengths are checked here instead.
def _same_length(a: Sequence[int], b: Sequence[int]) -> None:
    if len(a) != len(b):
        raise ValueError(f"count vectors of different lengths: {len(a)} and {len(b)}")


def from_ranks(ranks: Iterable[int]) -> Counts:
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r - 3] += 1
    return tuple(counts)


def full_deck(remove_threes: int = 0, remove_fours: int = 0, remove_fives: int = 0) -> Counts:
    counts = [PER_RANK] * 13 + [JOKERS_EACH, JOKERS_EACH]
    counts[I_THREE] -= remove_threes
    counts[I_FOUR] -= remove_fours
    counts[2] -= remove_fives
    return tuple(counts)


def deal(deck: Counts, rng: random.Random, first_seat: int) -> tuple[Counts, ...]:
    """Shuffle and deal one card at a time from ``first_seat`` (1..6) counter-clockwise."""
    cards = [i for i, n in enumerate(deck) for _ in range(n)]
    rng.shuffle(cards)
    hands = [[0] * NUM_RANKS for _ in range(6)]
    for k, idx in enumerate(cards):
        hands[(first_seat - 1 + k) % 6][idx] += 1
    return tuple(tuple(h) for h in hands)
