"""The replay referee of RULES.md §15: ``python -m bot.engine.replay FILE.json``.

Prints one JSON object per action, then ``{"final": {...}}``; with ``next_hands`` each
later hand of the match follows with its lines tagged ``"hand": k``. A file that breaks
the scenario schema (``bot.engine.scenario``) prints one line naming the field and exits
with code 2; nothing is replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import error_text
from ..i18n.catalogue import Lang
from .actions import Action
from .cards import parse
from .errors import ErrorCode, GoujiError, IllegalAction
from .events import Event
from .game import apply, from_hands
from .match import MatchCarry, carry_over
from .scenario import (
    BURN_WINDOW,
    ActionSpec,
    HandSpec,
    Problem,
    Scenario,
    ScenarioError,
    decode,
    hand_field,
    parse_scenario,
)
from .schedule import BurnDeclaration, BurnOutcome, resolve_burns
from .state import HandState

EXIT_OK = 0
EXIT_INTERNAL = 1  # a fault in the engine, not in the file
EXIT_BAD_SCENARIO = 2


def _refusal(i: int, err: IllegalAction, lang: Lang) -> dict[str, Any]:
    return {
        "i": i,
        "ok": False,
        "error": err.code.value,
        "message": error_text(err.code.value, err.params, lang),
    }


def _events(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


def _burn_window(
    state: HandState, i: int, spec: ActionSpec, lang: Lang
) -> tuple[HandState, dict[str, Any]]:
    """``burn_window``: every declaration of one window, resolved by the engine (§8)."""
    declared: list[BurnDeclaration] = []
    outcomes: list[BurnOutcome | None] = []  # None: resolved by the engine below
    for d in spec.declared:
        try:
            declared.append(BurnDeclaration(d.seat, parse(d.cards)))
            outcomes.append(None)
        except IllegalAction as err:
            outcomes.append(BurnOutcome(d.seat, err.code, tuple(err.params.items())))
    result = resolve_burns(state, declared)
    resolved = iter(result.outcomes)
    done = [o if o is not None else next(resolved) for o in outcomes]
    line: dict[str, Any] = {"i": i, "ok": result.any_burned, "events": _events(result.events)}
    if not result.any_burned:
        # The window changed nothing: the refusal of the first declaration stands for it.
        first = done[0]
        assert first.error is not None
        line["error"] = first.error.value
        line["message"] = error_text(first.error.value, dict(first.params), lang)
    line["results"] = [o.to_json() for o in done]
    return result.state, line


def _step(
    state: HandState, i: int, spec: ActionSpec, lang: Lang
) -> tuple[HandState, dict[str, Any]]:
    if spec.do == BURN_WINDOW:
        return _burn_window(state, i, spec, lang)
    try:
        action = Action.from_json(spec.engine_json())
        state, events = apply(state, spec.seat, action)  # type: ignore[arg-type]
    except IllegalAction as err:
        return state, _refusal(i, err, lang)
    return state, {"i": i, "ok": True, "events": _events(events)}


def _setup(
    sc: Scenario, k: int, spec: HandSpec, carry: MatchCarry
) -> tuple[HandState, list[Event]]:
    assert carry.leader is not None
    hands = [parse(h) for h in spec.hands]
    extra: dict[str, Any] = {}
    if k == 0 and sc.pre_points:
        extra["pre_points"] = sc.pre_points
    return from_hands(
        sc.rules, hands, carry.leader, carry.owed, spec.buy_three, streaks=carry.streaks, **extra
    )


def run(sc: Scenario, lang: Lang = "zh") -> list[dict[str, Any]]:
    """Replay a checked scenario: every hand of the match, one line per action and a final.

    Raises ScenarioError when a later hand names a leader the rules do not give, or
    follows a hand that did not end.
    """
    out: list[dict[str, Any]] = []
    carry = MatchCarry(leader=sc.first.leader, owed=sc.tributes)
    specs = (sc.first, *sc.next_hands)
    for k, spec in enumerate(specs):
        if k and spec.leader is not None and spec.leader != carry.leader:
            raise ScenarioError(
                hand_field(k, "leader"), Problem.LEADER_DIFFERS, want=carry.leader, got=spec.leader
            )
        state, _ = _setup(sc, k, spec, carry)
        for i, action in enumerate(spec.actions):
            state, line = _step(state, i, action, lang)
            out.append({"i": i, "hand": k, **line} if k else line)
        if state.over:
            carry = carry_over(carry, state)
        elif k < len(specs) - 1:
            raise ScenarioError(hand_field(k, "actions"), Problem.HAND_NOT_OVER)
        final = state.final_json()
        final["match_scores"] = carry.scores_json()
        out.append({"final": final, "hand": k} if k else {"final": final})
    return out


def run_scenario(scenario: Any, lang: Lang = "zh") -> list[dict[str, Any]]:
    """The referee's output lines for a decoded scenario (raises ScenarioError)."""
    return run(parse_scenario(scenario), lang)


def scenario_error_line(err: ScenarioError, lang: Lang = "zh") -> dict[str, Any]:
    """The one line a malformed file gets: the code, the field, and a localized message."""
    return {"error": err.code.value, "field": err.field, "message": err.text(lang)}


def _print(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gouji referee", description=__doc__)
    parser.add_argument("file", help="scenario JSON file (RULES.md §15)")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    args = parser.parse_args(argv)
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        _print({"error": "bad_scenario", "field": "(file)", "message": f"{args.file}: {reason}"})
        return EXIT_BAD_SCENARIO
    try:
        lines = run_scenario(decode(data), args.lang)
    except ScenarioError as err:
        _print(scenario_error_line(err, args.lang))
        return EXIT_BAD_SCENARIO
    except GoujiError as err:
        msg = error_text(err.code.value, err.params, args.lang)
        _print({"error": err.code.value, "field": "(scenario)", "message": msg})
        return EXIT_BAD_SCENARIO
    except RecursionError:
        _print(scenario_error_line(ScenarioError("(file)", Problem.TOO_DEEP), args.lang))
        return EXIT_BAD_SCENARIO
    except Exception as exc:  # a fault in the engine: still one line, never a traceback
        _print({"error": "internal_error", "message": type(exc).__name__})
        return EXIT_INTERNAL
    for line in lines:
        _print(line)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["ErrorCode", "main", "run", "run_scenario", "scenario_error_line"]
