"""冲点 (RULES §10, 同城游 大众场): a revolter leads three pure 够级牌 against its opposite.

Only the revolter and its opposite act while it lasts: the revolter leads, its opposite
answers or passes, three times; nothing can be burned. The outcome then fixes the
revolter's place (大落 or 四科) and who has opened, and the hand starts with its leader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import cards as C
from .errors import ErrorCode, IllegalAction
from .events import ChongdianCalled, ChongdianResult, Passed, Played
from .movegen import gen_answers
from .plays import GOUJI_MIN, Play, beats, is_pure_gouji
from .seats import opp
from .state import ChongBeat, Chongdian, HandState, Phase, SeatStatus

if TYPE_CHECKING:
    from .transition import Transition

PLAYS = 3  # the revolter's three pure 够级牌


def pure_plays_in(hand: Sequence[int]) -> int:
    """How many pure 够级牌 the hand can make at once (each rank 10..A at its minimum size)."""
    return sum(hand[rank - 3] // need for rank, need in GOUJI_MIN.items())


def in_progress(state: HandState) -> bool:
    return state.chong is not None and state.chong.in_progress


def chongdian_error(state: HandState, seat: int) -> ErrorCode | None:
    """Why the seat may not 冲点 now (RULES §10: refused as ``chongdian_not_allowed``)."""
    r = state.rules
    if (
        not (r.chongdian and r.dadian)
        or state.phase is not Phase.PLAY
        or seat not in state.revolters
        or state.status[seat - 1] is not SeatStatus.REVOLTED
        or state.started
        or state.chong is not None
        or not state.is_active(opp(seat))
        or pure_plays_in(state.hands[seat - 1]) < PLAYS
    ):
        return ErrorCode.CHONGDIAN_NOT_ALLOWED
    return None


def lead_error(state: HandState, seat: int, p: Play, cards: Sequence[int]) -> ErrorCode | None:
    """A 冲点 lead must be a pure 够级牌 that leaves enough for the plays still due."""
    chong = state.chong
    assert chong is not None
    due = PLAYS - len(chong.beats) - 1
    if not is_pure_gouji(p) or pure_plays_in(C.sub(state.hands[seat - 1], cards)) < due:
        return ErrorCode.CHONGDIAN_NEEDS_PURE
    return None


def legal_plays(state: HandState, seat: int) -> list[Play]:
    """The seat's plays while the 冲点 lasts (empty when it is not the seat's turn)."""
    chong = state.chong
    if chong is None or state.to_act != seat:
        return []
    hand = state.hands[seat - 1]
    if seat == chong.seat:
        out = []
        for rank, need in GOUJI_MIN.items():
            for n in range(need, hand[rank - 3] + 1):
                p = Play(rank, n)
                if lead_error(state, seat, p, p.counts()) is None:
                    out.append(p)
        return out
    assert state.top_play is not None
    return gen_answers(hand, state.top_play, state.rules)


def start(w: Transition, seat: int) -> None:
    """The revolter declares 冲点: declarations and 烩 are over, the three plays begin."""
    err = chongdian_error(w.view(), seat)
    if err is not None:
        raise IllegalAction(err)
    o = opp(seat)
    w.chong = Chongdian(seat)
    w.started = True
    # The outcome replaces `revolt_opposite_opens`, and the opposite has no 够死级 plays.
    w.opened = w.opened - {o}
    w.fours_pending = w.fours_pending - {o}
    w.set_gousi(o, 0)
    w.top_seat = w.top_play = None
    w.to_act = seat
    w.emit(ChongdianCalled(seat=seat, target=o))


def act(w: Transition, seat: int, play: Play | None) -> None:
    """One 冲点 action: the revolter's lead, or its opposite's answer (``None`` = pass)."""
    chong = w.chong
    assert chong is not None
    if seat != w.to_act:
        raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
    if w.top_play is None:  # the revolter leads
        if play is None:
            raise IllegalAction(ErrorCode.LEAD_CANNOT_PASS)
        err = lead_error(w.view(), seat, play, play.counts())
        if err is not None:
            raise IllegalAction(err)
        _put(w, seat, play, None)
        w.to_act = opp(seat)
        return
    top, revolter = w.top_play, chong.seat
    if play is None:
        beat = ChongBeat.LIVE
        w.emit(Passed(seat=seat))
    else:
        if not beats(play, top, w.rules):
            w.strength_check(play)  # raises size_mismatch / too_weak
        _put(w, seat, play, revolter)
        beat = ChongBeat.PURE if is_pure_gouji(play) else ChongBeat.HUA
    w.top_seat = w.top_play = None
    w.trick_marks = [None] * 6
    w.chong = Chongdian(revolter, (*chong.beats, beat))
    if not sum(w.hands[seat - 1]):
        w.go_out(seat)  # (only a scenario's short hand empties here)
    if w.chong.in_progress and w.active(seat) and w.phase is Phase.PLAY:
        w.to_act = revolter
    else:
        finish(w)


def _put(w: Transition, seat: int, p: Play, target: int | None) -> None:
    pc = p.counts()
    w.hands[seat - 1] = C.sub(w.hands[seat - 1], pc)
    w.played = C.add(w.played, pc)
    w.top_seat, w.top_play = seat, p
    w.trick_marks[seat - 1] = p
    w.emit(Played(seat=seat, cards=p.notation(), gouji=True, target=target))


def finish(w: Transition) -> None:
    """The outcome table of 同城游 大众场 (RULES §10), then the hand starts normally."""
    chong = w.chong
    assert chong is not None
    # Plays the opposite could not meet (it played out) count as not beaten.
    beats_ = chong.beats + (ChongBeat.LIVE,) * (PLAYS - len(chong.beats))
    w.chong = Chongdian(chong.seat, beats_)
    revolter, o = chong.seat, opp(chong.seat)
    all_beaten = ChongBeat.LIVE not in beats_
    any_pure = ChongBeat.PURE in beats_
    if all_beaten:
        place = 6  # 大落, not opened
        w.bottom_order = (*w.bottom_order, revolter)
    else:
        place = 4  # 四科, opened
        w.opened = w.opened | {revolter}
    if any_pure and w.active(o):
        w.mark_opened(o)
    w.emit(
        ChongdianResult(
            seat=revolter,
            beats=tuple(beats_),
            place=place,
            opened=not all_beaten,
            opposite_opened=o in w.opened,
        )
    )
    w.to_act = None
    if w.phase is Phase.PLAY:
        w.check_over()
    if w.phase is Phase.PLAY:
        w.start_lead(w.leader)
