"""The seat-AI contract: a Policy picks one action from a seat's own view and legal list.

A policy never sees the HandState, only ``seat_view`` (its own hand and the public
table), so it cannot read another seat's hand. ``decide`` is the one place that turns a
state into (view, legal list) and checks the policy's answer against that list.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from concurrent.futures import Executor
from enum import StrEnum
from typing import Protocol

from ..engine.actions import Action, ActionKind
from ..engine.cards import EMPTY
from ..engine.game import legal_actions
from ..engine.state import HandState, Phase
from ..engine.views import SeatView, seat_view

# A seat with one of these in its list owes the table an action: None is not an answer.
MANDATORY = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RETURN_TRIBUTE})


class Role(StrEnum):
    """Why a seat is being asked, so the table manager knows whether it may time out."""

    RETURN = "return"  # 还贡: every receiver owes its returns; no to_act in this phase
    TURN = "turn"  # the seat to act: a play, pass or 让 (or a revolt/declaration first)
    BURN = "burn"  # a 够级牌 awaits its answer and this seat may burn it
    PRE_PLAY = "pre_play"  # before the first play: revolt, 明点 or waiving 够死级 plays


class PolicyError(RuntimeError):
    """A policy broke the contract (an action outside ``legal``, or None when it must act)."""


class Policy(Protocol):
    """Chooses for one seat.

    ``legal`` never holds ASK_COUNT. Return one element of ``legal``, or None to decline —
    allowed only when ``legal`` holds no PLAY, PASS or RETURN_TRIBUTE (burn windows,
    revolts, declarations, waivers). Every random choice must come from ``rng``.
    """

    def choose(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action | None: ...


class SearchingPolicy(Protocol):
    """A policy that searches: besides the view it gets the public table as a HandState
    with every other hand emptied (``masked_state``), so it can deal the hidden cards
    itself. It never receives another seat's cards."""

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None: ...


def masked_state(state: HandState, seat: int) -> HandState:
    """The table as ``seat`` sees it: every other hand emptied (only counts are public)."""
    return state._replace(
        hands=tuple(h if s == seat else EMPTY for s, h in enumerate(state.hands, 1))
    )


def options(state: HandState, seat: int) -> list[Action]:
    """The seat's legal actions without ASK_COUNT (free at any time, never a decision)."""
    return [a for a in legal_actions(state, seat) if a.kind is not ActionKind.ASK_COUNT]


def role_of(legal: Sequence[Action], state: HandState, seat: int) -> Role | None:
    if not legal:
        return None
    if state.phase is Phase.RETURN_TRIBUTE:
        return Role.RETURN
    if state.to_act == seat:
        return Role.TURN
    if any(a.kind is ActionKind.BURN for a in legal):
        return Role.BURN
    return Role.PRE_PLAY


def is_mandatory(legal: Sequence[Action]) -> bool:
    return any(a.kind in MANDATORY for a in legal)


def decide(state: HandState, seat: int, policy: Policy, rng: random.Random) -> Action | None:
    """What ``policy`` does for ``seat`` now; None when the seat has nothing to do or declines.

    Raises PolicyError when the policy's answer breaks the contract, so a broken policy
    fails loudly instead of stalling a table.
    """
    legal = options(state, seat)
    if not legal:
        return None
    view = seat_view(state, seat)
    # A getattr, not isinstance on the Protocol: that check costs more than a decision.
    search = getattr(policy, "choose_searching", None)
    choice: Action | None
    if search is not None:
        choice = search(view, masked_state(state, seat), legal, rng)
    else:
        choice = policy.choose(view, legal, rng)
    if choice is None:
        if is_mandatory(legal):
            raise PolicyError(f"{type(policy).__name__} declined a turn of seat {seat}")
        return None
    if choice not in legal:
        raise PolicyError(f"{type(policy).__name__} chose {choice!r}, not legal for seat {seat}")
    return choice


async def decide_async(
    state: HandState,
    seat: int,
    policy: Policy,
    rng: random.Random,
    executor: Executor | None = None,
) -> Action | None:
    """``decide`` in a worker thread (or ``executor``), so a searching policy — the expert
    takes up to its time budget — never blocks the event loop. Policies keep no state
    between calls and states are immutable, so concurrent calls are safe."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, decide, state, seat, policy, rng)
