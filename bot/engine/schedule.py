"""Who decides next: burn windows and the pending decisions of a hand (RULES.md §8, §10).

The engine's ``apply`` takes one action at a time. A table also has to know who may act
*now* besides the seat to act (还贡 receivers, the pre-play declarations, the burn window
around a 够级牌) and how to settle burns declared together in one window. Both live here
so self-play, the table manager and any future worker share one loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import Action, ActionKind, HuiRanks
from .cards import Counts
from .errors import ErrorCode, IllegalAction
from .events import Event
from .game import apply, legal_actions, legal_burns
from .queries import declare_error, hui_error, revolt_error
from .state import SEATS, HandState, Phase, same_team

__all__ = [
    "BurnDeclaration",
    "BurnOutcome",
    "BurnWindowResult",
    "Decision",
    "DecisionKind",
    "burn_priority",
    "pending_decisions",
    "resolve_burns",
]


# ---------------------------------------------------------------------------------------
# Burn windows
# ---------------------------------------------------------------------------------------
def burn_priority(state: HandState) -> tuple[int, ...]:
    """Seats that may burn the 够级牌 on top, in the order their burns are applied.

    ``order``: counter-clockwise from the 够级 player. ``team``: the player's teammates
    first, then its opponents, each side in play order from the player — which is also
    the order when every declarer is on one side (seed 003 "若烧牌者均为一方，则按发牌顺序进行").
    """
    top = state.top_seat
    if top is None or not state.window:
        return ()
    seats = sorted(state.window, key=lambda s: (s - top) % 6)
    if state.rules.burn_priority == "team":
        seats.sort(key=lambda s: not same_team(s, top))  # stable: keeps play order per side
    return tuple(s for s in seats if state.is_active(s))


@dataclass(frozen=True, slots=True)
class BurnDeclaration:
    """One seat's burn, declared during a window with the cards it burns with."""

    seat: int
    cards: Counts

    def action(self) -> Action:
        return Action(ActionKind.BURN, self.cards)


@dataclass(frozen=True, slots=True)
class BurnOutcome:
    """What became of one declaration: taken effect, or refused with a code."""

    seat: int
    error: ErrorCode | None = None
    params: tuple[tuple[str, Any], ...] = ()  # the refusal's parameters, for its message

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, object]:
        if self.error is None:
            return {"seat": self.seat, "ok": True}
        return {"seat": self.seat, "ok": False, "error": self.error.value}


@dataclass(frozen=True, slots=True)
class BurnWindowResult:
    state: HandState
    events: tuple[Event, ...]
    outcomes: tuple[BurnOutcome, ...]  # one per declaration, in the order declared

    @property
    def any_burned(self) -> bool:
        return any(o.ok for o in self.outcomes)


def resolve_burns(state: HandState, declared: Sequence[BurnDeclaration]) -> BurnWindowResult:
    """Settle the burns declared in one window (RULES.md §8).

    Declarations go in ``burn_priority`` order. The first that is legal against the 够级牌
    takes effect. Each later one is tried again, against the new top, only when the new
    top belongs to its opponent: a 反烧 when the engine accepts it, otherwise it is dropped
    as ``burn_superseded`` (so is a later declaration facing its own side's burn). A
    declaration that was never legal keeps its own refusal code. The result does not
    depend on the order of ``declared``; a seat that declares twice keeps its first.
    """
    outcome: dict[int, BurnOutcome] = {}
    first: dict[int, BurnDeclaration] = {}
    duplicate: list[int] = []
    for i, d in enumerate(declared):
        if d.seat in first:
            duplicate.append(i)
        else:
            first[d.seat] = d
    legal = _legal_in_window(state, first.values(), outcome)
    cur, events = _burn_in_order(state, legal, outcome)
    results: list[BurnOutcome] = []
    for i, d in enumerate(declared):
        if i in duplicate:
            # One chance per window: a second declaration by the same seat is refused.
            results.append(BurnOutcome(d.seat, ErrorCode.BURN_NOT_ALLOWED))
        else:
            results.append(outcome[d.seat])
    return BurnWindowResult(cur, tuple(events), tuple(results))


