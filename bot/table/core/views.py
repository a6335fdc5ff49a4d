"""What each person may see and do: the table snapshot, one player's private snapshot (with
its play menu), and the outputs that tell adapters which of them changed."""

from __future__ import annotations

from collections.abc import Mapping

from ...ai import Role
from ...ai.base import options
from ...engine.actions import Action, ActionKind
from ...engine.game import legal_options
from ...engine.state import HandState, Phase
from ...engine.views import public_view, seat_view
from ...present.playmenu import build_menu
from ..outputs import (
    HandChanged,
    Json,
    PrivateSnapshot,
    SeatLine,
    TableChanged,
    TableSnapshot,
    summary_of,
)
from ..record import Table
from .context import Ctx

TURN_ACTIONS = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN})
# 烩 (the leader, before the first play) and 冲点 (the revolter, right after its revolt)
# are decided in the same pause as 革命 and 明点.
PRE_PLAY_ACTIONS = frozenset(
    {
        ActionKind.REVOLT,
        ActionKind.DECLARE_POINT,
        ActionKind.WAIVE,
        ActionKind.HUI,
        ActionKind.CHONGDIAN,
    }
)
# Only offered in the pre-play pause; refused once it has closed.
DECLARE_ONLY = frozenset(
    {ActionKind.REVOLT, ActionKind.DECLARE_POINT, ActionKind.HUI, ActionKind.CHONGDIAN}
)


def seat_options(st: HandState, seat: int) -> list[Action]:
    """The engine's options for a seat, less 预点 (at a chat table the cards are already
    dealt, so only 明点 is offered)."""
    opts = options(st, seat)
    return [a for a in opts if not (a.kind is ActionKind.DECLARE_POINT and a.pre)]


def human_options(t: Table, seat: int) -> list[Action]:
    """What a person at this seat may do now: the engine's options, less what the table
    holds back (turn actions during a burn window, plays during the declaration pause)."""
    st = t.run.state
    if st is None or st.over:
        return []
    opts = seat_options(st, seat)
    if t.run.window is not None and st.to_act == seat:
        # The seat to act is held back while the burn window runs.
        opts = [a for a in opts if a.kind not in TURN_ACTIONS or a.kind is ActionKind.BURN]
    if t.declare_open and not st.started and st.phase is Phase.PLAY:
        # Before the first play everyone gets the same pause to revolt or declare.
        return [a for a in opts if a.kind in PRE_PLAY_ACTIONS]
    return [a for a in opts if a.kind not in DECLARE_ONLY]


def role_of(t: Table, seat: int, legal: tuple[Action, ...]) -> Role | None:
    st = t.run.state
    if st is None or not legal:
        return None
    if st.phase is Phase.RETURN_TRIBUTE:
        return Role.RETURN
    if any(a.kind is ActionKind.BURN for a in legal) and st.to_act != seat:
        return Role.BURN
    if t.declare_open and not st.started and all(a.kind in PRE_PLAY_ACTIONS for a in legal):
        # The leader too is only deciding 革命/明点/烩 while the pause runs.
        return Role.PRE_PLAY
    if st.to_act == seat:
        return Role.TURN
    return Role.PRE_PLAY


def turn_line(t: Table) -> tuple[object, ...]:
    """What the table message's turn line is drawn from: whose turn, its deadline, an open
    burn window or declaration pause."""
    st = t.run.state
    to_act = st.to_act if st is not None else None
    return (t.status, to_act, t.run.window is not None, t.declare_open, t.run.deadline)


def view_sig(t: Table, seat: int) -> tuple[object, ...]:
    """What a player's private view is drawn from: a new HandChanged goes out only when
    this changes."""
    st = t.run.state
    info = t.seats[seat - 1]
    assert st is not None and info is not None
    role = role_of(t, seat, tuple(human_options(t, seat)))
    return (
        t.deal_no,
        st.hands[seat - 1],
        role,
        t.version if role else None,
        info.autoplay,
        st.phase,
        t.declare_open,
        seat in t.ready,
    )


def emit_views(c: Ctx) -> None:
    """One TableChanged per change, and HandChanged for players whose view changed."""
    t = c.t
    if t.run.dirty:
        c.outs.append(TableChanged(t.key))
        t.run.dirty = False
    if t.run.state is None:
        return
    for seat in t.humans():
        info = t.seats[seat - 1]
        assert info is not None and info.user_id is not None
        sig = view_sig(t, seat)
        if t.run.private_sig.get(seat) != sig:
            t.run.private_sig[seat] = sig
            c.outs.append(HandChanged(t.key, info.user_id, seat))


def note_views_shown(t: Table) -> None:
    """Count every player's view of the table's committed state as sent. A table read
    back from its row is one some worker committed, and that worker queued every view the
    commit changed in the same transaction (the outbox): without this, each worker that
    read the table back would re-queue every player's view on its next command, and the
    players' paced private lanes would hold the next turn's keyboard behind them."""
    if t.run.state is None:
        return
    for seat in t.humans():
        t.run.private_sig[seat] = view_sig(t, seat)


def table_snapshot(t: Table, meta: Mapping[str, Json]) -> TableSnapshot:
    st = t.run.state
    return TableSnapshot(
        key=t.key,
        status=t.status,
        seats=tuple(
            SeatLine(i + 1, s.name, s.user_id, s.autoplay) if s else None
            for i, s in enumerate(t.seats)
        ),
        creator=t.creator,
        settings=t.settings,
        rules=t.rules,
        hand_no=t.match.hand_no,
        totals=t.match.totals,
        public=public_view(st) if st is not None else None,
        version=t.version,
        window_open=t.run.window is not None,
        declare_open=t.declare_open,
        last_result=t.run.last_result,
        spectators=len(t.spectators),
        names=tuple(s.name if s else f"#{i + 1}" for i, s in enumerate(t.seats)),
        deadline=t.run.deadline,
        ready=t.ready,
        meta=tuple(sorted(meta.items())),
        match_id=t.match_seed,
        history=tuple(summary_of(h) for h in t.match.history),
    )


def private_snapshot(t: Table, seat: int) -> PrivateSnapshot:
    st = t.run.state
    info = t.seats[seat - 1]
    assert st is not None and info is not None and info.user_id is not None
    legal = tuple(human_options(t, seat))
    return PrivateSnapshot(
        key=t.key,
        seat=seat,
        user_id=info.user_id,
        view=seat_view(st, seat),
        legal=legal,
        version=t.version,
        autoplay=info.autoplay,
        role=role_of(t, seat, legal),
        lang=t.settings.lang,
        menu=build_menu(legal_options(st, seat), legal, st.hands[seat - 1]),
        hints=t.settings.hints_on,
        played=t.played_from(seat),
    )
