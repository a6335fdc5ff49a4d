"""Seeded sample games for the demo, the golden images and the benchmark.

Random legal actions only: enough to fill a table with passes, burns and finished seats.
"""

from __future__ import annotations

import random

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import parse
from bot.engine.game import apply, from_hands, legal_actions, new_hand
from bot.engine.rules import PresetName, make_rules
from bot.engine.state import SEATS, HandState, Phase

SAMPLE_NAMES = ("张三丰", "Alice", "李小龙🐉", "🀄🎉", "Bob the Very Long Named Player", "王五")

# Actions that do not move the game on: a random walk would waste its steps on them.
_IDLE = {ActionKind.ASK_COUNT, ActionKind.DECLARE_POINT, ActionKind.WAIVE}


def _choices(state: HandState, rng: random.Random) -> list[tuple[int, Action]]:
    if state.phase is Phase.RETURN_TRIBUTE:
        return [(s, a) for s in SEATS for a in legal_actions(state, s) if a.kind not in _IDLE]
    out: list[tuple[int, Action]] = []
    if state.to_act is not None:
        acts = [a for a in legal_actions(state, state.to_act) if a.kind not in _IDLE]
        # Revolutions end a random game too early to be interesting: rarely take one.
        acts = [a for a in acts if a.kind is not ActionKind.REVOLT or rng.random() < 0.02]
        out += [(state.to_act, a) for a in acts]
    burns = [
        (s, a)
        for s in SEATS
        if s != state.to_act
        for a in legal_actions(state, s)
        if a.kind is ActionKind.BURN
    ]
    if burns and rng.random() < 0.5:
        return burns
    return out


def _key(choice: tuple[int, Action]) -> tuple[int, str, tuple[int, ...], int, bool]:
    seat, a = choice
    return seat, a.kind.value, a.cards or (), a.target or 0, a.pre


def step(state: HandState, rng: random.Random) -> HandState | None:
    """One random legal action, preferring plays to passes so tricks fill up; None when stuck."""
    # Canonical order: the walk depends on which actions are legal, not on the order the
    # engine happens to list them in, so golden images survive engine refactors.
    choices = sorted(_choices(state, rng), key=_key)
    if not choices:
        return None
    plays = [c for c in choices if c[1].kind is ActionKind.PLAY]
    if plays and rng.random() < 0.6:
        choices = plays
    seat, action = rng.choice(choices)
    return apply(state, seat, action)[0]


def play(state: HandState, rng: random.Random, steps: int | None = None) -> HandState:
    """Up to ``steps`` random actions (None: to the end of the hand)."""
    n = 0
    while not state.over and (steps is None or n < steps):
        nxt = step(state, rng)
        if nxt is None:
            break
        state = nxt
        n += 1
    return state


def sample_state(preset: PresetName, seed: int, steps: int | None) -> HandState:
    state, _ = new_hand(make_rules(preset), seed)
    return play(state, random.Random(f"sample:{preset}:{seed}"), steps)


def burn_scenario() -> HandState:
    """A fixed table (RULES §15's example, extended): seat 3 revolts, seat 1 plays a
    够级牌 and seat 2 burns it; counts are shown so every seat marker appears."""
    rules = make_rules("dagang", {"count_rule": "always"})
    hands = ["SS888TTTTT3KK", "JJJJJSQQ4", "5678", "QQQQQ9AA", "6K", "7A99"]
    state, _ = from_hands(rules, [parse(h) for h in hands], 1)
    for seat, action in (
        (3, Action(ActionKind.REVOLT)),
        (1, Action(ActionKind.PLAY, parse("TTTTT"))),
        (2, Action(ActionKind.BURN, parse("JJJJJ"))),
    ):
        state = apply(state, seat, action)[0]
    return state
