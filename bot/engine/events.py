"""Events: what happened, and who may see it (None = everyone at the table)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    DEALT = "dealt"
    TRIBUTE_GIVEN = "tribute_given"
    TRIBUTE_RETURNED = "tribute_returned"
    BOUGHT = "bought"
    PLAY_STARTS = "play_starts"
    REVOLTED = "revolted"
    VOIDED = "voided"
    WAIVED = "waived"
    HUI = "hui"
    CHONGDIAN = "chongdian"
    CHONGDIAN_RESULT = "chongdian_result"
    DECLARED = "declared"
    PLAYED = "played"
    PASSED = "passed"
    RANGED = "ranged"
    BURNED = "burned"
    BURN_RELEASED = "burn_released"
    BURN_SUCCEEDED = "burn_succeeded"
    BURN_FAILED = "burn_failed"
    CAUGHT = "caught"
    TRICK_WON = "trick_won"
    LEAD = "lead"
    OPENED = "opened"
    POINT_FAILED = "point_failed"
    FOURS_DISCARDED = "fours_discarded"
    FOURS_FREED = "fours_freed"
    WENT_OUT = "went_out"
    FREE_PLAY = "free_play"
    COUNT = "count"
    HAND_OVER = "hand_over"


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    seat: int | None = None
    data: tuple[tuple[str, Any], ...] = ()
    visible_to: tuple[int, ...] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        return default

    def is_public(self) -> bool:
        return self.visible_to is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        for k, v in self.data:
            out[k] = list(v) if isinstance(v, tuple) else v
        if self.visible_to is not None:
            out["visible_to"] = list(self.visible_to)
        return out


def ev(
    kind: EventKind,
    seat: int | None = None,
    visible_to: tuple[int, ...] | None = None,
    /,
    **data: Any,
) -> Event:
    return Event(kind, seat, tuple(data.items()), visible_to)
