"""Determinization: deal the cards a seat cannot see to the other seats, consistently with
everything the seat has seen.

From the seat's view alone (never another hand):

- **the cards**: exactly the outstanding ones (``Seen.outstanding``: the deck minus the
  cards played minus the seat's own hand);
- **the counts**: a count the view shows (counts shown, 报户) is exact; otherwise each
  seat's share follows what it played (``PublicView.history``: who played what), so a
  seat that has played many cards gets fewer;
- **the passes** (voids): a seat that passed an opponent's plain play of ``n`` cards
  had no answer a ``normal`` seat finds cheap enough: it passes whenever its cheapest
  answer costs more than its limit (``NormalWeights``: 12 early, 16 late, 4 less with
  both other opponents still to come; 20 for the opposite's 够级牌), and an answer from
  a rank above costs the rank's steps over 3, 5 more when it splits the rank (4 more
  again when that breaks a 够级-sized set). So only the ranks whose dearest answer is
  within even the lowest limit tell something: the seat held fewer than ``n`` of each
  of them then. (Capping every higher rank, as until 2026-12-07, was wrong in 46 % of
  the passes of ``normal`` self-play in 比赛: a seat keeps a bigger set of a high rank
  rather than split it; this rule was wrong in none of them.) Hands only shrink during
  play, so that caps its holding of each such rank now, less what it played of that
  rank since. A pass can still be strategic, so a cap is soft: a card that fits
  nowhere else goes anywhere. A cap the seat's later plays contradict (it passed
  ``55`` and then led ``666``) is dropped;
- **憋三**: every seat still playing holds a 3 (it bought one if dealt none, and 3s are
  only ever its last play), so each is dealt one before the rest;
- **点四 with 4s bought** (买4, the 4s trimmed from the deck, 青岛): a seat that has
  neither led its 4s nor lost them at its 开点 deadline still holds one, so it is dealt
  one before the rest (``fours_held``).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import TYPE_CHECKING

from ..engine.cards import I_FOUR, I_THREE, NUM_RANKS, Counts
from ..engine.plays import GOUJI_MIN, TWOS_BASE, Play, is_gouji
from ..engine.rules import Rules
from ..engine.seats import opp
from ..engine.state import SEATS, HandState, Mark, PublicMove, SeatStatus, same_team
from ..engine.views import SeatView
from .tracking import Seen, deck_of, known_count

if TYPE_CHECKING:
    from .normal import NormalWeights

NO_CAP = 99
RANK_SLOTS = 12  # 3 … A


def played_by(history: Sequence[PublicMove]) -> list[list[int]]:
    """Cards each seat has played this hand (index seat - 1, slot)."""
    out = [[0] * NUM_RANKS for _ in SEATS]
    for m in history:
        if isinstance(m.act, Play):
            row = out[m.seat - 1]
            for i, c in enumerate(m.act.counts()):
                row[i] += c
    return out


def hidden_cards(view: SeatView, public: HandState) -> Counts:
    """Every card another seat still holds: neither played, nor discarded (点四's 4s of a
    seat that failed to open, public on the table), nor the seat's own."""
    out = Seen.of(view).outstanding
    return tuple(max(0, o - d) for o, d in zip(out, public.discarded, strict=True))


def fours_held(view: SeatView, public: HandState) -> frozenset[int]:
    """The other seats still playing that surely hold a 4: under 点四 with the 4s trimmed
    every seat bought one (买4) if dealt none, and keeps them until it leads them after
    开点 or — failing to open by its deadline, with ``unopened_fours`` ``discard`` —
    loses them (public: the deadline passed, the seat had not opened). Once it played a
    4 (the forced lead, or an ordinary card once freed) its count is not known."""
    rules = view.public.rules
    if not (rules.dian_si and rules.remove_fours):
        return frozenset()
    played = played_by(view.public.history)
    discard = rules.unopened_fours == "discard"
    return frozenset(
        s.seat
        for s in view.public.seats
        if s.seat != view.seat
        and s.status is SeatStatus.PLAYING
        and not played[s.seat - 1][I_FOUR]
        and not (discard and s.seat in public.judged and s.seat not in public.opened)
    )


