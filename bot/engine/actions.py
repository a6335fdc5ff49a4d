"""What a seat can do: frozen action records (the action log is a list of these)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Counts, fmt, parse
from .errors import ErrorCode, IllegalAction
from .plays import Play


class ActionKind(StrEnum):
    PLAY = "play"
    PASS = "pass"
    RANG = "rang"
    BURN = "burn"
    ASK_COUNT = "ask_count"
    REVOLT = "revolt"
    DECLARE_POINT = "declare_point"
    RETURN_TRIBUTE = "return_tribute"
    WAIVE = "waive"


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    cards: Counts | None = None
    target: int | None = None
    pre: bool = False

    @staticmethod
    def play(p: Play) -> Action:
        return Action(ActionKind.PLAY, p.counts())

    @staticmethod
    def burn(p: Play) -> Action:
        return Action(ActionKind.BURN, p.counts())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.kind.value}
        if self.cards is not None:
            out["cards"] = fmt(self.cards)
        if self.target is not None:
            out["target"] = self.target
        if self.pre:
            out["pre"] = True
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Action:
        """Build from a scenario/log entry; bad notation raises IllegalAction."""
        try:
            kind = ActionKind(str(obj.get("do")))
        except ValueError:
            raise IllegalAction(ErrorCode.UNKNOWN_ACTION, action=obj.get("do")) from None
        cards = obj.get("cards")
        counts = parse(cards) if isinstance(cards, str) else None
        if kind in (ActionKind.PLAY, ActionKind.BURN, ActionKind.RETURN_TRIBUTE) and counts is None:
            raise IllegalAction(ErrorCode.EMPTY_PLAY)
        target = obj.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise IllegalAction(ErrorCode.BAD_TARGET, target=target)
        return Action(kind, counts, target, bool(obj.get("pre", False)))
