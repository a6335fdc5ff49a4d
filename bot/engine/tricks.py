"""A trick's flow: who leads (and a burner who cannot: 烧糊了), whose turn it is next and
the end of a trick."""

from __future__ import annotations

from .cards import I_FOUR
from .ending import HandEnd
from .events import (
    BurnFailed,
    Lead,
    Opened,
    PointFailed,
    TrickWon,
)
from .plays import opens_point
from .seats import down, opp
from .state import SEATS, Phase, SeatStatus


class TrickFlow(HandEnd):
    """Leading, turn order and the end of a trick."""

    def start_lead(self, s: int | None) -> None:
        """Give the lead to ``s`` or, if it cannot lead, downstream (decision 3)."""
        tried = 0
        forced = False
        while s is not None and self.phase is Phase.PLAY:
            if not self.active(s):
                s = self.next_active(s)
                continue
            if self.has_lead(s):
                self.to_act = s
                if not self.quiet:
                    self.emit(Lead(seat=s))
                return
            if s == self.burner:
                s = self.fail_burn(s)
                continue
            tried += 1
            if tried > 6:
                if forced:
                    break
                # Every live seat holds only unopened 4s (and 3s): judge them all now.
                self.judge([x for x in SEATS if x not in self.judged])
                forced = True
                tried = 0
            s = self.next_active(s)
        if self.phase is Phase.PLAY:
            self.to_act = None
            self.check_over(force=True)

    def fail_burn(self, b: int) -> int | None:
        """烧糊了: the burner cannot go on; it takes the lowest free place."""
        self.status[b - 1] = SeatStatus.DEAD
        self.bottom_order = (*self.bottom_order, b)
        self.burn_failed = self.burn_failed | {b}
        self.burner = None
        burned = self.burned
        self.burned = None
        self.counter_burn = False
        self.emit(BurnFailed(seat=b, burned=burned))
        if self.rules.dadian and self.rules.failed_burn_opens_opposite:
            self.failed_burn_points(b)
        self.check_over()
        if burned is not None and self.active(burned):
            return burned
        return self.next_active(burned if burned is not None else b)

    def failed_burn_points(self, b: int) -> None:
        """Seed 003 "假烧牌者本把即为大落，不开点而对方开点": the failed burner has not
        opened (even if it had) and its opposite counts as opened at once."""
        if b in self.opened:
            self.opened = self.opened - {b}
            if b in self.judged and b not in self.point_failed:
                self.point_failed = (*self.point_failed, b)  # it was judged as opened
                self.emit(PointFailed(seat=b))
        self.mark_opened(opp(b))

    def leader_moved_from(self, s: int) -> None:
        self.start_lead(self.next_active(s))

    # -- turn order --------------------------------------------------------------------
    def may_answer(self, s: int) -> bool:
        top = self.top_seat
        assert top is not None
        if self.free_play:
            return True
        if self.top_gousi:
            return False
        is_opp = s == opp(top)
        if s in self.locked and not (is_opp and self.rules.opposite_final_say):
            return False
        if self.restricted():
            return is_opp or self.headless(s)
        return True

    def next_actor(self, after: int) -> int | None:
        top = self.top_seat
        s = down(after)
        while s != top:
            if (
                self.active(s)
                and s not in self.passed_since_top
                and s != self.rang_by
                and self.may_answer(s)
            ):
                return s
            s = down(s)
        return None

    def advance(self, after: int) -> None:
        nxt = self.next_actor(after)
        if nxt is not None:
            self.to_act = nxt
            return
        top = self.top_seat
        assert top is not None
        if self.rang_by is not None and not self.rang_deciding and self.active(self.rang_by):
            self.rang_deciding = True
            self.to_act = self.rang_by
            return
        o = opp(top)
        if (
            not self.free_play
            and self.rules.opposite_final_say
            and self.active(o)
            and self.last_passer != o
            and self.may_answer(o)
        ):
            # 对头 has the final say: the trick ends only with the opposite's own pass.
            self.to_act = o
            return
        if self.window:
            # Nobody may answer but a burner: the play lives once the next leader leads.
            # Who that is depends on the trick's end (开点, 4s, a failed burn, no legal
            # lead), so ask a copy that ends it now.
            probe = TrickFlow(self.view())
            probe.end_trick()
            if probe.phase is Phase.PLAY and probe.to_act is not None:
                self.lead_pending = True
                self.to_act = probe.to_act
                return
        self.end_trick()

    def end_trick(self) -> None:
        w, p = self.top_seat, self.top_play
        assert w is not None and p is not None
        r = self.rules
        if (
            r.dadian
            and not self.free_play
            and w not in self.opened
            and w not in self.judged
            and not (self.gousi_left[w - 1] and r.revolt_opposite_opens == "three_plays")
            and opens_point(p, r)
        ):
            self.opened = self.opened | {w}
            self.emit(Opened(seat=w))
            if r.dian_si and self.hands[w - 1][I_FOUR] and w not in self.fours_free:
                self.fours_pending = self.fours_pending | {w}
        if w == self.burner and r.burn_success == "first_trick":
            # 比赛: the burning play lived through its trick, so the burn has succeeded.
            self.win_burn(w)
        if not self.quiet:
            self.emit(TrickWon(seat=w, cards=p.notation(), cleared_by=opp(w)))
        self.top_seat = self.top_play = None
        self.top_gouji = self.top_gousi = self.lead_pending = False
        self.locked = set()
        self.passed_since_top = set()
        self.last_passer = None
        self.window = set()
        self.rang_by = None
        self.rang_deciding = False
        self.trick_marks = [None] * 6
        self.to_act = None
        if self.phase is Phase.PLAY:
            self.start_lead(w if self.active(w) else self.next_active(w))
