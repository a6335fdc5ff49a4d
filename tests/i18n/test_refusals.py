"""Refusals say why (issue 9, item 13)."""

from __future__ import annotations

import pytest

from bot.engine import Action, ActionKind, apply, from_hands, make_rules
from bot.engine.cards import parse
from bot.engine.errors import IllegalAction
from bot.i18n import error_text


def _refusal(hands: list[str], seat: int, preset: str = "dagang") -> IllegalAction:
    state, _ = from_hands(make_rules(preset), [parse(h) for h in hands], leader=1)
    with pytest.raises(IllegalAction) as caught:
        apply(state, seat, Action(ActionKind.REVOLT))
    return caught.value


def test_a_refused_revolution_names_the_card_that_forbids_it() -> None:
    err = _refusal(["59", "5672", "567S", "7", "8", "9"], seat=3)
    assert err.code.value == "revolt_not_allowed" and err.params == {"card": "S"}
    assert "a small joker" in error_text(err.code.value, err.params, "en")
    assert "小王" in error_text(err.code.value, err.params, "zh")
    err = _refusal(["59", "5672", "567S", "7", "8", "9"], seat=2)
    assert "You hold a 2," in error_text(err.code.value, err.params, "en")


def test_a_refusal_without_a_card_keeps_the_general_text() -> None:
    state, _ = from_hands(
        make_rules("dagang"), [parse(h) for h in ("59", "56", "7", "8", "9", "6")], 1
    )
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("5")))
    with pytest.raises(IllegalAction) as caught:
        apply(state, 2, Action(ActionKind.REVOLT))  # too late: the first play is made
    assert caught.value.params == {}
    assert error_text("revolt_not_allowed", {}, "en") == "You cannot declare a revolution now."


def test_bad_notation_positions_count_from_one() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse("88X")
    assert caught.value.params["position"] == 3
    assert "position 3" in error_text("bad_notation", caught.value.params, "en")
