"""What the table manager tells adapters: typed output records, replies and snapshots.

Outputs are a tagged union (``Out``): an adapter handles each with ``match`` and
``typing.assert_never``, so a new kind of output is a type error in every adapter that
forgets it, not a silent no-op.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from ..ai import Role
from ..engine.actions import Action
from ..engine.rules import Rules
from ..engine.state import HandResult
from ..engine.views import PublicView, SeatView
from ..i18n.catalogue import Lang
from ..present.playmenu import PlayMenu
from .codes import NoteKey, NoticeKey, ReplyKey
from .model import GroupSettings, TableStatus

# A parameter of a text: what engine events and refusals carry (cards are notation strings,
# counts are tuples of ints).
Param: TypeAlias = str | int | bool | tuple[int, ...] | None
Params: TypeAlias = tuple[tuple[str, Param], ...]
Json: TypeAlias = str | int | float | bool | list["Json"] | dict[str, "Json"] | None


def as_param(value: object) -> Param:
    """Narrow an engine value to a text parameter (anything unexpected becomes its text)."""
    if value is None or isinstance(value, str | int):
        return value
    if isinstance(value, tuple) and all(type(v) is int for v in value):
        return tuple(int(v) for v in value)
    return str(value)


def params_of(**values: object) -> Params:
    return tuple((k, as_param(v)) for k, v in values.items())


def param(params: Params, name: str) -> Param:
    for k, v in params:
        if k == name:
            return v
    return None


# -- outputs ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableChanged:
    """The group's table message should show the latest snapshot: ``snapshot``, the
    table as it stands when the output is handed to the adapters (filled in then by the
    manager's sinks, ``bot.table.sinks``; None when there is no table any more)."""

    table: str
    version: int = field(default=0, compare=False)
    snapshot: TableSnapshot | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class HandChanged:
    """One player's hand or options changed: update their private view. ``snapshot`` is
    that player's own view (their cards): only a sink subscribed to see hands gets it —
    one that sends it to this player alone — every other sink gets None
    (``bot.table.sinks``); never written to the outbox, a log line or a repr."""

    table: str
    user: str
    seat: int
    version: int = field(default=0, compare=False)
    snapshot: PrivateSnapshot | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class PrivateNote:
    """A private line for one player (a timer warning, a refused queued play, seat lost)."""

    table: str
    user: str
    key: NoteKey
    params: Params = ()


@dataclass(frozen=True, slots=True)
class Notice:
    """A short public line for the group (key + params; never a card of a hand).

    ``minor`` notices (plays, passes, trick ends) are what the table image already shows;
    chat platforms skip them, the terminal prints them."""

    table: str
    key: NoticeKey
    params: Params = ()
    minor: bool = False

    def param(self, name: str) -> Param:
        return param(self.params, name)

    @property
    def seat(self) -> int | None:
        seat = self.param("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


@dataclass(frozen=True, slots=True)
class HandFinished:
    """A hand ended: post its result."""

    table: str
    hand_no: int
    totals: tuple[int, int]
    result: HandResult


@dataclass(frozen=True, slots=True)
class MatchOver:
    table: str
    totals: tuple[int, int]
    hands: int
    stopped: bool


Out: TypeAlias = TableChanged | HandChanged | PrivateNote | Notice | HandFinished | MatchOver


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the command's sender; ``key`` is a code whose value is its text key
    (the table's ``ReplyCode``, the engine's ``ErrorCode``, or a front end's own text)."""

    ok: bool
    key: ReplyKey
    params: Params = ()

    @staticmethod
    def yes(key: ReplyKey, **params: object) -> Reply:
        return Reply(True, key, params_of(**params))

    @staticmethod
    def no(key: ReplyKey, **params: object) -> Reply:
        return Reply(False, key, params_of(**params))

    def param(self, name: str) -> Param:
        return param(self.params, name)


# -- snapshots ----------------------------------------------------------------------------
class DeadlineKind(StrEnum):
    TURN = "turn"  # the seat to act (warned, then 托管)
    BURN = "burn"  # the burn window
    DECLARE = "declare"  # the pause for revolts and 明点 before the first play
    RETURNS = "returns"  # tribute returns owed by humans
    NEXT_HAND = "next_hand"  # the pause between hands
    # AI seats owe moves after a player's action that was answered before them
    # (``Env.ai_later``): due at once, the shell runs them in a step of their own.
    AI = "ai"


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the current wait ends, on the manager's clock; ``step`` ties a turn timer to the
    engine step it was set for, so a later step gets a fresh timer."""

    kind: DeadlineKind
    at: float | None  # None: waits without a timer (a table with the turn timer off)
    step: int = -1
    # How long the wait was set for (a turn's own timer: a pass-only turn's is shorter
    # than the table's); None: not known (set before it was kept).
    length: float | None = None

    @property
    def is_turn(self) -> bool:
        return self.kind is DeadlineKind.TURN


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished (or voided) hand of the match, as the score list shows it."""

    hand_no: int
    deal_no: int
    team_scores: tuple[int, int] = (0, 0)
    voided: bool = False


def summary_of(entry: dict[str, Json]) -> HandSummary:
    def num(name: str) -> int:
        v = entry.get(name)
        return v if isinstance(v, int) else 0

    scores = entry.get("team_scores")
    a, b = scores if isinstance(scores, list) and len(scores) == 2 else (0, 0)
    return HandSummary(
        num("hand_no"),
        num("deal_no"),
        (a if isinstance(a, int) else 0, b if isinstance(b, int) else 0),
        bool(entry.get("voided")),
    )


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
    deadline: Deadline | None = None
    ready: frozenset[int] = frozenset()  # seats done with revolts/declarations
    meta: tuple[tuple[str, Json], ...] = ()  # what adapters stored with the table
    match_id: int = 0  # differs between matches at one chat (for short button ids)
    history: tuple[HandSummary, ...] = ()  # the match's finished hands, oldest first
    thinking: int | None = None  # an AI seat deciding for more than a second (``thinking``)

    def name_of(self, seat: int) -> str:
        line = self.seats[seat - 1]
        return line.name if line else f"#{seat}"

    @property
    def deadline_at(self) -> float | None:
        return self.deadline.at if self.deadline is not None else None

    @property
    def turn_deadline(self) -> float | None:
        """When the seat to act runs out of time, if a turn timer runs."""
        d = self.deadline
        return d.at if d is not None and d.is_turn else None


@dataclass(frozen=True, slots=True)
class PrivateSnapshot:
    key: str
    seat: int
    user_id: str
    view: SeatView
    legal: tuple[Action, ...]  # every action the seat may take now (no 报户)
    version: int
    autoplay: bool
    role: Role | None
    lang: Lang
    menu: PlayMenu = field(default_factory=PlayMenu)
    hints: bool = False  # the group lets a player ask for the expert's choice (💡)
    # The keyboard version this seat's last accepted action came from: a second press
    # from it is a double tap ("already played"), not an out-of-date button.
    played: int | None = None
