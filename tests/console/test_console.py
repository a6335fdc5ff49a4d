"""The terminal table, driven with scripted input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from adapters.console import ConsoleTable, watch

ROOT = Path(__file__).resolve().parents[2]


class Script:
    """Answers prompts: first from a list, then always ``default``."""

    def __init__(self, lines: list[str], default: str = "1") -> None:
        self.lines = list(lines)
        self.default = default
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        if len(self.prompts) > 3000:
            return "q"
        return self.default


async def test_a_whole_match_in_the_terminal() -> None:
    out = io.StringIO()
    script = Script([])
    table = ConsoleTable(preset="dagang", seed=4, hands=1, input_fn=script, out=out, color=False)
    assert await table.run() == 0
    text = out.getvalue()
    assert "你的牌" in text and "头科" in text and "大落" in text
    assert "比赛结束" in text
    assert len(script.prompts) > 5


async def test_bad_input_is_explained_and_quit_stops(tmp_path: Path) -> None:
    out = io.StringIO()
    script = Script(["88X", "999", "h", "q"])
    table = ConsoleTable(preset="weifang", seed=8, hands=2, input_fn=script, out=out, color=False)
    assert await table.run() == 0
    text = out.getvalue()
    assert "“X”" in text  # the bad character is named
    assert "没有这个编号" in text  # 999 is not an option
    assert "牌的写法" in text  # help
    assert "比赛结束" in text  # q ends the match politely


async def test_english_terminal() -> None:
    out = io.StringIO()
    table = ConsoleTable(seed=4, hands=1, lang="en", input_fn=Script([]), out=out, color=False)
    await table.run()
    text = out.getvalue()
    assert "Your hand" in text and "Match over" in text


async def test_watch_plays_one_hand_and_is_seeded() -> None:
    a, b = io.StringIO(), io.StringIO()
    await watch("qingdao", 12, "zh", out=a)
    await watch("qingdao", 12, "zh", out=b)
    assert a.getvalue() == b.getvalue()
    assert "头科" in a.getvalue() and "比赛结束" in a.getvalue()


def test_cli_referee_prints_json_lines(tmp_path: Path) -> None:
    scenario = {
        "hands": ["SS888TTTTT3", "JJJJJSQQ4", "5678", "QQQQQ9", "6K", "7A"],
        "leader": 1,
        "actions": [
            {"seat": 1, "do": "play", "cards": "TTTTT"},
            {"seat": 3, "do": "play", "cards": "5"},
            {"seat": 2, "do": "burn", "cards": "JJJJJ"},
        ],
    }
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario))
    res = subprocess.run(
        [sys.executable, "-m", "bot", "referee", str(f), "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x.get("ok") for x in lines[:3]] == [True, False, True]
    assert lines[1]["error"] == "gouji_opposite_only"
    assert lines[-1]["final"]["burner"] == 2 and lines[-1]["final"]["to_act"] == 5


def test_referee_runs_on_a_bare_python_with_only_the_source_tree(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(
        json.dumps(
            {
                "hands": ["5", "6", "7", "8", "9", "T"],
                "actions": [
                    {"seat": 1, "do": "play", "cards": "5"},
                    {"seat": 2, "do": "play", "cards": "X"},
                ],
            }
        )
    )
    res = subprocess.run(
        [sys.executable, "-S", "-m", "bot.engine.replay", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert lines[1]["error"] == "bad_notation" and "X" in lines[1]["message"]
