"""A recorded hand as frames for a step-through view: the start of play, the table at the
end of each trick, and the result. Every frame carries the whole state: a record is only
shown once its hand is over, so every hand may be shown face-up."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..engine.events import Event, TrickWon
from ..engine.state import HandState, Phase
from .replay import Replayed


class FrameKind(StrEnum):
    START = "start"  # play begins: tributes, returns and 买3 are done
    TRICK = "trick"  # a trick is complete, just before it is cleared
    END = "end"  # the hand is over (or voided)


@dataclass(frozen=True, slots=True)
class Frame:
    index: int
    kind: FrameKind
    trick: int  # 1-based trick number for TRICK frames, else 0
    state: HandState
    step: int  # actions applied before this frame's state
    events: tuple[Event, ...]  # public events since the previous frame, in order
    winner: int | None = None  # who won the trick
    cards: str | None = None  # the winning play

    def first_step(self) -> int:
        """The action index where this frame's story begins (for "why" questions)."""
        return self.step


def _public(events: list[Event]) -> tuple[Event, ...]:
    return tuple(e for e in events if e.is_public())


def frames(played: Replayed) -> list[Frame]:
    """START, one TRICK frame per trick won, END."""
    out: list[Frame] = []
    pending: list[Event] = list(played.start_events)
    started = False
    tricks = 0

    def add(
        kind: FrameKind,
        state: HandState,
        step: int,
        winner: int | None = None,
        cards: str | None = None,
    ) -> None:
        trick = tricks if kind is FrameKind.TRICK else 0
        out.append(Frame(len(out), kind, trick, state, step, _public(pending), winner, cards))
        pending.clear()

    if played.start.phase is Phase.PLAY:
        add(FrameKind.START, played.start, 0)
        started = True
    for i, evs in enumerate(played.events):
        before, after = played.states[i], played.states[i + 1]
        for e in evs:
            if isinstance(e, TrickWon):
                tricks += 1
                pending.append(e)
                add(FrameKind.TRICK, before, i, winner=e.seat, cards=e.cards)
            else:
                pending.append(e)
        if not started and after.phase is Phase.PLAY:
            add(FrameKind.START, after, i + 1)
            started = True
    add(FrameKind.END, played.final, len(played.events))
    return out