def hand_sizes(view: SeatView, hidden: Counts | None = None) -> list[int]:
    """Every seat's card count (index seat - 1), summing to the cards the seat cannot see
    (``hidden``, or the outstanding cards).

    Shown or reported counts are exact; the other playing seats (and a revolter, who keeps
    its dealt hand) share the rest in proportion to what they were dealt less what they
    played (tributes may move a few cards: the proportions absorb that). One seat left
    holding cards holds them all.
    """
    pub = view.public
    left = sum(Seen.of(view).outstanding if hidden is None else hidden)
    dealt = sum(deck_of(pub.rules)) // 6
    spent = [sum(row) for row in played_by(pub.history)]
    sizes = [0] * 6
    sizes[view.seat - 1] = sum(view.hand)
    holders = [s for s in pub.seats if s.seat != view.seat and s.status is not SeatStatus.OUT]
    if len(holders) == 1:
        sizes[holders[0].seat - 1] = left
        return sizes
    guess: dict[int, int] = {}
    for s in holders:
        n = known_count(view, s.seat)
        if s.status is SeatStatus.PLAYING and n is not None:
            sizes[s.seat - 1] = min(n, left)
            left -= sizes[s.seat - 1]
        else:
            guess[s.seat] = max(1, dealt - spent[s.seat - 1])
    _share(sizes, guess, left)
    return sizes


def _share(sizes: list[int], guess: dict[int, int], left: int) -> None:
    """Split ``left`` cards over the seats of ``guess`` in proportion (largest remainders)."""
    if not guess:
        return
    weight = sum(guess.values())
    exact = {s: left * g / weight for s, g in guess.items()}
    for s, x in exact.items():
        sizes[s - 1] = int(x)
    rest = left - sum(int(x) for x in exact.values())
    for s in sorted(exact, key=lambda s: (int(exact[s]) - exact[s], s))[:rest]:
        sizes[s - 1] += 1


def pass_caps(view: SeatView) -> dict[int, list[int]]:
    """Soft upper bounds on what each other seat holds now, from its passes (see above)."""
    from .normal import DEFAULT_NORMAL  # here: normal imports endgame, which imports us

    history = view.public.history
    sizes = hand_sizes(view)  # now; a seat's cards then are these and what it played since
    caps: dict[int, list[int]] = {}
    for k, m in enumerate(history):
        if not _telling_pass(m, view.seat):
            continue
        over = m.over
        assert over is not None
        later = _played_since(history, k, m.seat)
        held = sizes[m.seat - 1] + sum(later)
        limit = _lowest_limit(DEFAULT_NORMAL, over, m, held, view.public.rules)
        row = caps.setdefault(m.seat, [NO_CAP] * NUM_RANKS)
        for i in range(over.base - 2, RANK_SLOTS):  # the ranks above the play's base
            if _dearest_answer(DEFAULT_NORMAL, i) > limit:
                break  # it may have kept this rank (and every higher one) whole
            bound = over.size - 1 - later[i]
            if bound >= 0:
                row[i] = min(row[i], bound)
    return caps


def _lowest_limit(w: NormalWeights, over: Play, m: PublicMove, held: int, rules: Rules) -> float:
    """The lowest answer limit ``normal`` may have had for a pass on ``over``: a 够级 duel
    with the opposite, else its early or late limit less the 4 for both other opponents
    still to come (``held``: the seat's cards then)."""
    if m.over_seat == opp(m.seat) and is_gouji(over, rules):
        return w.answer_gouji
    base = w.answer_plain if held <= w.stage else w.answer_early
    return base - w.upstream


def _dearest_answer(w: NormalWeights, slot: int) -> float:
    """What ``normal``'s dearest answer from rank slot ``slot`` (3 = 0) costs: its rank
    steps, a split, and a broken 够级-sized set where the rank has one."""
    base = slot + 3
    return slot + w.split + (w.split_gouji if base in GOUJI_MIN else 0.0)


