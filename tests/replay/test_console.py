"""The terminal: gouji replay FILE, gouji export, gouji --watch --record FILE."""

# The tests that call the gouji command are plain functions: it runs its own event loop.

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import pytest

from adapters.console.replay import replay_main, watch_and_record
from adapters.main import main as gouji
from bot.records import HandRecord
from bot.records.replay import replay
from bot.records.steps import frames

from .helpers import CHAT, play_match


def _referee_final(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert gouji(["referee", str(path)]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert "final" in last
    return dict(last["final"])


async def test_watch_record_writes_a_file_the_referee_agrees_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "watched.json"
    out = io.StringIO()
    assert await watch_and_record("qingdao", 21, "zh", str(path), out=out) == 0
    text = out.getvalue()
    block = text[text.rindex("第 1 局结果") :]
    places = [
        int(m) for m in re.findall(r"^  (?:头科|二科|三科|四科|二落|大落)  (\d)", block, re.M)
    ]
    a, b = (int(x) for x in re.search(r"135: ([+-]\d+)   246: ([+-]\d+)", block).groups())  # type: ignore[union-attr]
    final = _referee_final(path, capsys)
    assert final["finish_order"] == places and len(places) == 6
    assert final["team_scores"] == {"135": a, "246": b}


def test_watch_record_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "w.json"
    assert gouji(["--watch", "--seed", "8", "--record", str(path)]) == 0
    assert "已写入" in capsys.readouterr().out
    final = _referee_final(path, capsys)
    assert final["phase"] == "over"


def test_export_writes_the_stored_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bot.sqlite3"
    stored = asyncio.run(play_match(db, 606, hands=2))
    path = tmp_path / "h2.json"
    args = ["export", "--db", str(db), "--group", CHAT.group_key, "--hand", "2"]
    assert gouji([*args, "--out", str(path)]) == 0
    final = _referee_final(path, capsys)
    final.pop("match_scores")
    assert final == stored[1][1]["final"]
    # to standard output, and the whole match from its first hand
    assert (
        gouji(["export", "--db", str(db), "--group", CHAT.group_key, "--hand", "1", "--match"]) == 0
    )
    scenario = json.loads(capsys.readouterr().out)
    assert len(scenario["next_hands"]) == len(stored) - 1


def test_export_of_a_missing_hand_fails_politely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bot.sqlite3"
    asyncio.run(play_match(db, 607, hands=1))
    assert gouji(["export", "--db", str(db), "--group", CHAT.group_key, "--hand", "9"]) == 1
    assert "#9" in capsys.readouterr().err
    assert gouji(["export", "--db", str(db), "--group", "tg:other", "--hand", "1"]) == 1


def test_replay_steps_through_every_trick(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    (number, raw), *_ = asyncio.run(play_match(db, 608, hands=1))
    path = tmp_path / "r.json"
    assert (
        gouji(
            [
                "export",
                "--db",
                str(db),
                "--group",
                CHAT.group_key,
                "--hand",
                "1",
                "--out",
                str(path),
                "--lang",
                "en",
            ]
        )
        == 0
    )
    n_frames = len(frames(replay(HandRecord.from_json(raw, number))))
    out = io.StringIO()
    assert replay_main(str(path), "en", show_all=True, out=out) == 0
    assert len(re.findall(r"^\[Step \d+/\d+\]", out.getvalue(), re.M)) == n_frames
    # interactive: next, previous, jump, quit
    answers = iter(["n", "p", "3", "q"])
    out = io.StringIO()
    assert replay_main(str(path), "en", out=out, input_fn=lambda _: next(answers)) == 0
    shown = re.findall(r"^\[Step (\d+)/", out.getvalue(), re.M)
    assert shown == ["0", "1", "0", "3"]
    last_frame = out.getvalue().split("[Step 3/")[1]
    assert "hand:" in last_frame  # every hand is shown face-up


def test_replay_of_a_bad_file_names_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"hands": ["3"]}', "utf-8")
    out = io.StringIO()
    assert replay_main(str(path), "en", show_all=True, out=out) == 2
    assert "hands" in out.getvalue()
    out = io.StringIO()
    assert replay_main(str(tmp_path / "missing.json"), "en", out=out) == 2
