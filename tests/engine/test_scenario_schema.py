"""The referee never tracebacks: every malformed scenario gets one line naming the field
and exit code 2 (issue 9 item 2); the v2 keys are checked by the same schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.replay import main, run_scenario
from bot.engine.scenario import ScenarioError, parse_scenario

GOOD: dict[str, Any] = {
    "preset": "dagang",
    "hands": ["59", "3", "3", "3", "3", "3"],
    "leader": 1,
    "actions": [{"seat": 1, "do": "play", "cards": "5"}],
}


def _with(**changes: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        out[key] = value
    return out


def _action(**fields: Any) -> dict[str, Any]:
    return _with(actions=[{"seat": 1, "do": "play", "cards": "5", **fields}])


def _deep(n: int) -> str:
    return '{"preset": "dagang", "switches": {"burn_limit": ' + "[" * n + "]" * n + "}}"


# (name, file contents, the field the one line must name)
MALFORMED: list[tuple[str, bytes, str]] = [
    ("invalid_utf8", b'{"preset": "\xff\xfe"}', "(file)"),
    ("not_json", b'{"preset": ', "(file)"),
    ("top_level_list", b"[1, 2, 3]", "(top level)"),
    ("top_level_string", b'"dagang"', "(top level)"),
    ("deep_nesting", _deep(100_000).encode(), "(file)"),
    ("deep_nesting_parsable", _deep(500).encode(), "switches.burn_limit"),
]


def _case(name: str, obj: Any, field: str) -> tuple[str, bytes, str]:
    return (name, json.dumps(obj, ensure_ascii=False).encode(), field)


MALFORMED += [
    _case("preset_list", _with(preset=[]), "preset"),
    _case("preset_unknown", _with(preset="tokyo"), "preset"),
    _case("switches_list", _with(switches=[]), "switches"),
    _case("switches_string", _with(switches="kill_two_big"), "switches"),
    _case("switch_list_wrong_members", _with(switches={"tribute_order": [1, "men"]}), "switches"),
    _case(
        "switch_list_nested",
        _with(switches={"tribute_order": [["men"], "burn", "point", "luo"]}),
        "switches.tribute_order",
    ),
    _case("switch_list_ints", _with(switches={"tribute_order": [1, 2, 3, 4]}), "tribute_order"),
    _case("switch_object", _with(switches={"burn_limit": {}}), "switches.burn_limit"),
    _case("switch_unknown", _with(switches={"kill_all": True}), "switches.kill_all"),
    _case("switch_bad_value", _with(switches={"burn_limit": 99}), "switches.burn_limit"),
    _case("switch_float", _with(switches={"burn_limit": 2.0}), "switches.burn_limit"),
    _case("leader_float", _with(leader=1.0), "leader"),
    _case("leader_bool", _with(leader=True), "leader"),
    _case("leader_seven", _with(leader=7), "leader"),
    _case("hands_missing", {"preset": "dagang", "actions": []}, "hands"),
    _case("hands_five", _with(hands=["5", "3", "3", "3", "3"]), "hands"),
    _case("hands_int", _with(hands=[5, "3", "3", "3", "3", "3"]), "hands[0]"),
    _case("hands_notation", _with(hands=["5", "3", "X", "3", "3", "3"]), "hands[2]"),
    _case("hands_too_many_cards", _with(hands=["5" * 217, "3", "3", "3", "3", "3"]), "hands[0]"),
    _case("hands_huge_string", _with(hands=["3", "5" * 100_000, "3", "3", "3", "3"]), "hands[1]"),
    _case("actions_object", _with(actions={}), "actions"),
    _case("action_not_object", _with(actions=["play 5"]), "actions[0]"),
    _case("action_seat_float", _action(seat=1.0), "actions[0].seat"),
    _case("action_seat_string", _action(seat="1"), "actions[0].seat"),
    _case("action_seat_missing", _with(actions=[{"do": "pass"}]), "actions[0].seat"),
    _case("action_do_missing", _with(actions=[{"seat": 1}]), "actions[0].do"),
    _case("action_do_int", _action(do=3), "actions[0].do"),
    _case("action_cards_list", _action(cards=["5"]), "actions[0].cards"),
    _case("action_target_float", _action(do="ask_count", target=2.0), "actions[0].target"),
    _case("action_pre_no", _action(do="declare_point", pre="no"), "actions[0].pre"),
    _case("action_pre_int", _action(do="declare_point", pre=1), "actions[0].pre"),
    _case("action_unknown_key", _action(card="5"), "actions[0].card"),
    _case("tributes_string", _with(tributes="luo"), "tributes"),
    _case("tributes_ints", _with(tributes=[1, 2]), "tributes[0]"),
    _case("tributes_empty_object", _with(tributes=[{}]), "tributes[0].from"),
    _case(
        "tributes_bad_seat",
        _with(tributes=[{"from": 7, "to": 1, "count": 1, "kind": "luo"}]),
        "tributes[0].from",
    ),
    _case(
        "tributes_float_seat",
        _with(tributes=[{"from": 6, "to": 1.0, "count": 1}]),
        "tributes[0].to",
    ),
    _case(
        "tributes_negative_count",
        _with(tributes=[{"from": 6, "to": 1, "count": -2, "kind": "luo"}]),
        "tributes[0].count",
    ),
    _case(
        "tributes_zero_count",
        _with(tributes=[{"from": 6, "to": 1, "count": 0}]),
        "tributes[0].count",
    ),
    _case(
        "tributes_bad_kind",
        _with(tributes=[{"from": 6, "to": 1, "count": 1, "kind": "gift"}]),
        "tributes[0].kind",
    ),
    _case(
        "tributes_same_seat",
        _with(tributes=[{"from": 1, "to": 1, "count": 1}]),
        "tributes[0]",
    ),
    _case("tributes_object", _with(tributes={}), "tributes"),
    # v2 keys
    _case("buy_three_string", _with(buy_three="yes"), "buy_three"),
    _case("pre_points_int", _with(pre_points=2), "pre_points"),
    _case("pre_points_float", _with(pre_points=[2.0]), "pre_points[0]"),
    _case("pre_points_duplicate", _with(pre_points=[2, 2]), "pre_points"),
    _case("pre_points_seat_zero", _with(pre_points=[0]), "pre_points[0]"),
    _case("hui_ranks_int", _action(do="hui", ranks=3), "actions[0].ranks"),
    _case(
        "burn_window_with_seat",
        _with(actions=[{"do": "burn_window", "seat": 2, "declared": []}]),
        "actions[0].seat",
    ),
    _case(
        "burn_window_no_declared",
        _with(actions=[{"do": "burn_window"}]),
        "actions[0].declared",
    ),
    _case(
        "burn_window_empty",
        _with(actions=[{"do": "burn_window", "declared": []}]),
        "actions[0].declared",
    ),
    _case(
        "burn_window_declared_seat_float",
        _with(actions=[{"do": "burn_window", "declared": [{"seat": 2.0, "cards": "JJJJJ"}]}]),
        "actions[0].declared[0].seat",
    ),
    _case(
        "burn_window_declared_cards_missing",
        _with(actions=[{"do": "burn_window", "declared": [{"seat": 2}]}]),
        "actions[0].declared[0].cards",
    ),
    _case(
        "declared_on_a_play",
        _action(declared=[{"seat": 2, "cards": "J"}]),
        "actions[0].declared",
    ),
    _case("next_hands_object", _with(next_hands={}), "next_hands"),
    _case("next_hands_string_entry", _with(next_hands=["x"]), "next_hands[0]"),
    _case(
        "next_hands_hands_short",
        _with(next_hands=[{"hands": ["5"], "actions": []}]),
        "next_hands[0].hands",
    ),
    _case(
        "next_hands_leader_float",
        _with(next_hands=[{"hands": GOOD["hands"], "leader": 2.0}]),
        "next_hands[0].leader",
    ),
    _case(
        "next_hands_unknown_key",
        _with(next_hands=[{"hands": GOOD["hands"], "tributes": []}]),
        "next_hands[0].tributes",
    ),
    _case(
        "next_hands_action_pre",
        _with(
            next_hands=[{"hands": GOOD["hands"], "actions": [{"seat": 1, "do": "x", "pre": "no"}]}]
        ),
        "next_hands[0].actions[0].pre",
    ),
    _case("unknown_top_key", _with(hand=["5"]), "hand"),
]


@pytest.mark.parametrize(
    ("content", "field"), [(c, f) for _, c, f in MALFORMED], ids=[n for n, _, _ in MALFORMED]
)
def test_malformed_scenario_gets_one_line_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, field: str
) -> None:
    path = tmp_path / "scenario.json"
    path.write_bytes(content)
    code = main([str(path), "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 1, lines
    line = json.loads(lines[0])
    assert line["error"] in ("bad_scenario", "unknown_preset"), line
    assert field in line["field"], line
    assert field in line["message"], line
    assert "Traceback" not in out


def test_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.json")]) == 2
    out, _ = capsys.readouterr()
    assert len(out.splitlines()) == 1 and json.loads(out)["field"] == "(file)"


def test_chinese_message_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_with(leader=1.0)), encoding="utf-8")
    assert main([str(path)]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line["message"].startswith("对局文件有误：leader")


@pytest.mark.parametrize("flag", ["true", "false"])
def test_pre_is_a_real_boolean(flag: str) -> None:
    scenario = _with(
        preset="qingdao",
        hands=["KK5", "QQ9", "3", "3", "3", "3"],
        actions=[{"seat": 2, "do": "declare_point", "pre": json.loads(flag)}],
    )
    line = run_scenario(scenario)[0]
    assert line["ok"] is True
    kind = line["events"][0]["kind"]
    assert kind == ("yudian" if flag == "true" else "mingdian")


def test_value_errors_stay_per_action_refusals() -> None:
    # A well-typed but illegal action is the engine's refusal; the replay goes on.
    scenario = _with(
        actions=[
            {"seat": 7, "do": "play", "cards": "5"},
            {"seat": 1, "do": "shout"},
            {"seat": 1, "do": "play", "cards": "X"},
            {"seat": 1, "do": "play", "cards": "5"},
        ]
    )
    lines = run_scenario(scenario)
    assert [ln.get("error") for ln in lines[:4]] == [
        "bad_seat",
        "unknown_action",
        "bad_notation",
        None,
    ]


def test_every_existing_scenario_file_passes_the_schema() -> None:
    for path in sorted((Path(__file__).parent / "scenarios").glob("*.json")):
        try:
            parse_scenario(json.loads(path.read_text(encoding="utf-8")))
        except ScenarioError as err:  # pragma: no cover - the message is the point
            pytest.fail(f"{path.name}: {err.field} {err.problem.value}")


def test_module_entry_point_never_tracebacks(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe not utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine.replay", str(path), "--lang", "en"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr == ""
    assert json.loads(proc.stdout)["field"] == "(file)"


def test_gouji_referee_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adapters.main import main as gouji

    path = tmp_path / "s.json"
    path.write_text(json.dumps(_with(switches=[])), encoding="utf-8")
    assert gouji(["referee", str(path), "--lang", "en"]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line["field"] == "switches"


MATCH_FILE = Path(__file__).parent / "scenarios" / "s15_match_dagang.json"


def _match_case(tmp_path: Path, change: Any) -> Path:
    scenario = json.loads(MATCH_FILE.read_text(encoding="utf-8"))
    change(scenario)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_leader_the_rules_do_not_give_makes_the_match_bad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def wrong_leader(s: dict[str, Any]) -> None:
        s["next_hands"][1]["leader"] = 1  # the 大落 of hand 1 is seat 5

    assert main([str(_match_case(tmp_path, wrong_leader)), "--lang", "en"]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["field"] == "next_hands[1].leader"
    assert "seat 1" in line["message"] and "seat 5" in line["message"]


def test_a_hand_that_did_not_end_cannot_be_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def cut(s: dict[str, Any]) -> None:
        s["next_hands"][0]["actions"] = s["next_hands"][0]["actions"][:3]

    assert main([str(_match_case(tmp_path, cut))]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line["field"] == "next_hands[0].actions"


def test_the_match_prints_one_final_per_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(MATCH_FILE)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    finals = [x for x in lines if "final" in x]
    assert [x.get("hand", 0) for x in finals] == [0, 1, 2, 3, 4]
    assert all("match_scores" in x["final"] for x in finals)
    later = [x for x in lines if "final" not in x and "hand" in x]
    assert later and all(x["hand"] >= 1 for x in later)
    first = [x for x in lines if "final" not in x and "hand" not in x]
    assert len(first) == len(json.loads(MATCH_FILE.read_text(encoding="utf-8"))["actions"])
