"""Events: what happened, and who may see it (``visible_to`` None = everyone at the table).

Each kind of event is its own frozen record with typed fields; ``Event`` is their tagged
union, so a reader matches on the record (``case Played(cards=c)``) instead of looking a
string key up. ``kind`` tells the kinds apart where a table of texts is keyed by it; two
kinds have a second, private record that only their seats see (the cards of a deal, of a
tribute and of its return). ``to_json`` is the form the scenario files (RULES.md §15)
compare, key for key and in the same order as before the records were typed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Literal, TypeAlias

from .actions import HuiRanks
from .state import ChongBeat, PointKind, TributeKind


class EventKind(StrEnum):
    DEALT = "dealt"
    TRIBUTE_GIVEN = "tribute_given"
    TRIBUTE_RETURNED = "tribute_returned"
    BOUGHT = "bought"
    PLAY_STARTS = "play_starts"
    REVOLTED = "revolted"
    VOIDED = "voided"
    WAIVED = "waived"
    HUI = "hui"
    CHONGDIAN = "chongdian"
    CHONGDIAN_RESULT = "chongdian_result"
    DECLARED = "declared"
    PLAYED = "played"
    PASSED = "passed"
    RANGED = "ranged"
    BURNED = "burned"
    BURN_RELEASED = "burn_released"
    BURN_SUCCEEDED = "burn_succeeded"
    BURN_FAILED = "burn_failed"
    CAUGHT = "caught"
    TRICK_WON = "trick_won"
    LEAD = "lead"
    OPENED = "opened"
    POINT_FAILED = "point_failed"
    FOURS_DISCARDED = "fours_discarded"
    FOURS_FREED = "fours_freed"
    WENT_OUT = "went_out"
    FREE_PLAY = "free_play"
    COUNT = "count"
    HAND_OVER = "hand_over"


# 报户's answer: the exact count, "out" (the seat has gone out), or 不够报 (ten or more).
CountWord: TypeAlias = Literal["exact", "out", "not_enough"]
# A parameter of the event's text: what ``params`` gives (enums as their values).
EventParam: TypeAlias = str | int | bool | tuple[int, ...] | tuple[str, ...] | None

_NAMES: dict[type, tuple[tuple[str, str], ...]] = {}


class _Record:
    """What every event record has; the records themselves are the dataclasses below."""

    __slots__ = ()
    kind: ClassVar[EventKind]
    # ``kind`` is the record's tag, so a field the JSON calls "kind" has another name here.
    _json_names: ClassVar[dict[str, str]] = {}
    # Defaults for the records without them (records are keyword-only, so these inherited
    # defaults do not constrain the order of their fields).
    seat: int | None = None
    visible_to: tuple[int, ...] | None = None

    def is_public(self) -> bool:
        return self.visible_to is None

    def params(self) -> dict[str, EventParam]:
        """The event's own fields (not seat nor visibility) under their JSON names, in
        order: the parameters of its text (enums given as their values)."""
        return {
            name: _plain(getattr(self, attr))
            for attr, name in _names(type(self))
            if attr not in _ADDRESS
        }

    def to_json(self) -> dict[str, Any]:
        """Type, seat, then the fields in the record's order (``visible_to`` where the
        record declares it: the scenario files keep the order events always had)."""
        out: dict[str, Any] = {"type": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        for attr, name in _names(type(self)):
            if attr == "seat":
                continue
            v = _plain(getattr(self, attr))
            if v is None and attr == "visible_to":
                continue
            out[name] = list(v) if isinstance(v, tuple) else v
        return out


_ADDRESS = frozenset({"seat", "visible_to"})


def _names(cls: type[_Record]) -> tuple[tuple[str, str], ...]:
    """The record's fields in order: (Python name, JSON name)."""
    names = _NAMES.get(cls)
    if names is None:
        renamed = cls._json_names
        names = tuple(
            (f.name, renamed.get(f.name, f.name))
            for f in fields(cls)  # type: ignore[arg-type]  # every record is a dataclass
        )
        if "visible_to" not in (n for n, _ in names):
            names += (("visible_to", "visible_to"),)
        _NAMES[cls] = names
    return names


def _plain(v: object) -> EventParam:
    if isinstance(v, StrEnum):
        return v.value
    if isinstance(v, tuple):
        return tuple(x.value if isinstance(x, StrEnum) else x for x in v)
    assert v is None or isinstance(v, str | int)
    return v


# -- the deal and the tributes -----------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(_Record):
    """The deal, for everyone: how many cards each seat holds (``seat``: the leader)."""

    kind: ClassVar[EventKind] = EventKind.DEALT
    seat: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(_Record):
    """The deal, for one seat: its cards (notation)."""

    kind: ClassVar[EventKind] = EventKind.DEALT
    seat: int
    visible_to: tuple[int, ...]
    cards: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeGiven(_Record):
    """``seat`` pays ``count`` cards of tribute to ``target`` (``tribute_kind``: why)."""

    kind: ClassVar[EventKind] = EventKind.TRIBUTE_GIVEN
    _json_names: ClassVar[dict[str, str]] = {"tribute_kind": "kind"}
    seat: int
    target: int
    count: int
    tribute_kind: TributeKind


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeCards(_Record):
    """The cards of a tribute, for its giver and receiver only."""

    kind: ClassVar[EventKind] = EventKind.TRIBUTE_GIVEN
    seat: int
    target: int
    cards: str
    visible_to: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeReturned(_Record):
    """还贡: ``seat`` returns ``count`` cards to ``target``, who paid it tribute."""

    kind: ClassVar[EventKind] = EventKind.TRIBUTE_RETURNED
    seat: int
    target: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnCards(_Record):
    """The cards of a return, for its two seats only."""

    kind: ClassVar[EventKind] = EventKind.TRIBUTE_RETURNED
    seat: int
    target: int
    cards: str
    visible_to: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bought(_Record):
    """买3: ``seat`` buys a ``rank`` card from ``target``, paying ``paid`` (None: nothing)."""

    kind: ClassVar[EventKind] = EventKind.BOUGHT
    seat: int
    target: int
    rank: str
    paid: str | None


