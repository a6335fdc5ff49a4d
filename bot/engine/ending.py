"""The end of a hand, step by step: a seat going out, the 开点 deadline (judging), 四户乱缠,
the hand's result and the tributes the next hand owes."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import I_FOUR
from .events import (
    BurnReleased,
    FoursDiscarded,
    FoursFreed,
    FreePlay,
    HandOver,
    PointFailed,
    WentOut,
)
from .mutable import MutableHand
from .seats import opp, same_team
from .state import (
    NO_STREAKS,
    SEATS,
    STREAK_EXEMPT,
    Bonus,
    HandResult,
    Phase,
    PointKind,
    SeatStatus,
    Team,
    Tribute,
    team_key,
)

TRIBUTE_GROUP = {"mingdian": "point", "yudian": "point", "sweep": "luo"}
STAKES: dict[PointKind, int] = {"mingdian": 2, "yudian": 4}


class HandEnd(MutableHand):
    """Going out, judging and finishing a hand."""

    def go_out(self, s: int) -> None:
        self.status[s - 1] = SeatStatus.OUT
        self.out_order = (*self.out_order, s)
        self.emit(WentOut(seat=s, order=len(self.out_order)))
        if self.burner == s:
            self.win_burn(s)
        if len(self.out_order) == 1:
            self.judge([s, opp(s)])
        elif len(self.out_order) == 2:
            self.judge([x for x in SEATS if x not in self.judged])
            self.start_free_play()
        self.check_over()

    def start_free_play(self) -> None:
        """四户乱缠: from now on no 够级 restriction, no burning, no 让, passes do not lock."""
        self.locked = set()
        self.window = set()
        self.rang_by = None
        self.rang_deciding = False
        self.top_gousi = False
        self.gousi_left = (0,) * 6
        if self.burner is not None:
            self.emit(BurnReleased(seat=self.burner, by=None))
            self.burner = None
            self.burned = None
        self.emit(FreePlay())

    def judge(self, seats: Iterable[int], discard: bool = True) -> None:
        """The 开点 deadline has come for these seats (《大纲》 第二十四条)."""
        r = self.rules
        if not r.dadian:
            self.judged = self.judged | set(seats)
            return
        for s in seats:
            if s in self.judged:
                continue
            self.judged = self.judged | {s}
            if s in self.opened:
                continue
            if not self.exempt(s):
                self.point_failed = (*self.point_failed, s)
                self.emit(PointFailed(seat=s))
            h = self.hands[s - 1]
            if not (discard and r.dian_si and h[I_FOUR] and self.active(s)):
                continue
            if r.unopened_fours == "play":
                self.fours_free = self.fours_free | {s}
                self.emit(FoursFreed(seat=s))
                continue
            n = h[I_FOUR]
            gone = [0] * C.NUM_RANKS
            gone[I_FOUR] = n
            self.hands[s - 1] = C.sub(h, gone)
            self.discarded = C.add(self.discarded, gone)
            self.emit(FoursDiscarded(seat=s, count=n))
            if not sum(self.hands[s - 1]):
                self.go_out(s)

    def exempt(self, s: int) -> bool:
        """毕业 (switch ``point_streak``): the 4th hand of a streak needs no opening."""
        return self.rules.point_streak and self.streaks[s - 1] >= STREAK_EXEMPT

    def next_streaks(self) -> tuple[int, ...]:
        """The 点 streaks after this hand: +1 for a seat that failed to open, else 0 (and 0
        after an exempt hand, which ends the cycle)."""
        if not (self.rules.point_streak and self.rules.dadian):
            return NO_STREAKS
        return tuple(
            self.streaks[s - 1] + 1 if s in self.point_failed and not self.exempt(s) else 0
            for s in SEATS
        )

    def check_over(self, force: bool = False) -> None:
        if self.phase is not Phase.PLAY:
            return
        live = [s for s in SEATS if self.active(s)]
        sweep = self.sweep_team()
        if sweep is None and len({s % 2 for s in live}) > 1 and not force:
            return
        self.finish(sweep)

    def ranking(self) -> list[int]:
        live = [s for s in SEATS if self.active(s)]
        ref = self.out_order[-1] if self.out_order else self.leader

        def dist(s: int) -> int:
            return (s - ref) % 6

        live.sort(key=lambda s: (sum(self.hands[s - 1]), dist(s)))
        order = [*self.out_order, *live, *self.bottom_order[::-1]]
        for rv in self.revolters:
            if rv in order:
                continue  # 冲点 made it 大落 (it is in bottom_order)
            mates = [x for x in SEATS if same_team(x, rv) and x != rv]
            at = 2 if sorted(self.out_order[:2]) == sorted(mates) else 3
            if self.chong is not None and self.chong.seat == rv:
                at = 3  # 冲点 fixes 四科 (RULES §10)
            order.insert(min(at, len(order)), rv)
        return order

    def sweep_team(self) -> Team | None:
        head = list(self.out_order)
        for rv in self.revolters:
            if self.chong is not None and self.chong.seat == rv:
                continue  # a 冲点 revolter's place is fixed: 四科 or 大落
            mates = [x for x in SEATS if same_team(x, rv) and x != rv]
            if sorted(head[:2]) == sorted(mates):
                head.insert(2, rv)
        if len(head) >= 3 and same_team(head[0], head[1]) and same_team(head[0], head[2]):
            return team_key(head[0])
        return None

    def finish(self, sweep: Team | None) -> None:
        r = self.rules
        self.phase = Phase.OVER
        self.judge([x for x in SEATS if x not in self.judged], discard=False)
        places = self.ranking()
        seat_points = [0] * 6
        for i, s in enumerate(places):
            seat_points[s - 1] = r.score_table[i]
        teams = {"135": 0, "246": 0}
        for s in SEATS:
            teams[team_key(s)] += seat_points[s - 1]
        if sweep is not None:
            teams = {k: v * r.sweep_multiplier for k, v in teams.items()}
        bonuses = tuple(self.bonus_events()) if r.scoring == "competition" else ()
        for b in bonuses:
            teams[team_key(b.earner)] += 1
            teams[team_key(b.payer)] -= 1
        if r.positive_only and teams["135"] != teams["246"]:
            low = "135" if teams["135"] < teams["246"] else "246"
            teams[low] = 0
        tributes = self.owed_tributes(places, sweep) if r.tribute else ()
        self.result = HandResult(
            places=tuple(places),
            team_scores=(teams["135"], teams["246"]),
            seat_points=tuple(seat_points),
            sweep_team=sweep,
            tributes=tributes,
            streaks=self.next_streaks(),
            bonuses=bonuses,
        )
        self.phase = Phase.OVER
        self.to_act = None
        self.window = set()
        self.lead_pending = False
        self.emit(
            HandOver(places=tuple(places), team_scores=(teams["135"], teams["246"]), sweep=sweep)
        )

    def bonus_events(self) -> list[Bonus]:
        """The ±1s of 点, 闷 and 烧 between opponents (competition scoring), itemized."""
        out = [Bonus("point", opp(f), f) for f in self.point_failed]
        out += [Bonus("men", by, c) for c, by in self.caught if not same_team(c, by)]
        out += [Bonus("burn", w, b) for b, w, _ in self.burn_wins if not same_team(w, b)]
        return out

    def point_tributes(self) -> list[Tribute]:
        """点贡 and the 明点/预点 stakes (RULES §10)."""
        r = self.rules
        streak = r.point_streak
        # 点贡: 1 card, or with point_streak 1, 2, 3 over a streak of failed hands.
        points = {f: self.streaks[f - 1] + 1 if streak else 1 for f in self.point_failed}
        stakes: list[Tribute] = []
        for d, kind in self.declarations:
            target = opp(d)
            right = target not in self.opened
            if r.point_bet_success == "both":
                right = right and d in self.opened
            stake = STAKES[kind]
            if right:
                # The stake replaces the opposite's own 点贡 (seed 002 进贡(十)).
                points.pop(target, None)
                stakes.append(Tribute(target, d, stake, kind))
            else:
                stake *= 2 if r.point_bet_fail_double else 1
                stakes.append(Tribute(d, target, stake, kind))
        return [Tribute(f, opp(f), n, "point") for f, n in points.items()] + stakes

    def owed_tributes(self, places: list[int], sweep: Team | None) -> tuple[Tribute, ...]:
        r = self.rules
        if sweep is not None and r.sweep_tribute == "redeal":
            return ()
        out: list[Tribute] = []
        out += [Tribute(c, by, 1, "men") for c, by in self.caught]
        out += [Tribute(burned, burner, n, "burn") for burned, burner, n in self.burn_wins]
        if r.dadian:
            out += self.point_tributes()
        if sweep is not None:
            out += [Tribute(s, opp(s), 1, "sweep") for s in SEATS if team_key(s) != sweep]
        elif len(places) == 6:
            out.append(Tribute(places[5], places[0], 2, "luo"))
            out.append(Tribute(places[4], places[1], 1, "luo"))
        order = {k: i for i, k in enumerate(r.tribute_order)}
        kept = [t for t in out if not same_team(t.giver, t.receiver)]
        kept.sort(key=lambda t: order[TRIBUTE_GROUP.get(t.kind, t.kind)])
        return tuple(kept)
