"""Typed engine events: one record per kind, and the JSON form scenario files compare."""

from __future__ import annotations

import json
import typing

from bot.engine.actions import HuiRanks
from bot.engine.events import (
    CountAnswered,
    Dealt,
    Declared,
    Event,
    EventKind,
    HandDealt,
    HuiCalled,
    Played,
    TributeCards,
    TributeGiven,
    Voided,
)
from bot.engine.game import new_hand
from bot.engine.rules import make_rules
from bot.engine.state import SEATS


def test_every_kind_has_a_record() -> None:
    records = typing.get_args(Event)
    assert {r.kind for r in records} == set(EventKind)


def test_json_keeps_the_keys_and_their_order() -> None:
    # The order events always had: type, seat, the fields, visible_to where it came last.
    played = Played(seat=2, cards="KK", gouji=False, target=None)
    assert json.dumps(played.to_json()) == (
        '{"type": "played", "seat": 2, "cards": "KK", "gouji": false, "target": null}'
    )
    dealt = HandDealt(seat=3, visible_to=(3,), cards="33")
    assert list(dealt.to_json()) == ["type", "seat", "visible_to", "cards"]
    cards = TributeCards(seat=1, target=4, cards="2", visible_to=(1, 4))
    assert list(cards.to_json()) == ["type", "seat", "target", "cards", "visible_to"]
    assert Voided().to_json() == {"type": "voided"}


def test_a_field_named_kind_in_json_is_renamed_in_python() -> None:
    d = Declared(seat=1, target=4, point_kind="yudian")
    assert d.kind is EventKind.DECLARED
    assert d.to_json() == {"type": "declared", "seat": 1, "target": 4, "kind": "yudian"}
    g = TributeGiven(seat=6, target=1, count=2, tribute_kind="luo")
    assert g.params() == {"target": 1, "count": 2, "kind": "luo"}


def test_params_are_plain_values() -> None:
    h = HuiCalled(seat=2, ranks=HuiRanks.BOTH, count=9)
    assert h.params() == {"ranks": "34", "count": 9}
    assert type(h.params()["ranks"]) is str
    c = CountAnswered(seat=1, target=3, answer="not_enough", count=None)
    assert c.params() == {"target": 3, "answer": "not_enough", "count": None}


def test_a_dealt_hand_is_seen_by_its_seat_only() -> None:
    _, events = new_hand(make_rules("dagang"), 3)
    dealt = [e for e in events if e.kind is EventKind.DEALT]
    assert [e.is_public() for e in dealt] == [True] + [False] * 6
    assert isinstance(dealt[0], Dealt) and sum(dealt[0].counts) == 216
    hands = [e for e in events if isinstance(e, HandDealt)]
    assert [(e.seat, e.visible_to) for e in hands] == [(s, (s,)) for s in SEATS]
