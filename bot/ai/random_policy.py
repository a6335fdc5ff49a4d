"""The baseline: uniformly random, yet always making progress."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import Action, ActionKind
from ..engine.views import SeatView
from .base import MANDATORY

# Moves that keep a hand going; everything else (revolt, 明点, waive, burn) is optional.
_PROGRESS = MANDATORY | {ActionKind.RANG}


class RandomPolicy:
    """Uniform over the moves that advance the hand; takes an optional move half the time.

    Revolts, declarations, waivers and burns are never picked over a turn's play/pass:
    a random walk that keeps revolting or declaring would only stall or void hands.
    """

    def __init__(self, optional_rate: float = 0.5) -> None:
        self.optional_rate = optional_rate

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        progress = [a for a in legal if a.kind in _PROGRESS]
        if progress:
            return rng.choice(progress)
        if not legal or rng.random() >= self.optional_rate:
            return None
        return rng.choice(legal)
