"""A hand at the table: dealing, letting AI seats act until a person must, burn windows,
and the end of a hand and of a match. Whose decision comes next is the engine's
``pending_decisions``; this module only adds the table's waits (timers, windows)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...ai import decide, without_search
from ...engine.actions import ActionKind
from ...engine.errors import IllegalAction
from ...engine.events import Burned
from ...engine.game import first_leader, legal_plays, new_hand, next_leader
from ...engine.schedule import (
    BurnDeclaration,
    Decision,
    DecisionKind,
    pending_decisions,
    resolve_burns,
)
from ...engine.state import SEATS, Phase
from ...engine.views import seat_view
from ...records.record import record_json
from ..codes import NoticeCode
from ..model import MatchRecord, TableStatus
from ..outputs import DeadlineKind, HandFinished, MatchOver
from ..record import BurnWindow
from .context import Ctx, FinishedHand
from .views import PRE_PLAY_ACTIONS, human_options, seat_options

SETTLE_LIMIT = 20_000  # more AI moves than any hand has: a loop that runs away is a bug


def deal(c: Ctx) -> None:
    t = c.t
    t.settings = c.env.settings
    t.rules = t.settings.rules()
    t.turn_seconds = t.rules.move_seconds or t.settings.turn_seconds
    t.deal_no += 1
    t.hand_seed = (t.match_seed * 1_000_003 + t.deal_no) % (1 << 62)
    leader = t.next_leader if t.next_leader is not None else first_leader(t.hand_seed)
    t.hand_leader = leader
    state, events = new_hand(t.rules, t.hand_seed, leader, t.hand_owed, streaks=t.hand_streaks)
    t.run.state = state
    t.log = ()
    t.status = TableStatus.PLAYING
    t.run.window = None
    t.run.window_step = -1
    t.run.deadline = None
    t.run.last_result = None
    t.ready = frozenset()
    t.declare_open = (
        t.rules.revolution != "off"
        or t.rules.dadian
        or t.rules.hui != "off"  # 烩: the leader decides before the first play
        or t.rules.chongdian  # 冲点 follows a revolt (its switch needs 打点, but say so)
    )
    history = t.match.history
    if not (history and history[-1].get("voided")):  # a redeal keeps the hand's number
        t.match = replace(t.match, hand_no=t.match.hand_no + 1)
    c.bump()
    c.notice(NoticeCode.HAND_STARTED, hand_no=t.match.hand_no, leader=leader)
    c.notices(events)
    advance(c)


def advance(c: Ctx) -> None:
    """Let AI seats act until a person must decide, a window is open, or the hand ends."""
    for _ in range(SETTLE_LIMIT):
        t = c.t
        st = t.run.state
        if st is None or t.status is not TableStatus.PLAYING or t.run.window is not None:
            return
        if st.over:
            finish_hand(c)
            return
        if not _next(c, pending_decisions(st)):
            return
    raise RuntimeError(f"table {c.t.key} did not settle")


def _next(c: Ctx, decisions: tuple[Decision, ...]) -> bool:
    """Take the next decision an AI seat owes, or start waiting; True to look again."""
    st = c.t.run.state
    assert st is not None
    if st.phase is Phase.RETURN_TRIBUTE:
        return _returns(c, decisions)
    if not st.started and c.t.declare_open:
        return _pre_play(c)
    if st.window and c.t.run.window_step != st.step:
        c.t.run.window_step = st.step
        return not _open_burn_window(c, decisions)
    turn = next((d.seat for d in decisions if d.kind is DecisionKind.TURN), None)
    return turn is not None and _turn(c, turn)


def _returns(c: Ctx, decisions: tuple[Decision, ...]) -> bool:
    st = c.t.run.state
    assert st is not None
    for d in decisions:
        if d.kind is DecisionKind.RETURN_TRIBUTE and c.ai_plays(d.seat):
            action = decide(st, d.seat, without_search(c.env.policy), c.ai_rng(d.seat, "return"))
            if action is not None:
                c.apply(d.seat, action)
                return True
    if not c.waiting(DeadlineKind.RETURNS):
        c.set_deadline(DeadlineKind.RETURNS, c.t.turn_seconds or 0)
    return False


def _pre_play(c: Ctx) -> bool:
    """AI seats decide revolts and declarations once; then people get a pause."""
    if _pre_play_round(c):
        return True
    t = c.t
    # A person with no 革命, 明点 or other pre-play choice is ready at once: the first
    # lead waits only for seats that have something to decide (none: no pause at all).
    t.ready = t.ready | {
        s
        for s in t.humans()
        if s not in t.ready and not any(a.kind in PRE_PLAY_ACTIONS for a in human_options(t, s))
    }
    waiting = [s for s in t.humans() if s not in t.ready]
    if waiting and c.env.config.declare_window_seconds > 0:
        if not c.waiting(DeadlineKind.DECLARE):
            c.set_deadline(DeadlineKind.DECLARE, c.env.config.declare_window_seconds)
        return False
    t.declare_open = False
    return True


def _pre_play_round(c: Ctx) -> bool:
    """True if an AI seat acted (the state changed: look again)."""
    acted = False
    for seat in SEATS:
        if seat in c.t.ready or not c.ai_plays(seat):
            continue
        c.t.ready = c.t.ready | {seat}
        st = c.t.run.state
        assert st is not None
        if st.over or st.started:
            break
        legal = [a for a in seat_options(st, seat) if a.kind in PRE_PLAY_ACTIONS]
        if not legal:
            continue
        choice = without_search(c.env.policy).choose(
            seat_view(st, seat), legal, c.ai_rng(seat, "pre")
        )
        if choice is not None and choice in legal:
            c.apply(seat, choice)
            acted = True
            if choice.kind is ActionKind.REVOLT:
                c.t.ready = c.t.ready - {seat}  # a revolter may now 冲点: ask it again
    return acted


def _open_burn_window(c: Ctx, decisions: tuple[Decision, ...]) -> bool:
    """AI seats that can burn declare at once; people get a fixed pause. True if it waits."""
    st = c.t.run.state
    assert st is not None
    window = BurnWindow(step=st.step)
    for d in decisions:
        if d.kind is DecisionKind.BURN and c.ai_plays(d.seat):
            choice = decide(st, d.seat, without_search(c.env.policy), c.ai_rng(d.seat, "burn"))
            if choice is not None and choice.kind is ActionKind.BURN:
                window = window.declare(d.seat, choice)
    if c.t.humans() and c.env.config.burn_window_seconds > 0:
        c.t.run.window = window
        c.set_deadline(DeadlineKind.BURN, c.env.config.burn_window_seconds)
        return True
    settle_burns(c, window)
    return False


def settle_burns(c: Ctx, window: BurnWindow) -> None:
    """The engine resolves the declared burns (§8); if none took effect, the held action."""
    st = c.t.run.state
    assert st is not None
    declared = dict(window.declared)
    result = resolve_burns(
        st, [BurnDeclaration(s, a.cards) for s, a in declared.items() if a.cards]
    )
    if result.any_burned:
        # Apply the burns that took effect, in the engine's order, through the log.
        for e in result.events:
            if isinstance(e, Burned):
                c.apply(e.seat, declared[e.seat])
        return
    if window.queued is not None:
        seat, action = window.queued
        try:
            c.apply(seat, action)
        except IllegalAction as err:
            c.private_note(seat, err.code, **err.params)


def _turn(c: Ctx, seat: int) -> bool:
    st = c.t.run.state
    assert st is not None
    if c.ai_plays(seat):
        if c.env.watch is not None:
            c.env.watch(c.t, seat)
        if c.env.live is not None:
            c.env.live(tuple(c.outs))
        action = decide(st, seat, c.env.policy, c.ai_rng(seat, "turn"))
        if action is None:
            return False
        c.apply(seat, action)
        return True
    if not c.waiting(DeadlineKind.TURN, st.step):
        seconds: float = c.t.turn_seconds
        if seconds and not legal_plays(st, seat):
            seconds = min(seconds, c.env.config.no_answer_seconds)
        c.set_deadline(DeadlineKind.TURN, seconds, st.step)
    return False


def finish_hand(c: Ctx) -> None:
    t = c.t
    st = t.run.state
    assert st is not None and st.result is not None
    res = st.result
    c.clear_deadline()
    if res.voided:
        voided = {"voided": True, "deal_no": t.deal_no}
        t.match = replace(t.match, history=(*t.match.history, voided))
        c.finished.append(FinishedHand(t.deal_no, _hand_record(c), ()))  # a record, no stats
        c.notice(NoticeCode.HAND_VOIDED)
        # The redeal gives again what the last finished hand owes (engine.match.carry_over).
        deal(c)
        return
    a, b = t.match.totals
    totals = (a + res.team_scores[0], b + res.team_scores[1])
    entry = {
        "hand_no": t.match.hand_no,
        "deal_no": t.deal_no,
        "seed": t.hand_seed,
        "leader": t.hand_leader,
        "places": list(res.places),
        "team_scores": list(res.team_scores),
        "sweep": res.sweep_team,
        "tributes": [x.to_json() for x in res.tributes],
        "preset": st.rules.preset,
    }
    t.match = MatchRecord(t.match.hand_no, totals, (*t.match.history, entry))
    t.run.last_result = res
    record = _hand_record(c)  # before hand_owed moves on to the next hand
    t.hand_owed = res.tributes
    t.hand_streaks = res.streaks  # a voided hand keeps them (RULES §10)
    t.next_leader = next_leader(st)
    c.finished.append(FinishedHand(t.deal_no, record, _players(c)))
    c.outs.append(HandFinished(t.key, t.match.hand_no, totals, res))
    cfg = t.settings
    done = (cfg.match_hands and t.match.hand_no >= cfg.match_hands) or (
        cfg.target_score and max(abs(x) for x in totals) >= cfg.target_score
    )
    if done:
        end_match(c, stopped=False)
        return
    t.status = TableStatus.BETWEEN
    c.bump()
    c.set_deadline(DeadlineKind.NEXT_HAND, c.env.config.between_hands_seconds)


def _hand_record(c: Ctx) -> dict[str, Any]:
    """The stored record of the hand that just ended (bot.records)."""
    t = c.t
    assert t.run.state is not None
    return record_json(
        match_id=t.match_seed,
        hand_no=t.match.hand_no,
        deal_no=t.deal_no,
        seed=t.hand_seed,
        leader=t.hand_leader,
        owed=t.hand_owed,
        names=[c.name(s) for s in SEATS],
        log=t.log,
        state=t.run.state,
        users=[None if info is None else info.user_id for info in t.seats],
    )


def _players(c: Ctx) -> tuple[tuple[str, str, int, int], ...]:
    """What the hand adds to each person's stats: user id, name, place, points."""
    t = c.t
    res = t.run.state.result if t.run.state is not None else None
    assert res is not None
    return tuple(
        (info.user_id, info.name, res.place_of(s), res.seat_points[s - 1])
        for s in SEATS
        if (info := t.seats[s - 1]) is not None and info.user_id is not None
    )


def end_match(c: Ctx, stopped: bool) -> None:
    t = c.t
    t.status = TableStatus.FINISHED
    c.clear_deadline()
    t.run.window = None
    c.bump()
    c.outs.append(MatchOver(t.key, t.match.totals, t.match.hand_no, stopped))