def _legal_in_window(
    state: HandState, declared: Iterable[BurnDeclaration], outcome: dict[int, BurnOutcome]
) -> list[BurnDeclaration]:
    """The declarations legal against the window's own 够级牌, in priority order; a
    refusal here is the declaration's own (recorded in ``outcome``)."""
    priority = {s: i for i, s in enumerate(burn_priority(state))}
    legal: list[BurnDeclaration] = []
    for d in declared:
        try:
            apply(state, d.seat, d.action())
        except IllegalAction as err:
            outcome[d.seat] = BurnOutcome(d.seat, err.code, tuple(err.params.items()))
        else:
            legal.append(d)
    legal.sort(key=lambda d: priority.get(d.seat, len(priority) + d.seat))
    return legal


def _burn_in_order(
    state: HandState, legal: list[BurnDeclaration], outcome: dict[int, BurnOutcome]
) -> tuple[HandState, list[Event]]:
    """Apply the legal burns one after another: after the first, only a 反烧 against the
    other side's burn takes effect (outcomes recorded in ``outcome``)."""
    events: list[Event] = []
    cur = state
    taken = False
    for d in legal:
        top = cur.top_seat
        if taken and (top is None or same_team(top, d.seat)):
            outcome[d.seat] = BurnOutcome(d.seat, ErrorCode.BURN_SUPERSEDED)
            continue
        try:
            cur, evs = apply(cur, d.seat, d.action())
        except IllegalAction:
            # Legal against the window's play, not against the burn that came first.
            outcome[d.seat] = BurnOutcome(d.seat, ErrorCode.BURN_SUPERSEDED)
            continue
        events += evs
        taken = True
        outcome[d.seat] = BurnOutcome(d.seat)
    return cur, events


# ---------------------------------------------------------------------------------------
# Pending decisions
# ---------------------------------------------------------------------------------------
class DecisionKind(StrEnum):
    """Why a seat is asked now."""

    RETURN_TRIBUTE = "return_tribute"  # 还贡: a receiver owes a return (must)
    PRE_PLAY = "pre_play"  # before the first play: 革命, 明点/预点, 烩, 冲点 (may)
    BURN = "burn"  # a 够级牌 awaits its answer and the seat can burn it (may)
    TURN = "turn"  # the seat to act: play, pass or 让 (must)


@dataclass(frozen=True, slots=True)
class Decision:
    seat: int
    kind: DecisionKind
    required: bool  # True: the hand waits for this seat; False: it may decline

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": self.kind.value, "required": self.required}


def _pre_play(state: HandState, seat: int) -> bool:
    """Whether the seat has a pre-play action (cheap checks; no play generation)."""
    if state.is_active(seat):
        if revolt_error(state, seat) is None or declare_error(state, seat) is None:
            return True
        if any(hui_error(state, seat, r) is None for r in HuiRanks):
            return True
    # 冲点 is the revolter's own choice right after its revolt.
    return seat in state.revolters and any(
        a.kind is ActionKind.CHONGDIAN for a in legal_actions(state, seat)
    )


def pending_decisions(state: HandState) -> tuple[Decision, ...]:
    """Who may or must decide now, and why, in the order a table asks them.

    - 还贡 phase: each receiver that owes a return (required), in the order owed.
    - Before the first play: every seat with a pre-play action (optional), then the
      leader's turn. A loop asks each of them once; the pre-play round closes when the
      first play is made.
    - A 够级牌 awaiting its answer: the burn-window seats that hold a legal burn, in
      ``burn_priority`` order (optional; resolve them together with ``resolve_burns``),
      then the seat to act.
    - Otherwise the seat to act (required).
    A finished or voided hand has none.
    """
    if state.over:
        return ()
    if state.phase is Phase.RETURN_TRIBUTE:
        seen: list[int] = []
        for receiver, _, _ in state.pending_returns:
            if receiver not in seen:
                seen.append(receiver)
        return tuple(Decision(s, DecisionKind.RETURN_TRIBUTE, True) for s in seen)
    out: list[Decision] = []
    if not state.started:
        out += [Decision(s, DecisionKind.PRE_PLAY, False) for s in SEATS if _pre_play(state, s)]
    for s in burn_priority(state):
        if s != state.to_act and legal_burns(state, s):
            out.append(Decision(s, DecisionKind.BURN, False))
    if state.to_act is not None:
        out.append(Decision(state.to_act, DecisionKind.TURN, True))
    return tuple(out)
