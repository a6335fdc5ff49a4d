"""When a wait runs out: turn warnings and timeouts (托管), burn and declaration windows,
tribute returns, and the pause between hands."""

from __future__ import annotations

from ...ai import decide, without_search
from ...engine.state import Phase
from ..codes import NoteCode, NoticeCode
from ..model import TableStatus
from ..outputs import DeadlineKind
from ..record import Table
from .context import Ctx
from .hands import advance, deal, settle_burns
from .views import turn_line


def due(c: Ctx) -> bool:
    d = c.t.run.deadline
    return d is not None and d.at is not None and d.at <= c.env.now


def warn_at(t: Table, warn: float) -> float | None:
    """When the seat to act is warned that its time runs out (the one rule: the core's
    tick and both shells' timer schedules ask it). ``warn`` seconds before the turn's
    own deadline, but never in the first half of the turn: a pass-only turn has a 12 s
    timer (``hands._turn``), and warned 10 s before its end the warning came with the
    turn itself. None: no warning is due — not a turn, no timer, warned already, or a
    turn no longer than the warning."""
    d = t.run.deadline
    if d is None or d.at is None or not d.is_turn or t.run.warned:
        return None
    length = d.length if d.length is not None else float(t.turn_seconds)
    if warn >= length:
        return None
    return d.at - min(warn, length / 2)


def warn_due(c: Ctx) -> bool:
    """The seat to act is due its warning (``warn_at``) and has not had it yet."""
    at = warn_at(c.t, c.env.config.warn_before_seconds)
    return at is not None and at <= c.env.now


def tick(c: Ctx) -> bool:
    """Fire the table's deadline if it is due, or warn; True if anything happened."""
    if due(c):
        fire(c)
        return True
    if warn_due(c):
        c.t.run.warned = True
        st = c.t.run.state
        if st is not None and st.to_act is not None:
            # The step names the turn: a warning delivered after it was played is left
            # unsent (``SharedTables._deliver``, bot.cluster.shell).
            c.private_note(st.to_act, NoteCode.TURN_WARNING, step=st.step)
        return True
    return False


def fire(c: Ctx) -> None:
    """Fire the due deadline. Whatever it changes that the table shows is redrawn: a burn
    window or declaration pause that closes with nobody acting applies nothing, so nothing
    else would bump the version (the channel kept showing 烧牌时间… with no turn line)."""
    version, shown = c.t.version, turn_line(c.t)
    _fire(c)
    if c.t.version == version and turn_line(c.t) != shown:
        c.bump()


def _fire(c: Ctx) -> None:
    t = c.t
    deadline = t.run.deadline
    assert deadline is not None
    kind = deadline.kind
    c.clear_deadline()
    st = t.run.state
    if kind is DeadlineKind.NEXT_HAND:
        if t.status is TableStatus.BETWEEN:
            deal(c)
        return
    if st is None or t.status is not TableStatus.PLAYING:
        return
    if kind is DeadlineKind.BURN and t.run.window is not None:
        window, t.run.window = t.run.window, None
        settle_burns(c, window)
    elif kind is DeadlineKind.DECLARE:
        t.declare_open = False
    elif kind is DeadlineKind.RETURNS:
        _return_for_people(c)
    elif kind is DeadlineKind.TURN and st.to_act is not None:
        info = t.seats[st.to_act - 1]
        if info is not None and not info.is_ai:
            c.set_autoplay(st.to_act, True)
            c.notice(NoticeCode.AUTOPLAY_TIMEOUT, seat=st.to_act)
    advance(c)


def _return_for_people(c: Ctx) -> None:
    """Out of time for 还贡: the AI picks the returns people still owe."""
    st = c.t.run.state
    assert st is not None
    for receiver, _, _ in list(st.pending_returns):
        cur = c.t.run.state
        assert cur is not None
        if cur.phase is not Phase.RETURN_TRIBUTE:
            break
        action = decide(cur, receiver, without_search(c.env.policy), c.ai_rng(receiver, "return"))
        if action is not None:
            c.apply(receiver, action)
