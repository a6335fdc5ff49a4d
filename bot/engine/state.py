"""The state of one hand: a frozen record; `game.apply` returns a new one."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple, TypeAlias, get_args

from .actions import HuiRanks
from .cards import EMPTY, Counts, fmt
from .errors import ErrorCode, IllegalAction
from .plays import Play
from .rules import Rules
from .seats import down as down
from .seats import opp as opp
from .seats import same_team as same_team
from .seats import up as up

SEATS = (1, 2, 3, 4, 5, 6)
NO_STREAKS: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
STREAK_EXEMPT = 3  # a seat that failed to open in 3 hands running is exempt in the 4th (毕业)


def is_seat(value: object) -> bool:
    """A seat number: an int 1..6 (never a bool or a float such as 1.0)."""
    return type(value) is int and 1 <= value <= 6


def check_seat(value: object) -> None:
    """Refuse anything but a seat (issue 9 item 3: ``1.0 in SEATS`` is true, then crashes)."""
    if not is_seat(value):
        raise IllegalAction(ErrorCode.BAD_SEAT, seat=value)


class ChongBeat(StrEnum):
    """How the opposite met one 冲点 play (RULES §10)."""

    PURE = "pure"  # beaten by a pure 够级牌
    HUA = "hua"  # beaten otherwise (挂花 or 贴钱)
    LIVE = "live"  # not beaten


@dataclass(frozen=True, slots=True)
class Chongdian:
    """A revolter's 冲点: its three plays so far and how each was met."""

    seat: int
    beats: tuple[ChongBeat, ...] = ()

    @property
    def in_progress(self) -> bool:
        return len(self.beats) < 3

    @property
    def place(self) -> int | None:
        """The revolter's fixed place once done: 6 (大落) if all three were beaten, else 4."""
        if self.in_progress:
            return None
        return 6 if ChongBeat.LIVE not in self.beats else 4

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "beats": [b.value for b in self.beats], "place": self.place}


class Phase(StrEnum):
    RETURN_TRIBUTE = "return_tribute"
    PLAY = "play"
    OVER = "over"
    VOIDED = "voided"


class SeatStatus(StrEnum):
    PLAYING = "playing"
    OUT = "out"  # played out
    REVOLTED = "revolted"
    DEAD = "dead"  # failed burn or caught 憋三 under men_is_last: ranked from the bottom


class Mark(StrEnum):
    """A seat's last action in the current trick, for the table view."""

    PASS = "pass"
    RANG = "rang"


# The two teams, by their seats.
Team: TypeAlias = Literal["135", "246"]
# Why a tribute is owed: 闷, 烧, 点, 落 (大落/二落), 串三户, and the 明点/预点 stakes.
TributeKind: TypeAlias = Literal["men", "burn", "point", "luo", "sweep", "mingdian", "yudian"]
# 明点 (declared during the hand) or 预点 (before the deal).
PointKind: TypeAlias = Literal["mingdian", "yudian"]
# The ±1s of competition scoring: 点, 闷, 烧.
BonusKind: TypeAlias = Literal["point", "men", "burn"]


def team_key(seat: int) -> Team:
    return "135" if seat % 2 else "246"


def tribute_kind_of(value: object) -> TributeKind:
    """A stored tribute kind, checked (ValueError for anything else)."""
    for kind in get_args(TributeKind):
        if value == kind:
            return kind  # type: ignore[no-any-return]  # one of the Literal's own values
    raise ValueError(f"not a tribute kind: {value!r}")


def bonus_kind_of(value: object) -> BonusKind:
    """A stored bonus kind, checked (ValueError for anything else)."""
    for kind in get_args(BonusKind):
        if value == kind:
            return kind  # type: ignore[no-any-return]  # one of the Literal's own values
    raise ValueError(f"not a bonus kind: {value!r}")


def team_of(value: object) -> Team | None:
    """A stored team ("135"/"246"), or None for anything else."""
    return "135" if value == "135" else "246" if value == "246" else None


