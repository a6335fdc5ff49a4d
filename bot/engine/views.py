"""What one seat may see (RULES §12): its own hand, the public table, counts per rule."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import Counts
from .memo import IdentityMemo
from .queries import count_answer
from .rules import PresetName, Rules
from .state import (
    SEATS,
    HandResult,
    HandState,
    Mark,
    Phase,
    PublicMove,
    SeatStatus,
    check_seat,
    same_team,
)


@dataclass(frozen=True, slots=True)
class SeatPublic:
    seat: int
    status: SeatStatus
    count: int | None  # None unless the count rule shows counts (or the seat is out)
    reported: int | None  # what 报户 would answer now: exact count, or None (不够报 / refused)
    last: str | None  # this trick: the cards played (notation), "pass" or "rang"
    opened: bool
    burning: bool
    headless: bool
    caught: bool
    place: int | None  # finish place once known (1 = 头科)


@dataclass(frozen=True, slots=True)
class PublicView:
    preset: PresetName
    rules: Rules
    phase: Phase
    leader: int
    to_act: int | None
    top_seat: int | None
    top_cards: str | None
    top_gouji: bool
    free_play: bool
    seats: tuple[SeatPublic, ...]
    out_order: tuple[int, ...]
    result: HandResult | None
    step: int
    leading: bool  # the seat to act leads (nothing to answer)
    played: Counts  # every card played so far this hand (public: they were on the table)
    # Every play, burn, pass and 让 so far, in order, with the play each one met: who played
    # what and who passed on what (voids), as a player at the table can remember it.
    history: tuple[PublicMove, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    hand: Counts
    public: PublicView
    teammates: tuple[tuple[int, Counts], ...]  # 看牌: teammates' hands, once this seat is out


def _places(state: HandState) -> dict[int, int]:
    if state.result is not None and state.result.places:
        return {s: i + 1 for i, s in enumerate(state.result.places)}
    places = {s: i + 1 for i, s in enumerate(state.out_order)}
    for k, s in enumerate(state.bottom_order):
        places[s] = 6 - k
    return places


def public_view(state: HandState) -> PublicView:
    """The table as everyone sees it (the same for every seat: one state's is kept)."""
    known = _views.get(state)
    return known if known is not None else _views.put(state, None, _public_view(state))


# A table draws the public view of each new state several times (the table message, each
# AI seat's decision, each player's private view): the last few are kept.
_views: IdentityMemo[PublicView] = IdentityMemo(8)


# A seat's public line rarely changes from one state to the next, and a frozen record
# takes microseconds to build (six a view): equal lines are one shared value. Bounded.
_seat_line = lru_cache(maxsize=1 << 12, typed=True)(SeatPublic)


def _public_view(state: HandState) -> PublicView:
    places = _places(state)
    shown = state.rules.count_rule == "always"
    caught = {c for c, _ in state.caught}
    seats = []
    for s in SEATS:
        st = state.status[s - 1]
        mark = state.trick_marks[s - 1]
        last = None if mark is None else (mark.value if isinstance(mark, Mark) else mark.notation())
        count = None
        reported = None
        if state.rules.count_rule != "never":
            reported = count_answer(state, s)[1]
        if st is SeatStatus.OUT:
            count = 0
        elif shown:
            count = reported  # what 报户 answers is the count shown
        seats.append(
            _seat_line(
                s,  # seat
                st,  # status
                count,
                reported,
                last,
                s in state.opened,  # opened
                state.burner == s,  # burning
                st is SeatStatus.PLAYING and state.headless(s),  # headless
                s in caught,  # caught
                places.get(s),  # place
            )
        )
    return PublicView(
        preset=state.rules.preset,
        rules=state.rules,
        phase=state.phase,
        leader=state.leader,
        to_act=state.to_act,
        top_seat=state.top_seat,
        top_cards=state.top_play.notation() if state.top_play else None,
        top_gouji=state.top_gouji,
        free_play=state.free_play,
        seats=tuple(seats),
        out_order=state.out_order,
        result=state.result,
        step=state.step,
        leading=state.top_play is None or state.lead_pending,
        played=state.played,
        history=state.history,
    )


def seat_view(state: HandState, seat: int) -> SeatView:
    check_seat(seat)
    mates: tuple[tuple[int, Counts], ...] = ()
    if state.rules.see_team_after_out and state.status[seat - 1] is SeatStatus.OUT:
        mates = tuple((s, state.hands[s - 1]) for s in SEATS if s != seat and same_team(s, seat))
    return SeatView(seat, state.hands[seat - 1], public_view(state), mates)
