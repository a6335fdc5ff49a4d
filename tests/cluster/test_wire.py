"""Outputs survive the outbox: every kind round-trips through JSON, typed as before."""

from __future__ import annotations

import json

import pytest

from bot.cluster.wire import WireError, out_from_json, out_to_json
from bot.engine.state import HandResult, Tribute
from bot.table.outputs import (
    HandChanged,
    HandFinished,
    MatchOver,
    Notice,
    Out,
    PrivateNote,
    TableChanged,
)

RESULT = HandResult(
    places=(3, 1, 5, 2, 4, 6),
    team_scores=(2, -2),
    seat_points=(1, -1, 2, 0, 1, -2),
    sweep_team=None,
    tributes=(Tribute(6, 3, 2, "luo"), Tribute(4, 1, 1, "men")),
)
OUTS: list[Out] = [
    TableChanged("tg:1:"),
    HandChanged("tg:1:", "u1", 3),
    PrivateNote("tg:1:", "u1", "turn_warning", (("seconds", 10),)),
    Notice("tg:1:", "ev_played", (("seat", 2), ("cards", "55"), ("counts", (1, 2))), True),
    Notice("tg:1:", "autoplay_on", (("seat", 4), ("name", "玩家"), ("on", True), ("x", None))),
    HandFinished("tg:1:", 3, (4, -4), RESULT),
    MatchOver("tg:1:", (10, -10), 6, False),
]


@pytest.mark.parametrize("out", OUTS, ids=lambda o: type(o).__name__)
def test_every_output_round_trips_through_json(out: Out) -> None:
    wire = json.loads(json.dumps(out_to_json(out), ensure_ascii=False))
    assert out_from_json(wire) == out


@pytest.mark.parametrize(
    "raw",
    [{}, {"kind": "nope", "table": "t"}, {"kind": "hand", "table": "t"}, {"kind": "notice"}],
)
def test_a_payload_it_cannot_read_is_refused_with_its_own_error(raw: dict[str, object]) -> None:
    with pytest.raises(WireError):
        out_from_json(raw)
