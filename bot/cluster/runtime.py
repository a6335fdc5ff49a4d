"""A table's runtime beside its record, for workers that take a table over from another:
the deadline (and whether its warning went out), an open burn window with the burns
declared in it, the last result, and — once a hand has ended — how that hand was dealt.
The engine state is not here: it is replayed from the action log. What each player's
view last showed is not either: it is what the table's committed state shows, since the
commit that changed a view queued its update in the outbox (``note_views_shown``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.state import Tribute, tribute_kind_of
from ..table.outputs import Deadline, DeadlineKind
from ..table.record import BurnWindow, Runtime
from .wire import result_from_json, result_to_json


def _action_json(seat: int, action: Action) -> list[Any]:
    return [seat, action.to_json()]


def _action(raw: list[Any]) -> tuple[int, Action]:
    return int(raw[0]), Action.from_json(raw[1])


@dataclass(frozen=True, slots=True)
class Dealt:
    """How a table's last hand was dealt: the tributes it began with and its 点 streaks.
    Between hands and after the match the table's own fields hold the next hand's, so a
    worker that reads the table then replays the ended hand from these — its final state
    is what the players' last hand messages show (``bot.cluster.rebuild``)."""

    deal_no: int
    owed: tuple[Tribute, ...]
    streaks: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_no": self.deal_no,
            "owed": [x.to_json() for x in self.owed],
            "streaks": list(self.streaks),
        }


def dealt_from_json(raw: object) -> Dealt | None:
    """A stored ``Dealt`` (None: none stored, or one this version cannot read)."""
    if not isinstance(raw, dict):
        return None
    try:
        owed = tuple(
            Tribute(int(x["from"]), int(x["to"]), int(x["count"]), tribute_kind_of(x["kind"]))
            for x in raw["owed"]
        )
        return Dealt(int(raw["deal_no"]), owed, tuple(int(n) for n in raw["streaks"]))
    except (KeyError, TypeError, ValueError):
        return None


def runtime_to_json(run: Runtime, dealt: Dealt | None = None) -> dict[str, Any]:
    d, w = run.deadline, run.window
    return {
        "dealt": None if dealt is None else dealt.to_json(),
        "deadline": None
        if d is None
        else {"kind": d.kind.value, "at": d.at, "step": d.step, "length": d.length},
        "warned": run.warned,
        "window": None
        if w is None
        else {
            "step": w.step,
            "declared": [_action_json(s, a) for s, a in w.declared],
            "queued": None if w.queued is None else _action_json(*w.queued),
        },
        "window_step": run.window_step,
        "last_result": None if run.last_result is None else result_to_json(run.last_result),
    }


def restore_runtime(run: Runtime, raw: dict[str, Any]) -> None:
    """Put a saved runtime back (everything but the replayed engine state)."""
    d = raw.get("deadline")
    run.deadline = (
        None
        if d is None
        else Deadline(
            DeadlineKind(d["kind"]),
            None if d["at"] is None else float(d["at"]),
            int(d["step"]),
            None if d.get("length") is None else float(d["length"]),
        )
    )
    run.warned = bool(raw.get("warned", False))
    w = raw.get("window")
    run.window = (
        None
        if w is None
        else BurnWindow(
            int(w["step"]),
            tuple(_action(x) for x in w["declared"]),
            None if w["queued"] is None else _action(w["queued"]),
        )
    )
    run.window_step = int(raw.get("window_step", -1))
    last = raw.get("last_result")
    run.last_result = None if last is None else result_from_json(last)
    run.dirty = True
