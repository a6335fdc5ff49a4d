"""Shared builders for the AI tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai import HeuristicPolicy, Policy, decide, options
from bot.engine import Action, ActionKind, apply, from_hands, make_rules, new_hand, parse
from bot.engine.state import HandState
from bot.engine.views import SeatView, seat_view

RNG_SEED = 7


def table(hands: Sequence[str], leader: int = 1, preset: str = "dagang") -> HandState:
    state, _ = from_hands(make_rules(preset), [parse(h) for h in hands], leader)
    return state


def act(state: HandState, seat: int, kind: ActionKind, cards: str | None = None) -> HandState:
    action = Action(kind, parse(cards) if cards is not None else None)
    state, _ = apply(state, seat, action)
    return state


def play(state: HandState, seat: int, cards: str) -> HandState:
    return act(state, seat, ActionKind.PLAY, cards)


def heuristic_choice(state: HandState, seat: int) -> Action | None:
    return decide(state, seat, HeuristicPolicy(state.rules), random.Random(RNG_SEED))


class Checked:
    """Wraps a policy and asserts every answer is one of the legal actions it was given."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.calls = 0

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        assert legal, "a policy is only asked when the seat has something to do"
        assert all(a.kind is not ActionKind.ASK_COUNT for a in legal)
        self.calls += 1
        choice = self.inner.choose(view, legal, rng)
        assert choice is None or choice in legal
        return choice


def mid_hand(seed: int = 4) -> HandState:
    """A dealt dagang hand a few plays in, with a choice to make for the seat to act."""
    rules = make_rules("dagang")
    state, _ = new_hand(rules, seed)
    from bot.ai.expert import ExpertPolicy

    expert = ExpertPolicy(rules)
    normal = expert.normal
    for step in range(60):
        seat = state.to_act
        assert seat is not None
        legal = options(state, seat)
        view = seat_view(state, seat)
        base = normal.choose(view, legal, random.Random(0))
        # A few plays in, stop at the first decision with an alternative to search (it
        # does not depend on how normal's weights happen to be tuned).
        if step >= 12 and len(expert.candidates(view, legal, base)) >= 2:
            return state
        action = decide(state, seat, normal, random.Random(0))
        assert action is not None
        state, _ = apply(state, seat, action)
    raise AssertionError("no decision with alternatives in 60 actions")
