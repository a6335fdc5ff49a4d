"""The mutable copy of a frozen HandState that one action changes step by step, with
the small helpers every part of a transition reads (who is active, the constraints on a
lead) and the two changes they all make (a burn won, a seat counted as opened)."""

from __future__ import annotations

from dataclasses import replace

from . import cards as C
from .actions import HuiRanks
from .cards import I_FOUR, I_THREE, Counts
from .events import (
    BurnSucceeded,
    Event,
    Opened,
)
from .movegen import Constraints, FoursMode, gen_leads
from .plays import Play
from .rules import Rules
from .state import (
    Chongdian,
    HandExtras,
    HandResult,
    HandState,
    Mark,
    Phase,
    PointKind,
    PublicMove,
    SeatStatus,
    down,
    opp,
)


class MutableHand:
    """A mutable copy of a HandState while one action is applied."""

    def __init__(self, s: HandState) -> None:
        self.rules: Rules = s.rules
        self.phase: Phase = s.phase
        self.hands: list[Counts] = list(s.hands)
        self.status: list[SeatStatus] = list(s.status)
        self.to_act: int | None = s.to_act
        self.top_seat: int | None = s.top_seat
        self.top_play: Play | None = s.top_play
        self.top_gouji: bool = s.top_gouji
        self.top_gousi: bool = s.top_gousi
        self.lead_pending: bool = s.lead_pending
        self.locked: set[int] = set(s.locked)
        self.passed_since_top: set[int] = set(s.passed_since_top)
        self.last_passer: int | None = s.last_passer
        self.window: set[int] = set(s.window)
        self.rang_by: int | None = s.rang_by
        self.rang_deciding: bool = s.rang_deciding
        self.burner: int | None = s.burner
        self.burned: int | None = s.burned
        # Fields that change a few times a hand stay immutable here and are replaced on
        # change: copying them on every action was the engine's biggest cost.
        self.out_order: tuple[int, ...] = s.out_order
        self.bottom_order: tuple[int, ...] = s.bottom_order
        self.revolters: tuple[int, ...] = s.revolters
        self.burn_failed: frozenset[int] = s.burn_failed
        self.gousi_left: tuple[int, ...] = s.gousi_left
        self.opened: frozenset[int] = s.opened
        self.judged: frozenset[int] = s.judged
        self.point_failed: tuple[int, ...] = s.point_failed
        self.fours_pending: frozenset[int] = s.fours_pending
        self.fours_free: frozenset[int] = s.fours_free
        self.declarations: tuple[tuple[int, PointKind], ...] = s.declarations
        self.caught: tuple[tuple[int, int], ...] = s.caught
        self.burn_wins: tuple[tuple[int, int, int], ...] = s.burn_wins
        self.discarded: Counts = s.discarded
        self.played: Counts = s.played
        self.trick_marks: list[Play | Mark | None] = list(s.trick_marks)
        self.started: bool = s.started
        self.pending_returns: list[tuple[int, int, int]] = list(s.pending_returns)
        self.buy_pending: bool = s.buy_pending
        self.result: HandResult | None = s.result
        self.step: int = s.step
        self.extras: HandExtras = s.extras
        self.history: tuple[PublicMove, ...] = s.history
        self.leader: int = s.leader
        self.events: list[Event] = []

    def freeze(self, count_step: bool = True) -> HandState:
        # Spelled out field by field: this runs once per action and is the engine's hot spot.
        return HandState(
            rules=self.rules,
            phase=self.phase,
            hands=tuple(self.hands),
            status=tuple(self.status),
            leader=self.leader,
            to_act=self.to_act,
            top_seat=self.top_seat,
            top_play=self.top_play,
            top_gouji=self.top_gouji,
            top_gousi=self.top_gousi,
            lead_pending=self.lead_pending,
            locked=frozenset(self.locked),
            passed_since_top=frozenset(self.passed_since_top),
            last_passer=self.last_passer,
            window=frozenset(self.window),
            rang_by=self.rang_by,
            rang_deciding=self.rang_deciding,
            burner=self.burner,
            burned=self.burned,
            out_order=self.out_order,
            bottom_order=self.bottom_order,
            revolters=self.revolters,
            burn_failed=self.burn_failed,
            gousi_left=self.gousi_left,
            opened=self.opened,
            judged=self.judged,
            point_failed=self.point_failed,
            fours_pending=self.fours_pending,
            fours_free=self.fours_free,
            declarations=self.declarations,
            caught=self.caught,
            burn_wins=self.burn_wins,
            discarded=self.discarded,
            played=self.played,
            trick_marks=tuple(self.trick_marks),
            started=self.started,
            pending_returns=tuple(self.pending_returns),
            buy_pending=self.buy_pending,
            result=self.result,
            step=self.step + 1 if count_step else self.step,
            extras=self.extras,
            history=self.history,
        )

    # -- the rules v2 extras, read and replaced as one record ------------------------------
    @property
    def hui(self) -> HuiRanks | None:
        return self.extras.hui

    @hui.setter
    def hui(self, value: HuiRanks | None) -> None:
        self.extras = replace(self.extras, hui=value)

    @property
    def set_aside(self) -> Counts:
        return self.extras.set_aside

    @set_aside.setter
    def set_aside(self, value: Counts) -> None:
        self.extras = replace(self.extras, set_aside=value)

    @property
    def streaks(self) -> tuple[int, ...]:
        return self.extras.streaks

    @property
    def chong(self) -> Chongdian | None:
        return self.extras.chong

    @chong.setter
    def chong(self, value: Chongdian | None) -> None:
        self.extras = replace(self.extras, chong=value)

    @property
    def counter_burn(self) -> bool:
        return self.extras.counter_burn

    @counter_burn.setter
    def counter_burn(self, value: bool) -> None:
        if value != self.extras.counter_burn:
            self.extras = replace(self.extras, counter_burn=value)

    # -- small helpers -----------------------------------------------------------------
    def set_gousi(self, seat: int, n: int) -> None:
        left = list(self.gousi_left)
        left[seat - 1] = n
        self.gousi_left = tuple(left)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def active(self, s: int) -> bool:
        return self.status[s - 1] is SeatStatus.PLAYING

    @property
    def free_play(self) -> bool:
        return len(self.out_order) >= 2

    def headless(self, s: int) -> bool:
        o = opp(s)
        if self.status[o - 1] is SeatStatus.PLAYING or self.gousi_left[s - 1] > 0:
            return False
        return not (o in self.burn_failed and len(self.out_order) < 2)

    def restricted(self) -> bool:
        return (
            self.top_gouji
            and not self.free_play
            and self.top_seat is not None
            and not self.headless(self.top_seat)
        )

    def view(self) -> HandState:
        """A frozen snapshot for the query helpers (constraints, legal leads)."""
        return self.freeze(count_step=False)

    def constraints(self, s: int) -> Constraints:
        h = self.hands[s - 1]
        fours: FoursMode = "free"
        if self.rules.dian_si and h[I_FOUR] and s not in self.fours_free:
            fours = "must" if s in self.fours_pending else "forbid"
        return Constraints(fours=fours, need_joker=self.burner == s)

    def has_lead(self, s: int) -> bool:
        h = self.hands[s - 1]
        cons = self.constraints(s)
        if not cons.need_joker and cons.fours != "must":
            for i in range(C.NUM_RANKS):
                if not h[i]:
                    continue
                if i == I_THREE and self.rules.bie_san and h[i] != sum(h):
                    continue
                if i == I_FOUR and cons.fours == "forbid":
                    continue
                return True
            return False
        return bool(gen_leads(h, self.rules, cons))

    def next_active(self, s: int) -> int | None:
        for _ in range(6):
            s = down(s)
            if self.active(s):
                return s
        return None

    # -- changes every part makes -------------------------------------------------------
    def win_burn(self, b: int) -> None:
        """The burn succeeded: 烧贡 from the burned seat (2 cards for a 反烧 when
        ``counter_burn_double``, seed 002 "反烧烧贡翻倍")."""
        cards = 2 if self.counter_burn and self.rules.counter_burn_double else 1
        if self.burned is not None:
            self.burn_wins = (*self.burn_wins, (self.burned, b, cards))
        self.emit(BurnSucceeded(seat=b, burned=self.burned, counter=self.counter_burn))
        self.burner = None
        self.burned = None
        self.counter_burn = False

    def mark_opened(self, s: int) -> None:
        """The seat counts as opened now (a rule, not a living play, opened it)."""
        if s in self.opened or s in self.judged or not self.rules.dadian:
            return
        self.opened = self.opened | {s}
        self.emit(Opened(seat=s))
        if self.rules.dian_si and self.hands[s - 1][I_FOUR] and s not in self.fours_free:
            self.fours_pending = self.fours_pending | {s}