@dataclass(frozen=True, slots=True)
class Tribute:
    giver: int
    receiver: int
    count: int
    kind: TributeKind

    def to_json(self) -> dict[str, Any]:
        return {"from": self.giver, "to": self.receiver, "count": self.count, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class Bonus:
    """One ±1 of competition scoring (比赛, RULES §13): ``earner``'s team gains a point and
    ``payer``'s team loses one, for a 点 (the payer did not open), 闷 or 烧 between opponents."""

    kind: BonusKind
    earner: int
    payer: int


@dataclass(frozen=True, slots=True)
class HandExtras:
    """The rules v2 parts of a hand that change a few times a hand at most, kept in one
    record so that copying a state per action stays as cheap as before them."""

    hui: HuiRanks | None = None  # 烩牌 made this hand
    set_aside: Counts = EMPTY  # the cards 烩 took out of the hands
    streaks: tuple[int, ...] = NO_STREAKS  # 点 streaks carried in from the match
    chong: Chongdian | None = None  # 冲点 in progress or made
    counter_burn: bool = False  # the burn in progress is a 反烧


NO_EXTRAS = HandExtras()


class PublicMove(NamedTuple):
    """One seat's public act in play — a play (or burn), a pass or a 让 — and the play it
    met. The table sees all of it, so a seat may remember it (who played what, who passed
    on what: 三个记住); policies read it from ``PublicView.history``."""

    seat: int
    act: Play | Mark
    over: Play | None  # the play on top when the seat acted (None: it led)
    over_seat: int | None


@dataclass(frozen=True, slots=True)
class HandResult:
    places: tuple[int, ...]  # seats from 头科 to 大落
    team_scores: tuple[int, int]  # (team 1-3-5, team 2-4-6)
    seat_points: tuple[int, ...]  # by seat, before team doubling
    sweep_team: Team | None  # after 串三户
    tributes: tuple[Tribute, ...]
    voided: bool = False
    streaks: tuple[int, ...] = NO_STREAKS  # 点 streaks to carry into the next hand
    bonuses: tuple[Bonus, ...] = ()  # competition scoring's ±1s, already in team_scores

    def itemized_scores(self) -> tuple[int, int]:
        """Team sums of the rows a result shows, place points plus the ±1s of 比赛
        scoring: ``team_scores`` before ``positive_only`` sets the losing team to 0
        (without a 串三户, whose multiplier the result does not carry)."""
        sums = [0, 0]
        for s in SEATS:
            sums[(s + 1) % 2] += self.seat_points[s - 1]
        for b in self.bonuses:
            sums[(b.earner + 1) % 2] += 1
            sums[(b.payer + 1) % 2] -= 1
        return sums[0], sums[1]

    def place_of(self, seat: int) -> int:
        """1-based place (1 = 头科)."""
        return self.places.index(seat) + 1


class HandState(NamedTuple):
    """The whole state of a hand. Immutable; ``game.apply`` returns a new one.

    A NamedTuple rather than a frozen dataclass: one is built per action, and tuple
    construction is several times cheaper than a frozen dataclass's 40 attribute sets.
    """

    rules: Rules
    phase: Phase
    hands: tuple[Counts, ...]
    status: tuple[SeatStatus, ...]
    leader: int
    to_act: int | None = None
    top_seat: int | None = None
    top_play: Play | None = None
    top_gouji: bool = False
    top_gousi: bool = False
    lead_pending: bool = False
    locked: frozenset[int] = frozenset()
    passed_since_top: frozenset[int] = frozenset()
    last_passer: int | None = None
    window: frozenset[int] = frozenset()
    rang_by: int | None = None
    rang_deciding: bool = False
    burner: int | None = None
    burned: int | None = None
    out_order: tuple[int, ...] = ()
    bottom_order: tuple[int, ...] = ()
    revolters: tuple[int, ...] = ()
    burn_failed: frozenset[int] = frozenset()
    gousi_left: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    opened: frozenset[int] = frozenset()
    judged: frozenset[int] = frozenset()
    point_failed: tuple[int, ...] = ()
    fours_pending: frozenset[int] = frozenset()
    fours_free: frozenset[int] = frozenset()
    declarations: tuple[tuple[int, PointKind], ...] = ()
    caught: tuple[tuple[int, int], ...] = ()
    burn_wins: tuple[tuple[int, int, int], ...] = ()  # (burned, burner, 烧贡 cards)
    discarded: Counts = EMPTY
    played: Counts = EMPTY  # every card played this hand (the table and cleared tricks)
    trick_marks: tuple[Play | Mark | None, ...] = (None,) * 6
    started: bool = False
    pending_returns: tuple[tuple[int, int, int], ...] = ()  # (receiver, giver, count)
    buy_pending: bool = False  # 买3/买4 still to run (after returns and the 革命 declarations)
    result: HandResult | None = None
    step: int = 0
    extras: HandExtras = NO_EXTRAS  # rules v2 fields that change a few times a hand at most
    history: tuple[PublicMove, ...] = ()  # every play, burn, pass and 让 of the hand, in order

    # -- convenience ---------------------------------------------------------------
    @property
    def hui(self) -> HuiRanks | None:
        return self.extras.hui

    @property
    def set_aside(self) -> Counts:
        return self.extras.set_aside

    @property
    def streaks(self) -> tuple[int, ...]:
        return self.extras.streaks

    @property
    def chong(self) -> Chongdian | None:
        return self.extras.chong

    @property
    def counter_burn(self) -> bool:
        return self.extras.counter_burn

    def hand(self, seat: int) -> Counts:
        return self.hands[seat - 1]

    def is_active(self, seat: int) -> bool:
        return self.status[seat - 1] is SeatStatus.PLAYING

    @property
    def free_play(self) -> bool:
        """四户乱缠: two seats have played out."""
        return len(self.out_order) >= 2

    @property
    def over(self) -> bool:
        return self.phase in (Phase.OVER, Phase.VOIDED)

    def headless(self, seat: int) -> bool:
        """无头: the seat's opposite no longer plays (with the exceptions of RULES §8, §10)."""
        o = opp(seat)
        if self.status[o - 1] is SeatStatus.PLAYING:
            return False
        if self.gousi_left[seat - 1] > 0:
            return False
        return not (o in self.burn_failed and len(self.out_order) < 2)

    def final_json(self) -> dict[str, Any]:
        """The replay's final object (RULES §15)."""
        res = self.result
        top = None
        if self.top_play is not None and self.top_seat is not None:
            top = {"seat": self.top_seat, "cards": self.top_play.notation()}
        if res is not None and not res.voided:
            finish = list(res.places)
            scores: dict[str, int] | None = {"135": res.team_scores[0], "246": res.team_scores[1]}
            tributes = [t.to_json() for t in res.tributes]
        else:
            finish = list(self.out_order)
            scores = None
            tributes = []
        return {
            "phase": self.phase.value,
            "voided": self.phase is Phase.VOIDED,
            "to_act": self.to_act,
            "top": top,
            "hand_counts": [sum(h) for h in self.hands],
            "finish_order": finish,
            "opened": sorted(self.opened),
            "passed": sorted(self.locked),
            "burner": self.burner,
            "team_scores": scores,
            "tributes": tributes,
            "revolters": list(self.revolters),
            "discarded": fmt(self.discarded),
            "set_aside": fmt(self.set_aside),
            "chongdian": None if self.chong is None else self.chong.to_json(),
            "played_count": sum(self.played),
        }
