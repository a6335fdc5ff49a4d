"""Rebuild a recorded hand from its seed and actions (the engine is deterministic)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..engine import cards as C
from ..engine.events import Event, HandDealt
from ..engine.game import apply, new_hand
from ..engine.state import SEATS, HandState
from .record import HandRecord


class RecordCode(StrEnum):
    INCOMPLETE = "record_incomplete"  # an old record without the tributes given at its start
    DOES_NOT_REPLAY = "record_does_not_replay"  # the engine no longer accepts its actions


class RecordError(Exception):
    def __init__(self, code: RecordCode, number: int, detail: str = "") -> None:
        super().__init__(f"{code.value}: hand #{number} {detail}".strip())
        self.code = code
        self.number = number
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action the engine refused: its index, error code and the error's parameters."""

    index: int
    code: str
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record played through the engine: the state before each action and after the last."""

    start: HandState
    dealt: tuple[str, ...]  # the six hands as dealt, before tributes and 买3 (notation)
    start_events: tuple[Event, ...]
    states: tuple[HandState, ...]  # states[i] is the state before action i; last = final
    events: tuple[tuple[Event, ...], ...]  # events[i] are action i's events
    actions: tuple[Mapping[str, Any], ...] = ()  # action i as a scenario line (seat, do, …)
    refused: tuple[Refusal, ...] = ()  # actions the engine refused (a scenario file may have some)

    @property
    def final(self) -> HandState:
        return self.states[-1]


def replay(rec: HandRecord) -> Replayed:
    """Replay a record; raises RecordError when it cannot be rebuilt faithfully."""
    if not rec.knows_owed:
        raise RecordError(
            RecordCode.INCOMPLETE, rec.number, "(stored before records kept tributes)"
        )
    state, start_events = new_hand(rec.rules, rec.seed, rec.leader, rec.owed, streaks=rec.streaks)
    dealt = {e.seat: e.cards for e in start_events if isinstance(e, HandDealt)}
    if any(dealt.get(s) is None for s in SEATS):
        raise RecordError(RecordCode.DOES_NOT_REPLAY, rec.number, "(no dealt hands)")
    states = [state]
    events: list[tuple[Event, ...]] = []
    for i, (seat, action) in enumerate(rec.actions):
        try:
            state, evs = apply(state, seat, action)
        except Exception as err:  # IllegalAction: the rules moved under an old record
            raise RecordError(
                RecordCode.DOES_NOT_REPLAY, rec.number, f"at action {i}: {err}"
            ) from err
        states.append(state)
        events.append(tuple(evs))
    if rec.final is not None and not _same_final(rec.final, state.final_json()):
        raise RecordError(RecordCode.DOES_NOT_REPLAY, rec.number, "(final object differs)")
    return Replayed(
        start=states[0],
        dealt=tuple(dealt[s] for s in SEATS),
        start_events=tuple(start_events),
        states=tuple(states),
        events=tuple(events),
        actions=tuple({"seat": seat, **action.to_json()} for seat, action in rec.actions),
    )


def _same_final(stored: Mapping[str, Any], now: Mapping[str, Any]) -> bool:
    """The keys both know agree (a newer engine may report more keys than an old record)."""
    return all(stored[k] == now[k] for k in stored.keys() & now.keys())


def dealt_counts(replayed: Replayed) -> tuple[C.Counts, ...]:
    return tuple(C.parse(h) for h in replayed.dealt)
