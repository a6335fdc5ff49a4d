"""Engine events the manager reads, as typed records (instead of ``event.get("...")``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..engine.events import Event, EventKind

CountWord = Literal["exact", "out", "not_enough"]


@dataclass(frozen=True, slots=True)
class CountAnswered:
    """The answer to 报户: the exact count, "out", or "ten or more" (never the cards)."""

    target: int
    answer: CountWord
    count: int | None


def count_answered(e: Event) -> CountAnswered:
    assert e.kind is EventKind.COUNT
    target, answer, count = e.get("target"), e.get("answer"), e.get("count")
    word: CountWord = "exact" if answer == "exact" else "out" if answer == "out" else "not_enough"
    return CountAnswered(
        int(target), word, count if isinstance(count, int) and word == "exact" else None
    )
