"""The replay referee of RULES.md §15: ``python -m bot.engine.replay FILE.json``.

Prints one JSON object per action, then ``{"final": {...}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..i18n import error_text
from .actions import Action
from .cards import parse
from .errors import ErrorCode, GoujiError, IllegalAction
from .game import apply, from_hands
from .rules import make_rules
from .state import HandState, Tribute


def load_scenario(scenario: dict[str, Any]) -> tuple[HandState, list[dict[str, Any]]]:
    """Build the starting state; raises GoujiError (bad_scenario, bad_notation, rules)."""
    rules = make_rules(scenario.get("preset", "dagang"), scenario.get("switches") or {})
    hands = scenario.get("hands")
    if not isinstance(hands, list) or len(hands) != 6 or not all(isinstance(h, str) for h in hands):
        raise GoujiError(ErrorCode.BAD_SCENARIO, detail="hands must be six strings")
    leader = scenario.get("leader", 1)
    if isinstance(leader, bool) or leader not in range(1, 7):
        raise GoujiError(ErrorCode.BAD_SCENARIO, detail="leader must be a seat 1..6")
    owed = [
        Tribute(int(t["from"]), int(t["to"]), int(t["count"]), str(t.get("kind", "luo")))
        for t in scenario.get("tributes") or []
    ]
    actions = scenario.get("actions") or []
    if not isinstance(actions, list):
        raise GoujiError(ErrorCode.BAD_SCENARIO, detail="actions must be a list")
    buy = bool(scenario.get("buy_three", False))
    state, _ = from_hands(rules, [parse(h) for h in hands], leader, owed, buy)
    return state, actions


def run_scenario(scenario: dict[str, Any], lang: str = "zh") -> list[dict[str, Any]]:
    state, actions = load_scenario(scenario)
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(actions):
        try:
            if not isinstance(raw, dict):
                raise IllegalAction(ErrorCode.UNKNOWN_ACTION, action=raw)
            action = Action.from_json(raw)
            state, events = apply(state, raw.get("seat"), action)  # type: ignore[arg-type]
            out.append({"i": i, "ok": True, "events": [e.to_json() for e in events]})
        except IllegalAction as err:
            out.append(
                {
                    "i": i,
                    "ok": False,
                    "error": err.code.value,
                    "message": error_text(err.code.value, err.params, lang),
                }
            )
    out.append({"final": state.final_json()})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gouji referee", description=__doc__)
    parser.add_argument("file", help="scenario JSON file (RULES.md §15)")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as fh:
            scenario = json.load(fh)
        lines = run_scenario(scenario, args.lang)
    except (OSError, json.JSONDecodeError) as exc:
        print(json.dumps({"error": "bad_scenario", "message": str(exc)}, ensure_ascii=False))
        return 2
    except GoujiError as err:
        msg = error_text(err.code.value, err.params, args.lang)
        print(json.dumps({"error": err.code.value, "message": msg}, ensure_ascii=False))
        return 2
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
