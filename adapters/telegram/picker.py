"""The step-by-step play picker over a seat's legal list: base rank → size → 2s and jokers.

Every screen is built from ``PrivateSnapshot.legal`` only, so a button can never offer a
play the engine would refuse, and the whole choice rides in the button's payload (no
per-user state to lose on a restart).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import I_BIG, I_SMALL, I_TWO, NOTATION, Counts
from bot.engine.movegen import group_by_rank_and_size
from bot.engine.plays import JOKERS_BASE, TWOS_BASE, Play

PAGE = 12  # variants per screen: 4 rows of 3 fit a phone


def play_of(counts: Counts) -> Play:
    """The play a legal action's cards make (legal lists hold only well-formed plays)."""
    twos, small, big = counts[I_TWO], counts[I_SMALL], counts[I_BIG]
    for i in range(12):
        if counts[i]:
            return Play(i + 3, counts[i], twos, small, big)
    if twos:
        return Play(TWOS_BASE, twos, 0, small, big)
    return Play(JOKERS_BASE, 0, 0, small, big)


def plays(legal: Sequence[Action], kind: ActionKind) -> list[Play]:
    return [play_of(a.cards) for a in legal if a.kind is kind and a.cards is not None]


def _rank_order(base: int) -> int:
    return 16 if base == JOKERS_BASE else base


def cost(p: Play) -> tuple[int, ...]:
    """Cheapest first: fewer big jokers, small jokers and 2s, then a lower rank, fewer cards."""
    return (p.big, p.small, p.twos, _rank_order(p.base), p.size)


def bases(options: Sequence[Play]) -> list[int]:
    return sorted({p.base for p in options}, key=_rank_order)


def sizes(options: Sequence[Play], base: int) -> list[int]:
    return sorted({size for b, size in group_by_rank_and_size(options) if b == base})


def variants(options: Sequence[Play], base: int, size: int) -> list[Play]:
    return sorted(group_by_rank_and_size(options).get((base, size), []), key=cost)


def cheapest(options: Sequence[Play], lead: bool) -> Play | None:
    """The one-tap choice. Answering: the cheapest play that beats the top. Leading: all of
    the lowest plain rank held, so a lead never splits a set."""
    if not options:
        return None
    if lead:
        plain = [p for p in options if not (p.twos or p.small or p.big)]
        if plain:
            low = min(_rank_order(p.base) for p in plain)
            return max((p for p in plain if _rank_order(p.base) == low), key=lambda p: p.n)
    return min(options, key=cost)


def contains(options: Sequence[Play], play: Play) -> bool:
    return any(tuple(p) == tuple(play) for p in options)


def return_owed(legal: Sequence[Action]) -> list[tuple[int, int]]:
    """(giver seat, number of cards) for each return of tribute this seat owes now."""
    owed: dict[int, int] = {}
    for a in legal:
        if a.kind is ActionKind.RETURN_TRIBUTE and a.target is not None and a.cards is not None:
            owed[a.target] = sum(a.cards)
    return sorted(owed.items())


def counts_of(notation: str) -> Counts:
    c = [0] * len(NOTATION)
    for ch in notation:
        c[NOTATION.index(ch)] += 1
    return tuple(c)