def _telling_pass(m: PublicMove, me: int) -> bool:
    """A pass by another seat on an opponent's plain play (one it would have answered)."""
    return (
        m.act is Mark.PASS
        and m.seat != me
        and m.over is not None
        and m.over_seat is not None
        and not same_team(m.seat, m.over_seat)
        and not m.over.jokers
        and 0 < m.over.base < TWOS_BASE
    )


def _played_since(history: Sequence[PublicMove], k: int, seat: int) -> list[int]:
    out = [0] * NUM_RANKS
    for m in history[k + 1 :]:
        if m.seat == seat and isinstance(m.act, Play):
            for i, c in enumerate(m.act.counts()):
                out[i] += c
    return out


def deal(
    view: SeatView,
    sizes: Sequence[int],
    caps: dict[int, list[int]],
    rng: random.Random,
    hidden: Counts | None = None,
    fours: frozenset[int] = frozenset(),
) -> tuple[Counts, ...]:
    """The six hands of one determinization: the seat's own, and the outstanding cards
    (or ``hidden``, when the caller knows better) dealt at random to the others in
    ``sizes``, within ``caps`` where the cards allow; a 3 first to every seat still
    playing under 憋三, a 4 first to each of ``fours`` (``fours_held``)."""
    pool: list[int] = []
    for i, n in enumerate(Seen.of(view).outstanding if hidden is None else hidden):
        pool.extend([i] * n)
    rng.shuffle(pool)
    room = {s: sizes[s - 1] for s in SEATS if s != view.seat and sizes[s - 1] > 0}
    got = {s: [0] * NUM_RANKS for s in room}
    if view.public.rules.bie_san:
        _deal_floor(I_THREE, _playing(view, room), pool, room, got, rng)
    if fours:
        _deal_floor(I_FOUR, [s for s in room if s in fours and room[s] > 0], pool, room, got, rng)
    # A table set up from a position holds fewer cards than the deck: deal a random part.
    del pool[sum(room.values()) :]
    # Capped ranks first, while the seats that may take them still have room.
    pool.sort(key=lambda i: -sum(1 for row in caps.values() if row[i] < NO_CAP))
    limits = {s: caps.get(s, _NONE) for s in room}
    for card in pool:
        open_ = [s for s in room if room[s] > 0]
        if not open_:
            break
        fits = [s for s in open_ if got[s][card] < limits[s][card]] or open_
        # ``rng.choices(fits, weights=[room[s] for s in fits])[0]``, spelled out the way
        # ``random.choices`` draws (one ``random()`` on the running totals): the same seat
        # from the same rng, without the call's checks — a playout deals ~200 cards.
        totals = list(accumulate([room[s] for s in fits]))
        seat = fits[bisect_right(totals, rng.random() * (totals[-1] + 0.0), 0, len(fits) - 1)]
        got[seat][card] += 1
        room[seat] -= 1
    hands: list[Counts] = [(0,) * NUM_RANKS] * 6
    hands[view.seat - 1] = tuple(view.hand)
    for s, row in got.items():
        hands[s - 1] = tuple(row)
    return tuple(hands)


_NONE = [NO_CAP] * NUM_RANKS


def _playing(view: SeatView, room: dict[int, int]) -> list[int]:
    """憋三: every seat still playing holds a 3 — it bought one if it was dealt none, and
    its 3s can only be its last play (in 青岛, whose deck keeps six 3s, exactly one each:
    who can be caught, 被闷, depends on it)."""
    return [
        s for s in room if view.public.seats[s - 1].status is SeatStatus.PLAYING and room[s] > 0
    ]


def _deal_floor(
    card: int,
    seats: list[int],
    pool: list[int],
    room: dict[int, int],
    got: dict[int, list[int]],
    rng: random.Random,
) -> None:
    """One ``card`` to each of ``seats`` before the rest is dealt, while the pool has one."""
    rng.shuffle(seats)  # too few of them (a table set up from a position): who gets them is random
    for s in seats:
        if card not in pool:
            return
        pool.remove(card)
        got[s][card] += 1
        room[s] -= 1
