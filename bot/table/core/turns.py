"""Commands during a match: actions, 报户, 托管, ready, next hand, stopping, settings."""

from __future__ import annotations

from ...engine.actions import Action, ActionKind
from ...engine.events import CountAnswered
from ...engine.game import apply
from ...engine.state import Phase
from ...present.schema import shown
from ..codes import NoticeCode, ReplyCode
from ..commands import Act, AskCount, NextHand, Ready, SetAutoplay, StopMatch
from ..model import TableStatus
from ..outputs import DeadlineKind, Reply
from ..record import Table
from .context import Ctx
from .hands import advance, deal, end_match
from .lobby import is_seat
from .views import DECLARE_ONLY, PRE_PLAY_ACTIONS, TURN_ACTIONS, human_options


def act(c: Ctx, cmd: Act) -> Reply:
    t = c.t
    if t.status is not TableStatus.PLAYING or t.run.state is None:
        return Reply.no(ReplyCode.NOT_PLAYING)
    seat = t.seat_of(cmd.actor.user_id)
    if seat is None:
        return Reply.no(ReplyCode.NOT_SEATED)
    action = cmd.action
    if action.kind is ActionKind.ASK_COUNT:
        target = action.target if is_seat(action.target) else 0
        return ask_count(c, AskCount(chat=cmd.chat, actor=cmd.actor, target=target or 0))
    refused = _refusal(c, cmd, seat)
    if refused is not None:
        return refused
    if t.run.window is not None and action.kind in TURN_ACTIONS:
        held = _during_window(c, seat, action)
        if held is not None:
            return held
    info = t.seats[seat - 1]
    if info is not None and info.autoplay:
        c.set_autoplay(seat, False)
        c.notice(NoticeCode.AUTOPLAY_OFF, seat=seat)
    c.apply(seat, action)
    if cmd.version is not None:
        t.played = (*((s, v) for s, v in t.played if s != seat), (seat, cmd.version))
    st = t.run.state
    if action.kind in PRE_PLAY_ACTIONS and not _chongdian_open(t, seat):
        # A revolter that may still 冲点 keeps its pause (冲点 comes right after 革命).
        t.ready = t.ready | {seat}
    if st is not None and st.started and t.declare_open:
        # 冲点 starts the hand: the declaration pause is over for everyone.
        t.declare_open = False
        if t.run.deadline is not None and t.run.deadline.kind is DeadlineKind.DECLARE:
            c.clear_deadline()
    _then(c)
    return Reply.yes(ReplyCode.OK)


def _then(c: Ctx) -> None:
    """After a player's action: the AI seats answer now, or in a step of their own."""
    st = c.t.run.state
    if c.env.ai_later and st is not None and st.started and st.phase is Phase.PLAY:
        # Only in the play itself: a pause or a return timer others still run on keeps
        # its deadline (the AI seats' moves there are few and cheap).
        c.advance_later()
    else:
        advance(c)


def _chongdian_open(t: Table, seat: int) -> bool:
    return any(a.kind is ActionKind.CHONGDIAN for a in human_options(t, seat))


def _refusal(c: Ctx, cmd: Act, seat: int) -> Reply | None:
    """Why the table (not the engine) refuses this action now, if it does."""
    t, action = c.t, cmd.action
    assert t.run.state is not None
    if action.kind in TURN_ACTIONS and cmd.version is not None and cmd.version != t.version:
        return Reply.no(
            ReplyCode.ALREADY_PLAYED if t.played_from(seat) == cmd.version else ReplyCode.STALE
        )
    if action.kind in DECLARE_ONLY and not t.declare_open:
        if t.run.state.started:
            return Reply.no(ReplyCode.DECLARE_CLOSED)
        # Before the first play the engine says why (革命: the card that forbids it);
        # if it would allow it, only the declaration pause is over.
        apply(t.run.state, seat, action)
        return Reply.no(ReplyCode.DECLARE_PAUSE_OVER)
    if action.kind is ActionKind.DECLARE_POINT and action.pre:
        return Reply.no(ReplyCode.DECLARE_NOT_ALLOWED)
    if t.declare_open and not t.run.state.started and action.kind in TURN_ACTIONS:
        return Reply.no(ReplyCode.WAIT_DECLARATIONS)
    return None


