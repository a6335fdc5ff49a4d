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
from .seats import down, opp
from .state import Chongdian, HandState, Mark, SeatStatus

_new = tuple.__new__
# The order ``MutableHand`` unpacks and rebuilds a HandState in: a change to HandState's
# fields must change both, and this says so at import rather than as a scrambled state.
# fmt: off
_FIELDS = (
    "rules", "phase", "hands", "status", "leader", "to_act", "top_seat", "top_play",
    "top_gouji", "top_gousi", "lead_pending", "locked", "passed_since_top", "last_passer",
    "window", "rang_by", "rang_deciding", "burner", "burned", "out_order", "bottom_order",
    "revolters", "burn_failed", "gousi_left", "opened", "judged", "point_failed",
    "fours_pending", "fours_free", "declarations", "caught", "burn_wins", "discarded",
    "played", "trick_marks", "started", "pending_returns", "buy_pending", "result", "step",
    "extras", "history",
)
# fmt: on
if HandState._fields != _FIELDS:
    raise RuntimeError("MutableHand's field order must be HandState's")


class MutableHand:
    """A mutable copy of a HandState while one action is applied."""

    def __init__(self, s: HandState, quiet: bool = False) -> None:
        # Unpacked in HandState's field order (``_FIELDS`` checks it at import): this runs
        # once per action, and one unpacking is far cheaper than 42 attribute reads. Only
        # the fields every action changes are copied into lists and sets; the ones that
        # change a few times a hand stay immutable and are replaced on change (copying
        # them on every action was the engine's biggest cost).
        # fmt: off
        (
            self.rules, self.phase, hands, status, self.leader, self.to_act, self.top_seat,
            self.top_play, self.top_gouji, self.top_gousi, self.lead_pending, locked,
            passed_since_top, self.last_passer, window, self.rang_by, self.rang_deciding,
            self.burner, self.burned, self.out_order, self.bottom_order, self.revolters,
            self.burn_failed, self.gousi_left, self.opened, self.judged, self.point_failed,
            self.fours_pending, self.fours_free, self.declarations, self.caught,
            self.burn_wins, self.discarded, self.played, trick_marks, self.started,
            pending_returns, self.buy_pending, self.result, self.step, self.extras,
            self.history,
        ) = s
        # fmt: on
        self.hands: list[Counts] = list(hands)
        self.status: list[SeatStatus] = list(status)
        self.locked: set[int] = set(locked)
        self.passed_since_top: set[int] = set(passed_since_top)
        self.window: set[int] = set(window)
        self.trick_marks: list[Play | Mark | None] = list(trick_marks)
        self.pending_returns: list[tuple[int, int, int]] = list(pending_returns)
        self.events: list[Event] = []
        # True: nobody reads this transition's events (a playout), so the ones made on
        # every move (a play, a pass, a lead, a trick won) are not built at all.
        self.quiet = quiet

    def freeze(self, count_step: bool = True) -> HandState:
        # Built positionally, in HandState's field order: this runs once per action and
        # is the engine's hot spot (a keyword NamedTuple call costs several times more).
        # fmt: off
        return _new(HandState, (
            self.rules, self.phase, tuple(self.hands), tuple(self.status), self.leader,
            self.to_act, self.top_seat, self.top_play, self.top_gouji, self.top_gousi,
            self.lead_pending, frozenset(self.locked), frozenset(self.passed_since_top),
            self.last_passer, frozenset(self.window), self.rang_by, self.rang_deciding,
            self.burner, self.burned, self.out_order, self.bottom_order, self.revolters,
            self.burn_failed, self.gousi_left, self.opened, self.judged, self.point_failed,
            self.fours_pending, self.fours_free, self.declarations, self.caught,
            self.burn_wins, self.discarded, self.played, tuple(self.trick_marks),
            self.started, tuple(self.pending_returns), self.buy_pending, self.result,
            self.step + 1 if count_step else self.step, self.extras, self.history,
        ))
        # fmt: on

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