# -- before the first play ---------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayStarts(_Record):
    kind: ClassVar[EventKind] = EventKind.PLAY_STARTS
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Revolted(_Record):
    kind: ClassVar[EventKind] = EventKind.REVOLTED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Voided(_Record):
    """The hand is void (a 革命 the rules end the hand with)."""

    kind: ClassVar[EventKind] = EventKind.VOIDED


@dataclass(frozen=True, slots=True, kw_only=True)
class Waived(_Record):
    kind: ClassVar[EventKind] = EventKind.WAIVED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HuiCalled(_Record):
    """烩: ``seat`` sets aside all its cards of ``ranks`` (``count`` of them)."""

    kind: ClassVar[EventKind] = EventKind.HUI
    seat: int
    ranks: HuiRanks
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChongdianCalled(_Record):
    """冲点: ``seat`` (a revolter) plays it against ``target``, its opposite."""

    kind: ClassVar[EventKind] = EventKind.CHONGDIAN
    seat: int
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChongdianResult(_Record):
    kind: ClassVar[EventKind] = EventKind.CHONGDIAN_RESULT
    seat: int
    beats: tuple[ChongBeat, ...]
    place: int
    opened: bool
    opposite_opened: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Declared(_Record):
    """明点/预点: ``seat`` declares that ``target`` (its opposite) will not open."""

    kind: ClassVar[EventKind] = EventKind.DECLARED
    _json_names: ClassVar[dict[str, str]] = {"point_kind": "kind"}
    seat: int
    target: int
    point_kind: PointKind


# -- the play ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Played(_Record):
    """A play (``target``: the seat whose play it answers, None for a lead)."""

    kind: ClassVar[EventKind] = EventKind.PLAYED
    seat: int
    cards: str
    gouji: bool
    target: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed(_Record):
    kind: ClassVar[EventKind] = EventKind.PASSED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Ranged(_Record):
    kind: ClassVar[EventKind] = EventKind.RANGED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Burned(_Record):
    """烧: ``seat`` burns the 够级牌 of ``target``."""

    kind: ClassVar[EventKind] = EventKind.BURNED
    seat: int
    cards: str
    gouji: bool
    target: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnReleased(_Record):
    """The burn by ``seat`` is over without success (``by``: the seat whose play ended it)."""

    kind: ClassVar[EventKind] = EventKind.BURN_RELEASED
    seat: int | None
    by: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnSucceeded(_Record):
    kind: ClassVar[EventKind] = EventKind.BURN_SUCCEEDED
    seat: int
    burned: int | None
    counter: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnFailed(_Record):
    """烧糊了: ``seat`` could not go on with its burn of ``burned``."""

    kind: ClassVar[EventKind] = EventKind.BURN_FAILED
    seat: int
    burned: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Caught(_Record):
    """被闷: ``seat``'s last play that was not a 3 was beaten by ``by``."""

    kind: ClassVar[EventKind] = EventKind.CAUGHT
    seat: int
    by: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon(_Record):
    """``seat`` won the trick with ``cards``; ``cleared_by`` (its opposite) clears it."""

    kind: ClassVar[EventKind] = EventKind.TRICK_WON
    seat: int
    cards: str
    cleared_by: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Lead(_Record):
    kind: ClassVar[EventKind] = EventKind.LEAD
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Opened(_Record):
    kind: ClassVar[EventKind] = EventKind.OPENED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PointFailed(_Record):
    kind: ClassVar[EventKind] = EventKind.POINT_FAILED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FoursDiscarded(_Record):
    kind: ClassVar[EventKind] = EventKind.FOURS_DISCARDED
    seat: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FoursFreed(_Record):
    kind: ClassVar[EventKind] = EventKind.FOURS_FREED
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WentOut(_Record):
    """``seat`` has played its last card, the ``order``-th seat out."""

    kind: ClassVar[EventKind] = EventKind.WENT_OUT
    seat: int
    order: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FreePlay(_Record):
    kind: ClassVar[EventKind] = EventKind.FREE_PLAY


@dataclass(frozen=True, slots=True, kw_only=True)
class CountAnswered(_Record):
    """报户: ``seat`` asked how many cards ``target`` holds (``count`` only when exact)."""

    kind: ClassVar[EventKind] = EventKind.COUNT
    seat: int
    target: int
    answer: CountWord
    count: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandOver(_Record):
    kind: ClassVar[EventKind] = EventKind.HAND_OVER
    places: tuple[int, ...]
    team_scores: tuple[int, int]
    sweep: str | None


Event: TypeAlias = (
    Dealt
    | HandDealt
    | TributeGiven
    | TributeCards
    | TributeReturned
    | ReturnCards
    | Bought
    | PlayStarts
    | Revolted
    | Voided
    | Waived
    | HuiCalled
    | ChongdianCalled
    | ChongdianResult
    | Declared
    | Played
    | Passed
    | Ranged
    | Burned
    | BurnReleased
    | BurnSucceeded
    | BurnFailed
    | Caught
    | TrickWon
    | Lead
    | Opened
    | PointFailed
    | FoursDiscarded
    | FoursFreed
    | WentOut
    | FreePlay
    | CountAnswered
    | HandOver
)
