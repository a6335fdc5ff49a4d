"""Replay a RULES §15 scenario file (an exported record, or one written by hand) into the
same ``Replayed`` form a stored record gives, one per hand of the match, so the terminal
step-through and "why" answers work on any file the referee accepts."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.cards import parse
from ..engine.errors import IllegalAction
from ..engine.events import Event
from ..engine.game import apply, from_hands
from ..engine.match import MatchCarry, carry_over
from ..engine.scenario import BURN_WINDOW, ActionSpec, Scenario, parse_scenario
from ..engine.schedule import BurnDeclaration, resolve_burns
from ..engine.state import HandState
from .replay import Refusal, Replayed


def _line(spec: ActionSpec) -> dict[str, Any]:
    out: dict[str, Any] = {} if spec.seat is None else {"seat": spec.seat}
    out.update(spec.engine_json())
    if spec.declared:
        out["declared"] = [{"seat": d.seat, "cards": d.cards} for d in spec.declared]
    return out


def _step(state: HandState, spec: ActionSpec) -> tuple[HandState, tuple[Event, ...]]:
    """Apply one scenario action; raises IllegalAction when the engine refuses it."""
    if spec.do == BURN_WINDOW:
        declared: list[BurnDeclaration] = []
        bad: list[IllegalAction] = []
        for d in spec.declared:  # as the referee: a declaration in bad notation drops out
            try:
                declared.append(BurnDeclaration(d.seat, parse(d.cards)))
            except IllegalAction as err:
                bad.append(err)
        result = resolve_burns(state, declared)
        if not result.any_burned:
            refusals = [
                IllegalAction(o.error, **dict(o.params)) for o in result.outcomes if o.error
            ]
            if bad or refusals:
                raise (bad + refusals)[0]
        return result.state, tuple(result.events)
    action = Action.from_json(spec.engine_json())
    state, events = apply(state, spec.seat, action)  # type: ignore[arg-type]
    return state, tuple(events)


def replay_scenario(raw: Any) -> list[Replayed]:
    """Every hand of the scenario, replayed; raises ScenarioError for a bad file."""
    sc: Scenario = parse_scenario(raw)
    carry = MatchCarry(leader=sc.first.leader, owed=sc.tributes)
    out: list[Replayed] = []
    for k, spec in enumerate((sc.first, *sc.next_hands)):
        assert carry.leader is not None
        hands = [parse(h) for h in spec.hands]
        pre = sc.pre_points if k == 0 else ()
        state, start_events = from_hands(
            sc.rules, hands, carry.leader, carry.owed, spec.buy_three, pre
        )
        states, events, refused = [state], [], []
        for i, action in enumerate(spec.actions):
            try:
                state, evs = _step(state, action)
            except IllegalAction as err:
                refused.append(Refusal(i, err.code.value, tuple(err.params.items())))
                evs = ()
            states.append(state)
            events.append(evs)
        out.append(
            Replayed(
                start=states[0],
                dealt=tuple(spec.hands),
                start_events=tuple(start_events),
                states=tuple(states),
                events=tuple(events),
                actions=tuple(_line(a) for a in spec.actions),
                refused=tuple(refused),
            )
        )
        if not state.over:
            break
        carry = carry_over(carry, state)
    return out
