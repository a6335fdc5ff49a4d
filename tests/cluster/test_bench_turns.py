"""What benchmarks/cluster.py reads off the fake Bot API's log: turn gaps, six-human hands,
calls per worker (benchmarks/cluster_turns.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from adapters.telegram.callback import ActPress, encode
from benchmarks import cluster_turns as turns
from tests.telegram.fakeapi import SENDS, Call
from tests.telegram.httpapi import _caller

A, B = 10_001, 10_002  # two humans of table 0


def _markup(*ops: str) -> dict[str, Any]:
    data = [encode(ActPress("t1", 5, op)) for op in ops]
    return {
        "inline_keyboard": [
            [{"text": op, "callback_data": d} for op, d in zip(ops, data, strict=True)]
        ]
    }


def _edit(at: float, chat: int, *ops: str, caller: str = "w0") -> Call:
    params: dict[str, Any] = {"chat_id": chat}
    if ops:
        params["reply_markup"] = _markup(*ops)
    return Call(at, "editMessageMedia", params, {}, caller=caller)


def test_a_turn_is_a_keyboard_newly_offering_a_play_or_a_pass() -> None:
    calls = [
        _edit(1.0, A, "K"),  # ready: no turn
        _edit(2.0, A, "r", "x"),  # A's turn
        _edit(2.5, A, "b"),  # a step of A's play menu: still A's turn, no new arrival
        _edit(2.7, A, "r", "x"),
        _edit(3.0, A),  # A played: the keyboard gone
        _edit(3.4, B, "g", "x"),  # B's turn
        _edit(3.5, -1_000_000, "r"),  # a group call: not a hand message
        Call(3.6, "editMessageMedia", {"chat_id": A, "reply_markup": _markup("x")}, {}, error=400),
        _edit(6.0, A, "x"),  # A's turn again
    ]
    arrivals = turns.turn_arrivals(calls, {A: 0, B: 0})
    assert arrivals == [(2.0, 0), (3.4, 0), (6.0, 0)]
    # From the latest accepted press at the table before each arrival (none before the
    # first: the match's first turn has no gap).
    gaps = turns.turn_gaps(arrivals, {0: [2.9, 1.5, 5.1]})
    assert gaps == pytest.approx([0.5, 0.5, 0.9])


def test_a_hand_lasts_from_its_first_turn_to_its_result() -> None:
    arrivals = [(10.0, 0), (12.0, 0), (50.0, 0), (61.0, 0), (20.0, 1)]
    results = [(40.0, 0), (90.0, 0), (30.0, 1)]
    assert turns.hand_seconds(arrivals, results) == [10.0, 30.0, 40.0]  # in result order


def test_calls_per_worker_from_the_path_prefix() -> None:
    assert _caller("/w2/bot123:abc/sendMessage") == "w2"
    assert _caller("/bot123:abc/sendMessage") == ""
    calls = [
        _edit(1.0, A, caller="w0"),  # before play
        _edit(2.0, A, caller="w0"),
        _edit(3.0, B, caller="w1"),
        Call(4.0, "answerCallbackQuery", {}, {}, caller="w1"),
        Call(5.0, "answerCallbackQuery", {}, {}, caller="w1"),
    ]
    spread = turns.spread(calls, 1.5, SENDS)
    assert spread.calls == Counter({"w1": 3, "w0": 1})
    assert spread.sends == Counter({"w0": 1, "w1": 1})
    assert spread.max_share(spread.calls) == pytest.approx(0.75)
    assert spread.max_share(spread.sends) == pytest.approx(0.5)
