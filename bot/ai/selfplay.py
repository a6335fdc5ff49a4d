"""Run a whole hand with one policy per seat, in the order the engine's schedule gives.

Used by tests and benchmarks. The loop is ``bot.engine.schedule.pending_decisions``:
还贡 receivers first; before the first play every other seat may revolt or declare (each
asked once); while a 够级牌 waits for its answer, every burn-window seat declares or not
on the same table and the engine resolves the window (``resolve_burns``); then the seat
to act.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action, ActionKind
from ..engine.events import Burned
from ..engine.game import apply
from ..engine.schedule import (
    BurnDeclaration,
    DecisionKind,
    burn_priority,
    pending_decisions,
    resolve_burns,
)
from ..engine.state import HandState
from .base import Policy, decide

MAX_ACTIONS = 5000  # far above any real hand; a guard against a stalled loop


class StalledHand(RuntimeError):
    """The engine left a hand where the seat that must act has no legal action."""


@dataclass
class HandLog:
    state: HandState
    actions: list[tuple[int, Action]] = field(default_factory=list)


def burn_order(state: HandState) -> list[int]:
    """The engine's ``burn_priority`` as a list (kept for callers of the old name)."""
    return list(burn_priority(state))


def _step(log: HandLog, seat: int, action: Action) -> None:
    log.state, _ = apply(log.state, seat, action)
    log.actions.append((seat, action))


def _burn_window(
    log: HandLog, seats: list[int], policies: Sequence[Policy], rng: random.Random
) -> bool:
    """Ask each window seat once on the same table; True if the state changed."""
    st = log.state
    declared: list[BurnDeclaration] = []
    for seat in seats:
        choice = decide(st, seat, policies[seat - 1], rng)
        if choice is None:
            continue
        if choice.kind is not ActionKind.BURN or choice.cards is None:
            _step(log, seat, choice)  # e.g. waiving 够死级 plays: not part of the window
            return True
        declared.append(BurnDeclaration(seat, choice.cards))
    if not declared:
        return False
    result = resolve_burns(st, declared)
    if not result.any_burned:
        return False
    # The log keeps the burns that took effect, in the order the engine applied them.
    by_seat = {d.seat: d for d in declared}
    for e in result.events:
        if isinstance(e, Burned):
            log.actions.append((e.seat, by_seat[e.seat].action()))
    log.state = result.state
    return True


def play_hand(state: HandState, policies: Sequence[Policy], rng: random.Random) -> HandLog:
    """Play ``state`` to its end; ``policies[i]`` plays seat i + 1."""
    log = HandLog(state)
    pre_asked: set[int] = set()  # seats asked in the pre-play round
    burn_asked = -1  # the step whose burn window has been asked
    while not log.state.over:
        if len(log.actions) > MAX_ACTIONS:
            raise StalledHand(f"no end after {MAX_ACTIONS} actions")
        st = log.state
        pending = pending_decisions(st)
        if not pending:
            raise StalledHand(f"step {st.step}: nobody is to act")
        head = pending[0]
        if head.kind is DecisionKind.RETURN_TRIBUTE:
            action = decide(st, head.seat, policies[head.seat - 1], rng)
            if action is None:
                raise StalledHand(f"seat {head.seat} owes a return but has no legal one")
            _step(log, head.seat, action)
            continue
        pre = [
            d.seat
            for d in pending
            if d.kind is DecisionKind.PRE_PLAY and d.seat != st.to_act and d.seat not in pre_asked
        ]
        if pre:
            seat = pre[0]
            pre_asked.add(seat)
            choice = decide(st, seat, policies[seat - 1], rng)
            if choice is not None:
                _step(log, seat, choice)
                if choice.kind is ActionKind.REVOLT:
                    pre_asked.discard(seat)  # a revolter may now 冲点: ask it again
            continue
        burns = [d.seat for d in pending if d.kind is DecisionKind.BURN]
        if burns and burn_asked != st.step:
            burn_asked = st.step
            if _burn_window(log, burns, policies, rng):
                continue
        actor = st.to_act
        action = None if actor is None else decide(st, actor, policies[actor - 1], rng)
        if actor is None or action is None:
            # Only the engine can cause this: a hand nobody can move on.
            raise StalledHand(f"step {st.step}: seat {actor} is to act with no legal action")
        _step(log, actor, action)
    return log
