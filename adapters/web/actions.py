"""A page's action request → the ``Control`` it names (bot/present/controls.py).

The page sends what was tapped (``op`` and, for plays, the cards in RULES notation, and
for the seat's actions the table version its view was drawn at). This module only reads
the request; whether the control is offered now, and what a stale one or a double tap
is answered, is the one press protocol's (adapters/press.py), as for a chat's button.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse
from bot.engine.errors import GoujiError
from bot.present.controls import Control, Op

from .payload import SIMPLE_OPS

CARD_OPS = {"play": ActionKind.PLAY, "burn": ActionKind.BURN}
SIMPLE_KINDS = {op: kind for kind, op in SIMPLE_OPS.items()}
MAX_CARDS = 40  # no play or return holds more characters than this


@dataclass(frozen=True, slots=True)
class Refused:
    """Not a control: the text key of the reason."""

    key: str


@dataclass(frozen=True, slots=True)
class Request:
    control: Control
    version: int  # the table version the page's view was drawn at (0: not needed)


BAD = Refused("web_bad_request")


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _cards(body: Mapping[str, object]) -> tuple[int, ...] | None:
    raw = body.get("cards")
    if not isinstance(raw, str) or not 0 < len(raw) <= MAX_CARDS:
        return None
    try:
        return parse(raw)
    except GoujiError:
        return None


def _anytime(op: str, body: Mapping[str, object]) -> Control | Refused | None:
    """托管, ready and 报户: honoured at any version (None: not one of them)."""
    if op == "autoplay":
        on = body.get("on")
        return Control(Op.AUTOPLAY, on=on) if isinstance(on, bool) else BAD
    if op == "ready":
        return Control(Op.READY)
    if op == "count":
        target = _int(body.get("target"))
        return Control(Op.ASK, target=target) if target is not None and 1 <= target <= 6 else BAD
    return None


def _action(op: str, body: Mapping[str, object]) -> Action | None:
    if op in CARD_OPS:
        cards = _cards(body)
        return Action(CARD_OPS[op], cards) if cards is not None else None
    if op == "return":
        cards, target = _cards(body), _int(body.get("target"))
        return Action(ActionKind.RETURN_TRIBUTE, cards, target) if cards and target else None
    kind = SIMPLE_KINDS.get(op)
    if kind is ActionKind.HUI:
        ranks = next((r for r in HuiRanks if r.value == body.get("ranks")), None)
        return Action.hui(ranks) if ranks is not None else None
    if kind is not None:
        return Action(kind, pre=body.get("pre") is True)
    return None


def request_of(body: Mapping[str, object]) -> Request | Refused:
    """The control a page's request names, or why it names none."""
    op = body.get("op")
    if not isinstance(op, str):  # a list or an object is no op (and not hashable)
        return BAD
    anytime = _anytime(op, body)
    if isinstance(anytime, Refused):
        return anytime
    if anytime is not None:
        return Request(anytime, 0)
    version = _int(body.get("version"))
    if version is None:
        return BAD
    if op == "decline":
        return Request(Control(Op.DECLINE), version)
    action = _action(op, body)
    return BAD if action is None else Request(Control.act(action), version)
