"""Card tracking from a seat's own view (三个记住: the 16 twos, the 8 jokers, what is out).

Everything here is computed from ``SeatView`` alone: the deck the rules deal, the cards
already played (public), and the seat's own hand. What is neither played nor in the
hand is *outstanding*: somewhere in the other five hands (or dead with a revolter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.cards import I_BIG, I_SMALL, I_TWO, NUM_RANKS, Counts, full_deck
from ..engine.movegen import has_answer
from ..engine.plays import TWOS_BASE, Play
from ..engine.rules import Rules
from ..engine.state import Mark, PublicMove, SeatStatus, same_team
from ..engine.views import SeatView


def deck_of(rules: Rules) -> Counts:
    return _deck(rules.remove_threes, rules.remove_fours, rules.remove_fives)


_deck = lru_cache(maxsize=16)(full_deck)  # asked at every decision; a handful of decks exist


@dataclass(frozen=True, slots=True)
class Seen:
    """What a seat knows about the cards it cannot see."""

    outstanding: Counts  # per slot: cards neither played nor in this seat's hand
    rules: Rules

    @staticmethod
    def of(view: SeatView) -> Seen:
        rules = view.public.rules
        deck = deck_of(rules)
        out = tuple(
            max(0, d - p - h) for d, p, h in zip(deck, view.public.played, view.hand, strict=True)
        )
        return Seen(out, rules)

    @property
    def twos(self) -> int:
        return self.outstanding[I_TWO]

    @property
    def smalls(self) -> int:
        return self.outstanding[I_SMALL]

    @property
    def bigs(self) -> int:
        return self.outstanding[I_BIG]

    def beatable(self, p: Play) -> bool:
        """Whether the outstanding cards, pooled, hold any answer to ``p``.

        Pooling the five hidden hands over-estimates what one opponent holds, so a
        False here is certain (a 回牌: the play comes back) and a True only possible.
        """
        size = p.size
        pool = tuple(min(c, size) for c in self.outstanding)  # an answer has ``size`` cards
        return has_answer(pool, p, self.rules)


def known_count(view: SeatView, seat: int) -> int | None:
    """The seat's card count when the view shows it (counts shown, or 报户 answers)."""
    s = view.public.seats[seat - 1]
    if s.status is not SeatStatus.PLAYING:
        return 0
    return s.count if s.count is not None else s.reported


def played_by(view: SeatView) -> tuple[int, ...]:
    """Cards each seat (index seat - 1) has played or burned this hand, from the public
    history: what a player at the table counts as the plays go down."""
    history = view.public.history
    counted, counts = _played_last[0]
    n = len(counted)
    if n <= len(history) and history[:n] == counted:
        out = list(counts)  # it extends the history counted last: only the new moves count
    else:
        n, out = 0, [0] * 6
    for seat, act, _, _ in history[n:]:
        if isinstance(act, Play):
            out[seat - 1] += act.n + act.twos + act.small + act.big
    result = tuple(out)
    _played_last[0] = (history, result)
    return result


# The history counted last and its count. A decision counts for several seats from one
# history, and a table's AI seats decide one after another on histories that each extend
# the one before by a move or two: those are counted from here, not from the start.
_played_last: list[tuple[tuple[PublicMove, ...], tuple[int, ...]]] = [((), (0,) * 6)]


def passed_on(view: SeatView, seat: int) -> dict[int, int]:
    """Per play size, the lowest plain rank ``seat`` passed on from an opponent this hand.

    A seat that passes an opponent's plain set holds no whole set of that size above it
    that it wanted to spend (soft evidence: a pass may save big cards), and cards never
    come back, so a lead of that size at that rank or higher is one it does not answer
    cheaply (出下家和对门不吃的牌).
    """
    out: dict[int, int] = {}
    for move in view.public.history:
        over = move.over
        if (
            move.seat == seat
            and move.act is Mark.PASS
            and over is not None
            and move.over_seat is not None
            and not same_team(move.over_seat, seat)
            and 0 < over.base < TWOS_BASE
            and not over.jokers
        ):
            size = over.size
            out[size] = min(out.get(size, over.base), over.base)
    return out


def lead_streak(view: SeatView) -> tuple[int | None, int]:
    """The seat that led the current trick and how many tricks in a row it has led (its
    leads that nobody took from it: it keeps shedding cards while the table passes)."""
    # From the end back to the first lead by another seat (not the whole hand's history).
    last: int | None = None
    n = 0
    for m in reversed(view.public.history):
        if m.over is None and isinstance(m.act, Play):
            if last is None:
                last = m.seat
            elif m.seat != last:
                break
            n += 1
    return last, n


def est_count(view: SeatView, seat: int, played: Sequence[int] | None = None) -> int:
    """The seat's card count: exact when the view shows it, else dealt minus played.

    The estimate ignores tributes that were not returned and discarded 4s (a card or two),
    so it errs high: a seat is never thought closer to going out than it can be.
    """
    known = known_count(view, seat)
    if known is not None:
        return known
    if view.public.seats[seat - 1].status is not SeatStatus.PLAYING:
        return 0
    counts = played if played is not None else played_by(view)
    dealt = -(-sum(deck_of(view.public.rules)) // 6)
    return max(1, dealt - counts[seat - 1])


def pool_minus(pool: Sequence[int], cards: Sequence[int]) -> Counts:
    return tuple(max(0, a - b) for a, b in zip(pool, cards, strict=True))


__all__ = [
    "NUM_RANKS",
    "Seen",
    "deck_of",
    "est_count",
    "known_count",
    "lead_streak",
    "passed_on",
    "played_by",
    "pool_minus",
]
