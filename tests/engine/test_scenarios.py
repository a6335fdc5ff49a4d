"""Rule-scenario tests: replay every file in ``scenarios/`` and compare with its ``expect``.

Each scenario is a RULES.md §15 scenario plus ``rule`` (the statement it checks) and
``expect``: ``results`` (one entry per action: ``true`` or the expected error code) and
``final`` (a subset of the replay's final object). See docs/engine-contract.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SCENARIO_FILES = sorted(SCENARIO_DIR.glob("*.json"))

# Keys whose list values are compared without regard to order.
UNORDERED_KEYS = {"opened", "passed"}


def _tribute_key(t: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    return (t.get("from"), t.get("to"), t.get("kind"), t.get("count"))


def _normalise(key: str, value: Any) -> Any:
    if value is None:
        return None
    if key in UNORDERED_KEYS and isinstance(value, list):
        return sorted(value)
    if key == "tributes" and isinstance(value, list):
        return sorted(value, key=_tribute_key)
    return value


def _load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def test_enough_scenarios() -> None:
    assert len(SCENARIO_FILES) >= 60, f"only {len(SCENARIO_FILES)} scenario files"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.name for p in SCENARIO_FILES])
def test_scenario_file_is_well_formed(path: Path) -> None:
    scenario = _load(path)
    assert isinstance(scenario.get("rule"), str) and scenario["rule"], path.name
    assert len(scenario["hands"]) == 6, path.name
    expect = scenario["expect"]
    assert len(expect["results"]) == len(scenario["actions"]), path.name
    assert isinstance(expect.get("final", {}), dict), path.name
    later = scenario.get("next_hands", [])
    assert len(expect.get("next_hands", [])) == len(later), path.name
    for hand, want in zip(later, expect.get("next_hands", []), strict=True):
        assert len(want["results"]) == len(hand.get("actions", [])), path.name


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.name for p in SCENARIO_FILES])
def test_scenario(path: Path) -> None:
    from bot.engine.replay import run_scenario

    scenario = _load(path)
    expect = scenario["expect"]
    name = path.name
    rule = scenario.get("rule", "")

    output = run_scenario(scenario)
    # Hand k of a match (next_hands, RULES §15): its lines carry "hand": k (none for 0).
    hands = [(scenario, expect)]
    hands += list(zip(scenario.get("next_hands", []), expect.get("next_hands", []), strict=True))
    for k, (spec, want_hand) in enumerate(hands):
        lines = [e for e in output if e.get("hand", 0) == k]
        where = name if k == 0 else f"{name} hand {k}"
        _check_hand(where, rule, spec.get("actions", []), want_hand, lines)
    assert sum(1 for e in output if "final" in e) == len(hands), f"{name}: one final per hand"


def _check_hand(
    name: str,
    rule: str,
    actions: list[dict[str, Any]],
    expect: dict[str, Any],
    lines: list[dict[str, Any]],
) -> None:
    results = [entry for entry in lines if "final" not in entry]
    finals = [entry["final"] for entry in lines if "final" in entry]

    assert len(results) == len(actions), (
        f"{name}: {len(results)} results for {len(actions)} actions ({rule})"
    )
    assert len(finals) == 1, f"{name}: expected exactly one final object, got {len(finals)}"
    final = finals[0]

    for i, (want, got) in enumerate(zip(expect["results"], results, strict=True)):
        action = actions[i]
        detail = f"{name} action {i} {action}: {got.get('message', '')!s} ({rule})"
        if isinstance(want, dict):
            # A subset of the line, e.g. a burn_window's {"ok": ..., "results": [...]}.
            for key, value in want.items():
                assert got.get(key) == value, f"{detail}: {key} is {got.get(key)!r}, not {value!r}"
        elif want is True:
            assert got.get("ok") is True, f"{detail}: expected ok, got error {got.get('error')!r}"
        else:
            assert got.get("ok") is False, f"{detail}: expected error {want!r}, got ok"
            assert got.get("error") == want, (
                f"{detail}: expected error {want!r}, got {got.get('error')!r}"
            )

    for key, want_value in expect.get("final", {}).items():
        assert key in final, f"{name}: final object has no key {key!r} ({rule})"
        want_norm = _normalise(key, want_value)
        got_norm = _normalise(key, final[key])
        assert got_norm == want_norm, (
            f"{name}: final[{key!r}] is {final[key]!r}, expected {want_value!r} ({rule})"
        )