def _during_window(c: Ctx, seat: int, action: Action) -> Reply | None:
    """Burns are collected while the window is open; the seat to act is held back."""
    window = c.t.run.window
    st = c.t.run.state
    assert window is not None and st is not None
    apply(st, seat, action)  # validate now: raises IllegalAction if refused
    if action.kind is ActionKind.BURN:
        c.t.run.window = window.declare(seat, action)
        return Reply.yes(ReplyCode.BURN_DECLARED)
    if st.to_act == seat:
        c.t.run.window = type(window)(window.step, window.declared, (seat, action))
        return Reply.yes(ReplyCode.HELD_FOR_BURNS)
    return None


def ask_count(c: Ctx, cmd: AskCount) -> Reply:
    t = c.t
    if t.run.state is None or t.status is not TableStatus.PLAYING:
        return Reply.no(ReplyCode.NOT_PLAYING)
    if t.seat_of(cmd.actor.user_id) is None:
        return Reply.no(ReplyCode.NOT_SEATED)  # 报户 is a player's question
    if not is_seat(cmd.target):
        return Reply.no(ReplyCode.BAD_TARGET, target=shown(cmd.target))
    _, events = apply(t.run.state, 1, Action(ActionKind.ASK_COUNT, target=cmd.target))
    # 报户 changes nothing, so it is answered without a version check.
    answer = events[0]
    assert isinstance(answer, CountAnswered)  # what ASK_COUNT answers with, alone
    # The same question at the same state has the same answer: it is posted once.
    question = (t.version, cmd.actor.user_id, cmd.target)
    if question in t.run.asked:
        return Reply.yes(
            ReplyCode.COUNT_POSTED, target=cmd.target, answer=answer.answer, count=answer.count
        )
    t.run.asked = frozenset(q for q in t.run.asked if q[0] == t.version) | {question}
    c.notice(
        NoticeCode.COUNT_ANSWER,
        asker=cmd.actor.name,
        target=cmd.target,
        target_name=c.name(cmd.target),
        answer=answer.answer,
        count=answer.count,
    )
    return Reply.yes(
        ReplyCode.COUNT_POSTED, target=cmd.target, answer=answer.answer, count=answer.count
    )


def set_autoplay(c: Ctx, cmd: SetAutoplay) -> Reply:
    t = c.t
    seat = t.seat_of(cmd.actor.user_id)
    if seat is None:
        return Reply.no(ReplyCode.NOT_SEATED)
    c.set_autoplay(seat, cmd.on)
    c.bump()
    c.notice(NoticeCode.AUTOPLAY_ON if cmd.on else NoticeCode.AUTOPLAY_OFF, seat=seat)
    if cmd.on and t.status is TableStatus.PLAYING:
        t.ready = t.ready | {seat}
        advance(c)
    return Reply.yes(ReplyCode.AUTOPLAY_ON if cmd.on else ReplyCode.AUTOPLAY_OFF)


def ready(c: Ctx, cmd: Ready) -> Reply:
    t = c.t
    seat = t.seat_of(cmd.actor.user_id)
    if seat is None:
        return Reply.no(ReplyCode.NOT_SEATED)
    if not t.declare_open:
        return Reply.no(ReplyCode.DECLARE_CLOSED)
    t.ready = t.ready | {seat}
    c.bump()
    if all(s in t.ready for s in t.humans()):
        c.clear_deadline()
        advance(c)
    return Reply.yes(ReplyCode.READY)


def next_hand(c: Ctx, cmd: NextHand) -> Reply:
    t = c.t
    if t.status is not TableStatus.BETWEEN:
        return Reply.no(ReplyCode.HAND_NOT_OVER)
    if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_SEATED)
    deal(c)
    return Reply.yes(ReplyCode.NEXT_HAND)


def stop_match(c: Ctx, cmd: StopMatch) -> Reply:
    t = c.t
    if cmd.actor.user_id != t.creator and not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_CREATOR_OR_ADMIN)
    end_match(c, stopped=True)
    return Reply.yes(ReplyCode.MATCH_STOPPED)


def spectate(c: Ctx, user_id: str) -> Reply:
    c.t.spectators = c.t.spectators | {user_id}
    return Reply.yes(ReplyCode.SPECTATING)


def new_settings(c: Ctx) -> Reply:
    """The group's settings changed (the shell validated and saved them): the hand in play
    keeps its rules and timer; the next deal picks these up."""
    c.t.settings = c.env.settings
    c.bump()
    return Reply.yes(ReplyCode.SETTINGS_SAVED)
