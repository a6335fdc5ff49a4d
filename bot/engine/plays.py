"""Plays (牌套) of RULES.md §4–6: classification, strength, 够级牌 and 开点 plays."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .cards import I_BIG, I_SMALL, I_TWO, NUM_RANKS, Counts, rank_char
from .errors import ErrorCode, IllegalAction
from .rules import Rules

TWOS_BASE = 15  # a play of 2s alone
JOKERS_BASE = 0  # a play of jokers alone

# Lowest size at which each base rank is a 够级牌 (ranks 3–9 never are without a joker).
GOUJI_MIN = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2}


class Play(NamedTuple):
    """One play: ``n`` cards of ``base`` plus added 2s (贴钱) and jokers (挂花).

    A NamedTuple rather than a dataclass: legal-move generation creates thousands of
    these per call, and tuple construction is several times cheaper.
    """

    base: int
    n: int
    twos: int = 0
    small: int = 0
    big: int = 0

    @property
    def size(self) -> int:
        return self.n + self.twos + self.small + self.big

    @property
    def others(self) -> int:
        """Cards that are not jokers (the base cards and added 2s)."""
        return self.n + self.twos

    @property
    def jokers(self) -> int:
        return self.small + self.big

    def counts(self) -> Counts:
        return _counts(self)

    def notation(self) -> str:
        """Canonical ascending notation, e.g. ``888SS``."""
        head = rank_char(self.base) * self.n if self.base else ""
        return head + "2" * self.twos + "S" * self.small + "B" * self.big


# A play's count vector is asked for again and again (legal lists, menus, costs): one
# per distinct play, built once. Bounded: far more than the plays a bot meets.
@lru_cache(maxsize=1 << 15)
def _counts(p: Play) -> Counts:
    c = [0] * NUM_RANKS
    if p.base == TWOS_BASE:
        c[I_TWO] = p.n
    elif p.base:
        c[p.base - 3] = p.n
        c[I_TWO] = p.twos
    c[I_SMALL] = p.small
    c[I_BIG] = p.big
    return tuple(c)


def classify(counts: Sequence[int], rules: Rules) -> Play:
    """The play a multiset of cards makes, or IllegalAction saying why it is none."""
    if not any(counts):
        raise IllegalAction(ErrorCode.EMPTY_PLAY)
    bases = [i for i in range(12) if counts[i]]
    twos, small, big = counts[I_TWO], counts[I_SMALL], counts[I_BIG]
    if len(bases) > 1:
        raise IllegalAction(ErrorCode.MIXED_RANKS, ranks="".join(rank_char(i + 3) for i in bases))
    if bases:
        base = bases[0] + 3
        if twos and not rules.tie_qian:
            raise IllegalAction(ErrorCode.NO_TIE_QIAN)
        if base == 3 and rules.bie_san and (twos or small or big):
            raise IllegalAction(ErrorCode.THREES_ALONE)
        if base == 4 and rules.dian_si and (twos or small or big):
            raise IllegalAction(ErrorCode.FOURS_ALONE)
        return Play(base, counts[bases[0]], twos, small, big)
    if twos:
        return Play(TWOS_BASE, twos, 0, small, big)
    return Play(JOKERS_BASE, 0, 0, small, big)


def effective_jokers(p: Play, rules: Rules) -> tuple[int, int]:
    """(small, big) after `mixed_jokers`: under ``small`` a mixed play's jokers all count small."""
    if rules.mixed_jokers == "small" and p.small and p.big:
        return p.small + p.big, 0
    return p.small, p.big


def _higher_others(a: Play, t: Play) -> bool:
    # Jokers count as cards above every plain rank: an answer with no other cards is higher.
    if a.n + a.twos == 0:
        return True
    if t.n + t.twos == 0:
        return False
    return a.base > t.base


def beats(a: Play, t: Play, rules: Rules) -> bool:
    """Whether answer ``a`` beats ``t``, the play on top (RULES §5)."""
    t_small, t_big = effective_jokers(t, rules)
    if t_big:
        return kills(a, t, t_big, rules)
    if a.n + a.twos + a.small + a.big != t.n + t.twos + t.small + t.big:
        return False
    a_small, a_big = effective_jokers(a, rules)
    if t_small:
        enough = a_big >= t_small or (
            rules.small_joker_beaten_by == "more_jokers" and a_small + a_big > t_small
        )
        return enough and _higher_others(a, t)
    if not a.small and not a.big:
        return a.base > t.base
    return _higher_others(a, t)


def kills(a: Play, t: Play, k: int, rules: Rules) -> bool:
    """Whether ``a`` kills ``t``, a play with ``k`` big jokers (the kill switches of §5).

    "2k"/"3k" mean at least; jokers beyond those the kill needs may stand as the answer's
    other cards (each above every plain rank), which must match the top's other cards in
    number and rank higher. One answer uses one kind of kill. The top's small jokers add
    nothing to ``k`` and are not other cards.
    """
    a_small, a_big = effective_jokers(a, rules)
    plain = a.n + a.twos  # the answer's non-joker cards
    need = t.n + t.twos  # the top's other cards
    stand_ins = need - plain  # jokers that must stand as other cards
    higher = stand_ins >= 0 and (plain == 0 or a.base > t.base)
    if rules.kill_two_big and higher and a_big >= 2 * k and a_small + a_big - 2 * k >= stand_ins:
        return True
    if rules.kill_three_small and higher and not a_big and a_small - 3 * k >= stand_ins:
        return True
    return bool(
        rules.kill_three_twos
        and need == 0
        and not effective_jokers(t, rules)[0]
        and a.base == TWOS_BASE
        and not a.small
        and not a.big
        and a.n >= 3 * k
    )


def is_gouji(p: Play, rules: Rules) -> bool:
    """够级牌 (RULES §6): any joker, or a high enough base rank and size."""
    if p.small or p.big:
        return True
    if p.base == TWOS_BASE:
        return p.n >= rules.gouji_twos
    need = GOUJI_MIN.get(p.base)
    return need is not None and p.n + p.twos >= need


def is_pure_gouji(p: Play) -> bool:
    """纯够级: no jokers, no added 2s, base 10..A, and a 够级牌."""
    if p.small or p.big or p.twos:
        return False
    need = GOUJI_MIN.get(p.base)
    return need is not None and p.n >= need


def opens_point(p: Play, rules: Rules) -> bool:
    """Whether this play, when it lives, 开点 for its player (RULES §11)."""
    if rules.kaidian_plays == "no_big_joker":
        return p.big == 0 and is_gouji(p, rules)
    if is_pure_gouji(p):
        return True
    if p.base == TWOS_BASE and not p.small and not p.big and is_gouji(p, rules):
        return rules.kaidian_twos == "single" or (rules.kaidian_twos == "pair" and p.n >= 2)
    return False
