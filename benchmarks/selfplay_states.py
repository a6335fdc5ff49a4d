"""The states at which ``normal`` self-play asks a seat to decide (benchmarks sample them)."""

from __future__ import annotations

import random

from bot.ai import selfplay
from bot.ai.base import Policy
from bot.ai.normal import NormalPolicy
from bot.engine import Action, new_hand
from bot.engine.rules import Rules
from bot.engine.state import HandState

Sample = tuple[HandState, int]


def hand_decisions(rules: Rules, hand_seed: int, rng_seed: int) -> list[Sample]:
    """Every (state, seat) at which the self-play of hand ``hand_seed`` (``normal`` at every
    seat, ties from ``rng_seed``) asked a seat to decide, in the order of play."""
    seen: list[Sample] = []
    plain = selfplay.decide

    def recording(
        state: HandState, seat: int, policy: Policy, rng: random.Random
    ) -> Action | None:  # the self-play loop's ``decide``, noting its arguments
        seen.append((state, seat))
        return plain(state, seat, policy, rng)

    selfplay.decide = recording  # type: ignore[assignment]
    try:
        state, _ = new_hand(rules, hand_seed)
        policies = [NormalPolicy() for _ in range(6)]
        selfplay.play_hand(state, policies, random.Random(rng_seed))
    finally:
        selfplay.decide = plain  # type: ignore[assignment]
    return seen
