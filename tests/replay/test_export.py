"""Exported records replay through the referee to the final object the table recorded."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.engine.replay import main as referee
from bot.engine.replay import run_scenario
from bot.engine.rules import PRESET_NAMES
from bot.records import HandRecord, hand_scenario, match_scenario
from bot.records.replay import RecordCode, RecordError, replay

from .helpers import play_match


def _seeds(preset: str) -> list[int]:
    rng = random.Random(f"export:{preset}")
    return [rng.randrange(1 << 40) for _ in range(2)]


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_every_exported_hand_replays_to_the_recorded_final(
    tmp_path: Path, preset: str
) -> None:
    for seed in _seeds(preset):
        stored = await play_match(tmp_path / f"{seed}.sqlite3", seed, hands=2, preset=preset)
        assert len(stored) >= 2
        for number, raw in stored:
            rec = HandRecord.from_json(raw, number)
            scenario = json.loads(json.dumps(hand_scenario(rec)))  # as written to a file
            lines = run_scenario(scenario)
            assert all(line.get("ok", True) for line in lines[:-1]), "an action was refused"
            final = dict(lines[-1]["final"])
            assert final.pop("match_scores") == final["team_scores"]  # a one-hand match
            assert final == raw["final"]
            assert len(lines) == len(raw["actions"]) + 1


async def test_a_later_hand_carries_its_tributes(tmp_path: Path) -> None:
    # A tied hand owes nothing, so which match has a hand owing tributes depends on how the
    # AI plays: take the first of a few seeds that has one.
    later: list[HandRecord] = []
    for seed in range(4242, 4250):
        stored = await play_match(tmp_path / f"{seed}.sqlite3", seed, hands=3)
        later = [HandRecord.from_json(r, n) for n, r in stored if r["owed"]]
        if later:
            break
    assert later, "no hand of eight matches owed a tribute"
    scenario = hand_scenario(later[0])
    assert scenario["tributes"] == [t.to_json() for t in later[0].owed]
    assert any(a["do"] == "return_tribute" for a in scenario["actions"]) or not any(
        t.kind == "luo" for t in later[0].owed
    )


async def test_the_referee_command_prints_the_same_final(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (number, raw), *_ = await play_match(tmp_path / "c.sqlite3", 77, hands=1)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand_scenario(HandRecord.from_json(raw, number))), "utf-8")
    assert referee([str(path)]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["final"]["finish_order"] == raw["places"]
    assert last["final"]["team_scores"] == {
        "135": raw["team_scores"][0],
        "246": raw["team_scores"][1],
    }


async def test_a_record_that_no_longer_replays_is_refused(tmp_path: Path) -> None:
    (number, raw), *_ = await play_match(tmp_path / "b.sqlite3", 78, hands=1)
    broken = dict(raw, seed=raw["seed"] + 1)  # another deal: the actions no longer fit
    with pytest.raises(RecordError) as err:
        replay(HandRecord.from_json(broken, number))
    assert err.value.code is RecordCode.DOES_NOT_REPLAY
    old = {k: v for k, v in raw.items() if k != "owed"} | {"hand_no": 2}
    with pytest.raises(RecordError) as err:
        replay(HandRecord.from_json(old, number))
    assert err.value.code is RecordCode.INCOMPLETE


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_whole_match_replays_through_next_hands(tmp_path: Path, preset: str) -> None:
    seed = random.Random(f"match:{preset}").randrange(1 << 40)
    stored = await play_match(tmp_path / "m.sqlite3", seed, hands=3, preset=preset)
    recs = [HandRecord.from_json(raw, n) for n, raw in stored]
    scenario, count = match_scenario(recs)
    assert count == len(recs) >= 3
    lines = run_scenario(json.loads(json.dumps(scenario)))
    finals = [line for line in lines if "final" in line]
    assert [f.get("hand", 0) for f in finals] == list(range(count))
    totals = [0, 0]
    for (_, raw), line in zip(stored, finals, strict=True):
        final = dict(line["final"])
        if not raw["voided"]:
            totals = [totals[0] + raw["team_scores"][0], totals[1] + raw["team_scores"][1]]
        assert final.pop("match_scores") == {"135": totals[0], "246": totals[1]}
        assert final == raw["final"]
    assert all(line.get("ok", True) for line in lines)


async def test_a_match_export_stops_where_the_settings_changed(tmp_path: Path) -> None:
    stored = await play_match(tmp_path / "s.sqlite3", 31337, hands=3)
    recs = [HandRecord.from_json(raw, n) for n, raw in stored]
    changed = HandRecord.from_json({**stored[2][1], "overrides": {"rang": False}}, 3)
    _, count = match_scenario([recs[0], recs[1], changed])
    assert count == 2
    _, count = match_scenario([recs[1], recs[2]])  # from the middle of a match
    assert count == 2
