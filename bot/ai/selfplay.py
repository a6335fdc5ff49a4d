"""Run a whole hand with one policy per seat: the order a table manager asks seats in.

Used by tests and benchmarks, and a reference for the table manager's loop:
还贡 receivers first; before the first play every other seat may revolt or declare;
while a 够级牌 waits for its answer, each burn-window seat is asked once, in
``burn_priority`` order; then the seat to act.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action
from ..engine.game import apply
from ..engine.state import SEATS, HandState, Phase, same_team
from .base import Policy, decide

MAX_ACTIONS = 5000  # far above any real hand; a guard against a stalled loop


class StalledHand(RuntimeError):
    """The engine left a hand where the seat that must act has no legal action."""


@dataclass
class HandLog:
    state: HandState
    actions: list[tuple[int, Action]] = field(default_factory=list)


def burn_order(state: HandState) -> list[int]:
    """Seats that may burn the 够级牌 on top, in the order their burns would be applied."""
    top = state.top_seat
    if top is None or not state.window:
        return []
    seats = sorted(state.window, key=lambda s: (s - top) % 6)
    if state.rules.burn_priority == "team":
        seats.sort(key=lambda s: not same_team(s, top))  # stable: keeps seat order per team
    return [s for s in seats if state.is_active(s)]


def _step(log: HandLog, seat: int, action: Action) -> None:
    log.state, _ = apply(log.state, seat, action)
    log.actions.append((seat, action))


def play_hand(state: HandState, policies: Sequence[Policy], rng: random.Random) -> HandLog:
    """Play ``state`` to its end; ``policies[i]`` plays seat i + 1."""
    log = HandLog(state)
    pre_asked = False
    burn_asked: set[tuple[int, int]] = set()  # (state step, seat): one chance per window
    while not log.state.over:
        if len(log.actions) > MAX_ACTIONS:
            raise StalledHand(f"no end after {MAX_ACTIONS} actions")
        st = log.state
        if st.phase is Phase.RETURN_TRIBUTE:
            seat = st.pending_returns[0][0]
            action = decide(st, seat, policies[seat - 1], rng)
            if action is None:
                raise StalledHand(f"seat {seat} owes a return but has no legal one")
            _step(log, seat, action)
            continue
        if not st.started and not pre_asked:
            pre_asked = True
            for seat in SEATS:
                if seat != log.state.to_act and not log.state.over:
                    choice = decide(log.state, seat, policies[seat - 1], rng)
                    if choice is not None:
                        _step(log, seat, choice)
            continue
        burned = False
        for seat in burn_order(st):
            # The seat to act (a 无头 seat may be in the window too) burns on its turn.
            if (st.step, seat) in burn_asked or seat == st.to_act:
                continue
            burn_asked.add((st.step, seat))
            choice = decide(st, seat, policies[seat - 1], rng)
            if choice is not None:
                _step(log, seat, choice)
                burned = True
                break
        if burned:
            continue
        actor = st.to_act
        action = None if actor is None else decide(st, actor, policies[actor - 1], rng)
        if actor is None or action is None:
            # Only the engine can cause this: a hand nobody can move on.
            raise StalledHand(f"step {st.step}: seat {actor} is to act with no legal action")
        _step(log, actor, action)
    return log
