"""What a seat can do: frozen action records (the action log is a list of these)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
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
    HUI = "hui"  # 烩牌: the leader sets the 3s (and/or 4s) of every hand aside
    CHONGDIAN = "chongdian"  # 冲点: the revolter plays three pure 够级牌 instead of sitting out


class HuiRanks(StrEnum):
    """Which ranks a 烩 sets aside (RULES §10): 3s, 4s or both."""

    THREES = "3"
    FOURS = "4"
    BOTH = "34"


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    cards: Counts | None = None
    target: int | None = None
    pre: bool = False
    ranks: HuiRanks | None = None  # only for HUI

    @staticmethod
    def play(p: Play) -> Action:
        return play_action(p)

    @staticmethod
    def hui(ranks: HuiRanks) -> Action:
        return Action(ActionKind.HUI, ranks=ranks)

    @staticmethod
    def chongdian() -> Action:
        return Action(ActionKind.CHONGDIAN)

    @staticmethod
    def burn(p: Play) -> Action:
        return burn_action(p)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.kind.value}
        if self.cards is not None:
            out["cards"] = fmt(self.cards)
        if self.target is not None:
            out["target"] = self.target
        if self.pre:
            out["pre"] = True
        if self.ranks is not None:
            out["ranks"] = self.ranks.value
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
        if target is not None and type(target) is not int:
            raise IllegalAction(ErrorCode.BAD_TARGET, target=target)
        ranks = None
        if kind is ActionKind.HUI:
            try:
                ranks = HuiRanks(str(obj.get("ranks")))
            except ValueError:
                raise IllegalAction(ErrorCode.HUI_NOT_ALLOWED, ranks=obj.get("ranks")) from None
        return Action(kind, counts, target, obj.get("pre", False) is True, ranks)


# Legal lists hold the same few hundred plays again and again, and a frozen dataclass costs
# about a microsecond to build (its counts as much again): the actions are values, so one
# per play serves every list. Bounded: a long-running bot sees far fewer distinct plays.
@lru_cache(maxsize=1 << 15)
def play_action(p: Play) -> Action:
    """``Action.play(p)``, memoised (equal to a fresh one)."""
    return Action(ActionKind.PLAY, p.counts())


@lru_cache(maxsize=1 << 15)
def burn_action(p: Play) -> Action:
    """``Action.burn(p)``, memoised (equal to a fresh one)."""
    return Action(ActionKind.BURN, p.counts())
