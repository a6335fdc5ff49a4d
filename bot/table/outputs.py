"""What the table manager tells adapters: replies, outputs, and snapshots to render."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine.actions import Action
from ..engine.rules import Rules
from ..engine.state import HandResult
from ..engine.views import PublicView, SeatView
from .model import GroupSettings, TableStatus


class OutKind(StrEnum):
    TABLE = "table"  # the group's table message should show the latest snapshot
    PRIVATE = "private"  # one player's hand / options changed: update their private view
    NOTICE = "notice"  # a short public line in the group (key + params, never a card of a hand)
    RESULT = "result"  # a hand ended: post its result
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class Out:
    kind: OutKind
    table: str
    user: str | None = None
    key: str = ""
    params: tuple[tuple[str, Any], ...] = ()
    data: Any = None

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the command's sender; ``key`` is an i18n key (error codes included)."""

    ok: bool
    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def yes(key: str, **params: Any) -> Reply:
        return Reply(True, key, tuple(params.items()))

    @staticmethod
    def no(key: str, **params: Any) -> Reply:
        return Reply(False, key, tuple(params.items()))

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    name: str
    user_id: str | None
    autoplay: bool

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    key: str
    status: TableStatus
    seats: tuple[SeatLine | None, ...]
    creator: str
    settings: GroupSettings
    rules: Rules | None
    hand_no: int
    totals: tuple[int, int]
    public: PublicView | None
    version: int
    window_open: bool
    declare_open: bool
    last_result: HandResult | None
    spectators: int = 0
    names: tuple[str, ...] = field(default=())
    deadline: float | None = None  # on the manager's clock, when the current wait ends
    deadline_kind: str = ""  # "turn:<step>", "burn", "declare", "returns", "next_hand"
    ready: frozenset[int] = frozenset()  # seats done with revolts/declarations
    meta: tuple[tuple[str, Any], ...] = ()  # what adapters stored with the table
    match_id: int = 0  # differs between matches at one chat (for short button ids)
    history: tuple[dict[str, Any], ...] = ()  # the match's finished hands, oldest first

    def name_of(self, seat: int) -> str:
        line = self.seats[seat - 1]
        return line.name if line else f"#{seat}"


@dataclass(frozen=True, slots=True)
class PrivateSnapshot:
    key: str
    seat: int
    user_id: str
    view: SeatView
    legal: tuple[Action, ...]  # every action the seat may take now (no 报户)
    version: int
    autoplay: bool
    role: str | None  # "turn", "burn", "return", "pre_play" or None
    lang: str
