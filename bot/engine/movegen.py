"""Legal plays from count vectors: generate only what can be played, never filter all.

Leads enumerate each base rank with the 2s and jokers it may carry; answers enumerate
only plays of the top's size whose other cards rank higher with enough jokers, which all
beat it by construction; only the kill plays (a big joker on top, a kill switch on) are
checked with ``beats``, on that short list.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import I_BIG, I_SMALL, I_TWO
from .plays import JOKERS_BASE, TWOS_BASE, Play, beats, effective_jokers
from .rules import Rules

FoursMode = Literal["free", "forbid", "must"]
_new = tuple.__new__


@dataclass(frozen=True, slots=True)
class Constraints:
    """What limits one seat's plays beyond the cards: 点四, and the burner's joker rule."""

    fours: FoursMode = "free"
    need_joker: bool = False


FREE = Constraints()


def _joker_pairs(small: int, big: int) -> list[tuple[int, int]]:
    return [(s, b) for s in range(small + 1) for b in range(big + 1)]


def _plain_only(rank: int, rules: Rules) -> bool:
    return (rank == 3 and rules.bie_san) or (rank == 4 and rules.dian_si)


def gen_leads(hand: Sequence[int], rules: Rules, cons: Constraints = FREE) -> list[Play]:
    """Every legal lead for a hand."""
    total = sum(hand)
    if not total:
        return []
    if rules.bie_san and hand[0] == total:
        return [Play(3, total)]
    if cons.fours == "must" and hand[1]:
        # Forced by 点四, so allowed even to a burner (RULES §8: 4s are always plain).
        return [Play(4, hand[1])]
    twos, small, big = hand[I_TWO], hand[I_SMALL], hand[I_BIG]
    tq = twos if rules.tie_qian else 0
    js = _joker_pairs(small, big)
    out: list[Play] = []
    for i in range(12):
        c = hand[i]
        if not c:
            continue
        r = i + 3
        if r == 3 and rules.bie_san:
            continue
        if r == 4 and rules.dian_si:
            if cons.fours != "forbid":
                out.extend([_new(Play, (4, n, 0, 0, 0)) for n in range(1, c + 1)])
            continue
        out.extend(
            [
                _new(Play, (r, n, t, s, b))
                for n in range(1, c + 1)
                for t in range(tq + 1)
                for s, b in js
            ]
        )
    if twos:
        out.extend([_new(Play, (TWOS_BASE, n, 0, s, b)) for n in range(1, twos + 1) for s, b in js])
    out.extend([_new(Play, (JOKERS_BASE, 0, 0, s, b)) for s, b in js if s or b])
    if cons.need_joker:
        out = [p for p in out if p[3] or p[4] or p.size == total]
    return out


def _others_parts(
    hand: Sequence[int], size: int, above: int, rules: Rules, cons: Constraints
) -> list[tuple[int, int, int]]:
    """(base, n, twos) with n + twos == size and base > above: the non-joker part of a play."""
    twos = hand[I_TWO]
    tq = twos if rules.tie_qian else 0
    parts: list[tuple[int, int, int]] = []
    for r in range(max(3, above + 1), 15):
        c = hand[r - 3]
        if not c:
            continue
        if _plain_only(r, rules):
            # 3s never beat anything; 4s answer only once released by `unopened_fours`.
            if r == 4 and cons.fours == "free" and c >= size:
                parts.append((4, size, 0))
            continue
        for n in range(max(1, size - tq), min(c, size) + 1):
            parts.append((r, n, size - n))
    if above < TWOS_BASE and 0 < size <= twos:
        parts.append((TWOS_BASE, size, 0))
    return parts


def gen_answers(
    hand: Sequence[int], top: Play, rules: Rules, cons: Constraints = FREE
) -> list[Play]:
    """Every play from ``hand`` that beats ``top``."""
    t_small, t_big = effective_jokers(top, rules)
    if t_big:
        out = [p for p in _kill_candidates(hand, top, t_big, rules, cons) if beats(p, top, rules)]
    else:
        out = []
        for pairs, parts in _answer_shapes(hand, top, t_small, rules, cons):
            out.extend([_new(Play, (base, n, t, s, b)) for base, n, t in parts for s, b in pairs])
    if cons.need_joker:
        total = sum(hand)
        out = [p for p in out if p[3] or p[4] or p.size == total]
    return out


def has_answer(hand: Sequence[int], top: Play, rules: Rules, cons: Constraints = FREE) -> bool:
    """Whether ``gen_answers`` would find any: it stops at the first answer (a player
    counting cards asks this of the whole unseen pool, where listing every answer is
    most of the cost of deciding)."""
    total = sum(hand)
    t_small, t_big = effective_jokers(top, rules)
    if t_big:
        return any(
            beats(p, top, rules) and (not cons.need_joker or p[3] or p[4] or p.size == total)
            for p in _kill_candidates(hand, top, t_big, rules, cons)
        )
    for pairs, parts in _answer_shapes(hand, top, t_small, rules, cons):
        # A shape's pairs all hold the same number of jokers: none only in [(0, 0)].
        if parts and (not cons.need_joker or pairs[0] != (0, 0) or top.size == total):
            return True
    return False


def _answer_shapes(
    hand: Sequence[int], top: Play, t_small: int, rules: Rules, cons: Constraints
) -> Iterator[tuple[list[tuple[int, int]], list[tuple[int, int, int]]]]:
    """The answers to ``top`` (no big joker after ``mixed_jokers``) as the products they
    are: per count of jokers, the (small, big) pairs that are enough, and the (base, n,
    2s) parts of the other cards. Every play of such a product beats ``top`` (RULES §5:
    same size; parts rank above the top's, or are jokers only), so ``beats`` need not
    be asked of each; the order is that of the plain enumeration, pair innermost."""
    small, big = hand[I_SMALL], hand[I_BIG]
    size = top.size
    above = top.base if top.n + top.twos else TWOS_BASE  # jokers-only tops: jokers only
    more = rules.small_joker_beaten_by == "more_jokers"
    mixed_small = rules.mixed_jokers == "small"
    for j in range(0, min(size, small + big) + 1):
        pairs = [(s, j - s) for s in range(max(0, j - big), min(j, small) + 1)]
        if t_small:
            # A small joker on top needs bigs enough (or more jokers, by the switch);
            # under mixed "small" an answer's mixed jokers all count small.
            pairs = [
                (s, b)
                for s, b in pairs
                if (0 if mixed_small and s and b else b) >= t_small or (more and s + b > t_small)
            ]
        if not pairs:
            continue
        if j == size:
            yield pairs, [(JOKERS_BASE, 0, 0)]
        else:
            yield pairs, _others_parts(hand, size - j, above, rules, cons)


def _kill_candidates(
    hand: Sequence[int], top: Play, t_big: int, rules: Rules, cons: Constraints
) -> Iterator[Play]:
    """The plays that may kill ``top``, a play with ``t_big`` big jokers (``beats``
    decides which do)."""
    small, big = hand[I_SMALL], hand[I_BIG]
    t_others = top.n + top.twos
    above = top.base if t_others else TWOS_BASE
    if rules.kill_two_big or rules.kill_three_small:
        # The answer's other cards: plain cards, with spare jokers standing in for
        # the rest (RULES §5), so every plain part from none up to the top's count.
        parts = [(JOKERS_BASE, 0, 0)]
        for n_plain in range(1, t_others + 1):
            parts += _others_parts(hand, n_plain, above, rules, cons)
        for s, b in _joker_pairs(small, big):
            if not (b >= 2 * t_big or (not b and s >= 3 * t_big)):
                continue
            yield from (_new(Play, (base, n, t, s, b)) for base, n, t in parts)
    if rules.kill_three_twos and not t_others:
        yield from (_new(Play, (TWOS_BASE, n, 0, 0, 0)) for n in range(3 * t_big, hand[I_TWO] + 1))


def group_by_rank_and_size(plays: Sequence[Play]) -> dict[tuple[int, int], list[Play]]:
    """The compact form: plays grouped by (base rank, total size) for paging in a chat UI."""
    groups: dict[tuple[int, int], list[Play]] = {}
    for p in plays:
        base, n, t, s, b = p
        groups.setdefault((base, n + t + s + b), []).append(p)
    return groups
