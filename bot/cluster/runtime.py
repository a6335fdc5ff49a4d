"""A table's runtime beside its record, for workers that take a table over from another:
the deadline (and whether its warning went out), an open burn window with the burns
declared in it, and the last result. The engine state is not here: it is replayed from
the action log. What each player's view last showed is not either: a worker that
takes a table over sends each player's view once more (an idempotent edit)."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..table.outputs import Deadline, DeadlineKind
from ..table.record import BurnWindow, Runtime
from .wire import result_from_json, result_to_json


def _action_json(seat: int, action: Action) -> list[Any]:
    return [seat, action.to_json()]


def _action(raw: list[Any]) -> tuple[int, Action]:
    return int(raw[0]), Action.from_json(raw[1])


def runtime_to_json(run: Runtime) -> dict[str, Any]:
    d, w = run.deadline, run.window
    return {
        "deadline": None if d is None else {"kind": d.kind.value, "at": d.at, "step": d.step},
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
            DeadlineKind(d["kind"]), None if d["at"] is None else float(d["at"]), int(d["step"])
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
