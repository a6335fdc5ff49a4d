"""How one action changes a hand: a mutable copy of the frozen state, changed step by
step and frozen again, so a refused action never leaves a half-changed state behind."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from . import cards as C
from .actions import HuiRanks
from .cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO, Counts
from .errors import ErrorCode, IllegalAction
from .events import (
    Bought,
    Burned,
    BurnFailed,
    BurnReleased,
    BurnSucceeded,
    Caught,
    Declared,
    Event,
    FoursDiscarded,
    FoursFreed,
    FreePlay,
    HandOver,
    HuiCalled,
    Lead,
    Opened,
    Passed,
    Played,
    PlayStarts,
    PointFailed,
    Ranged,
    Revolted,
    TributeCards,
    TributeGiven,
    TrickWon,
    Voided,
    WentOut,
)
from .movegen import Constraints, FoursMode, gen_leads
from .plays import Play, beats, is_gouji, opens_point
from .queries import (
    burn_refusal,
    declare_error,
    hui_error,
    rang_refusal,
    revolt_blocker,
    revolt_error,
    turn_error,
)
from .rules import Rules
from .state import (
    NO_STREAKS,
    SEATS,
    STREAK_EXEMPT,
    Bonus,
    Chongdian,
    HandExtras,
    HandResult,
    HandState,
    Mark,
    Phase,
    PointKind,
    PublicMove,
    SeatStatus,
    Team,
    Tribute,
    down,
    opp,
    same_team,
    team_key,
    up,
)

_TRIBUTE_GROUP = {"mingdian": "point", "yudian": "point", "sweep": "luo"}
STAKES: dict[PointKind, int] = {"mingdian": 2, "yudian": 4}
# 《大纲》 第二十一条(四): 落贡 is returned; 第二十四条: "点贡只进贡，不计分，不回牌".
_RETURNED_UNDER_LUO = frozenset({"luo", "sweep"})


class Transition:
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

    # -- setup -------------------------------------------------------------------------
    def give_tributes(self, owed: Sequence[Tribute]) -> None:
        order = {k: i for i, k in enumerate(self.rules.tribute_order)}
        ranked = sorted(
            enumerate(owed),
            key=lambda it: (order[_TRIBUTE_GROUP.get(it[1].kind, it[1].kind)], it[0]),
        )
        received = [[0] * C.NUM_RANKS for _ in SEATS]
        for _, t in ranked:
            if same_team(t.giver, t.receiver) or t.giver == t.receiver:
                continue
            h = list(self.hands[t.giver - 1])
            give = [0] * C.NUM_RANKS
            left = t.count
            for i in (I_BIG, I_SMALL, I_TWO):
                n = min(left, h[i] - received[t.giver - 1][i])
                give[i] += n
                h[i] -= n
                left -= n
            if left and self.rules.tribute_without_legal == "highest_card":
                for i in range(C.NUM_RANKS - 1, -1, -1):
                    n = min(left, h[i] - received[t.giver - 1][i])
                    give[i] += n
                    h[i] -= n
                    left -= n
            n_given = sum(give)
            if not n_given:
                continue
            self.hands[t.giver - 1] = tuple(h)
            self.hands[t.receiver - 1] = C.add(self.hands[t.receiver - 1], give)
            for i in range(C.NUM_RANKS):
                received[t.receiver - 1][i] += give[i]
            self.emit(
                TributeGiven(seat=t.giver, target=t.receiver, count=n_given, tribute_kind=t.kind)
            )
            self.emit(
                TributeCards(
                    seat=t.giver,
                    visible_to=(t.giver, t.receiver),
                    target=t.receiver,
                    cards=C.fmt(give),
                )
            )
            if self.returned(t.kind):
                self.owe_return(t.receiver, t.giver, n_given)

    def returned(self, kind: str) -> bool:
        """Whether tribute of this kind is returned (switch ``tribute_return``)."""
        mode = self.rules.tribute_return
        return mode == "all" or (mode == "luo" and kind in _RETURNED_UNDER_LUO)

    def owe_return(self, receiver: int, giver: int, n: int) -> None:
        # One return per (receiver, giver) pair, whatever kinds of tribute made it up.
        for i, (r, g, c) in enumerate(self.pending_returns):
            if (r, g) == (receiver, giver):
                self.pending_returns[i] = (r, g, c + n)
                return
        self.pending_returns.append((receiver, giver, n))

    def begin_play(self) -> None:
        self.phase = Phase.PLAY
        self.buy_pending = self.buy_pending and bool(
            self.rules.bie_san or (self.rules.dian_si and self.rules.remove_fours)
        )
        view = self.view()
        if self.buy_pending and all(revolt_error(view, s) for s in SEATS):
            # Nobody may revolt, so nothing can change who buys: buy now, before anyone
            # looks at a hand that is about to change.
            self.run_buy()
        self.emit(PlayStarts(seat=self.leader))
        self.start_lead(self.leader)

    def run_buy(self) -> None:
        """买3/买4, after the 革命 declarations (RULES §10: a revolter takes no part)."""
        self.buy_pending = False
        if self.rules.bie_san:
            self.buy_rank(I_THREE)
        if self.rules.dian_si and self.rules.remove_fours:
            self.buy_rank(I_FOUR)
        s = self.to_act
        if s is not None and self.phase is Phase.PLAY and not self.has_lead(s):
            self.start_lead(s)

    def buy_rank(self, idx: int) -> None:
        """买3 / 买4: a seat without the rank buys one (RULES §11)."""
        for k in range(6):
            b = (self.leader - 1 + k) % 6 + 1
            if self.hands[b - 1][idx] or not self.active(b):
                continue
            o = opp(b)
            sellers = [x for x in (o, down(b), up(b)) if self.active(x)]
            seller = next((s for s in sellers if self.hands[s - 1][idx] >= 2), None)
            free = False
            if seller is None:
                mates = [x for x in (down(down(b)), up(up(b))) if self.active(x)]
                seller = next((s for s in mates if self.hands[s - 1][idx] >= 2), None)
                free = True
            if seller is None:
                continue
            bh = list(self.hands[b - 1])
            sh = list(self.hands[seller - 1])
            sh[idx] -= 1
            bh[idx] += 1
            paid = None
            if not free:
                paid = next((i for i in (I_TWO, I_SMALL, I_BIG) if bh[i]), None)
                if paid is None:
                    paid = max((i for i in range(C.NUM_RANKS) if bh[i] and i != idx), default=None)
                if paid is not None:
                    bh[paid] -= 1
                    sh[paid] += 1
            self.hands[b - 1] = tuple(bh)
            self.hands[seller - 1] = tuple(sh)
            self.emit(
                Bought(
                    seat=b,
                    target=seller,
                    rank=C.NOTATION[idx],
                    paid=C.NOTATION[paid] if paid is not None else None,
                )
            )

    # -- leading -----------------------------------------------------------------------
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

    # -- actions -----------------------------------------------------------------------
    def turn_check(self, s: int) -> None:
        if self.to_act != s:
            raise IllegalAction(turn_error(self.view(), s))

    def lead_checks(self, s: int, p: Play, lead: bool) -> None:
        h = self.hands[s - 1]
        total = sum(h)
        r = self.rules
        if p.base == 3 and r.bie_san and p.n != total:
            raise IllegalAction(ErrorCode.THREE_MUST_BE_LAST)
        if r.dian_si and s not in self.fours_free and h[I_FOUR]:
            if p.base == 4:
                if s not in self.fours_pending or not lead:
                    raise IllegalAction(ErrorCode.FOURS_AFTER_KAIDIAN)
                if p.n != h[I_FOUR]:
                    raise IllegalAction(ErrorCode.MUST_LEAD_FOURS)
            elif lead and s in self.fours_pending:
                raise IllegalAction(ErrorCode.MUST_LEAD_FOURS)
        forced_fours = p.base == 4 and s in self.fours_pending
        if s == self.burner and not (p.small or p.big) and p.size != total and not forced_fours:
            # A lead of 4s that 点四 forces cannot make the burn fail (RULES §8).
            raise IllegalAction(ErrorCode.NEEDS_JOKER_WHILE_BURNING)

    def strength_check(self, p: Play) -> None:
        top = self.top_play
        assert top is not None
        if beats(p, top, self.rules):
            return
        r = self.rules
        big_top = top.big and not (r.mixed_jokers == "small" and top.small)
        kills = r.kill_two_big or r.kill_three_small or r.kill_three_twos
        if p.size != top.size and not (big_top and kills):
            # Only the kills answer a big-joker play at another size.
            raise IllegalAction(ErrorCode.SIZE_MISMATCH, size=top.size)
        raise IllegalAction(ErrorCode.TOO_WEAK)

    def do_play(self, s: int, p: Play) -> None:
        self.turn_check(s)
        if self.lead_pending:
            # The 够死级 play lives: its trick ends before this lead (which may now have
            # to be the 4s of a seat that just opened).
            self.end_trick()
            if self.phase is not Phase.PLAY or self.to_act != s:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
        lead = self.top_play is None
        self.lead_checks(s, p, lead)
        if not lead:
            self.strength_check(p)
        self.place(s, p, burn=False)

    def do_burn(self, s: int, p: Play) -> None:
        refused = burn_refusal(self.view(), s)
        if refused is not None:
            code, reason = refused
            raise IllegalAction(code, **({"reason": reason} if reason else {}))
        self.lead_checks(s, p, lead=False)
        self.strength_check(p)
        self.place(s, p, burn=True)

    def place(self, s: int, p: Play, burn: bool) -> None:
        """Put a play on the table (answer, lead or burn) and move the turn on."""
        prev_seat = self.top_seat
        was_to_act = self.to_act == s
        self.take_cards(s, p)
        released = prev_seat is not None and prev_seat == self.burner
        if released:
            self.burner = None
            self.burned = None
            self.counter_burn = False
        gousi = self.is_gousi_answer(s, p, prev_seat, burn)
        opened_by_rule = False
        if not burn and self.gousi_left[s - 1] > 0 and not self.free_play:
            self.set_gousi(s, self.gousi_left[s - 1] - 1)
            gousi = True
            if not self.gousi_left[s - 1] and self.rules.revolt_opposite_opens == "three_plays":
                # 《大纲》 第二十四条: "其对头也须在二科产生前够死级三把方算开点".
                opened_by_rule = True
        if was_to_act or burn:
            self.window = set()
        self.settle_rang(s)
        self.history = (*self.history, PublicMove(s, p, self.top_play, prev_seat))
        self.set_top(s, p, gousi)
        record = Burned if burn else Played
        self.emit(record(seat=s, cards=p.notation(), gouji=self.top_gouji, target=prev_seat))
        if opened_by_rule:
            self.mark_opened(s)
        self.after_place(s, prev_seat, burn, released)

    def take_cards(self, s: int, p: Play) -> None:
        """Move the play's cards from the seat's hand to the cards played."""
        pc = p.counts()
        self.hands[s - 1] = C.sub(self.hands[s - 1], pc)
        self.played = C.add(self.played, pc)
        self.started = True
        if p.base == 4 and s in self.fours_pending:
            self.fours_pending = self.fours_pending - {s}

    def is_gousi_answer(self, s: int, p: Play, prev_seat: int | None, burn: bool) -> bool:
        """够死级: the opposite's 够级 answer to the 底牌 of a seat that just went out,
        whether or not the 底牌 was a 够级牌 (《大纲》 第十六条)."""
        return (
            prev_seat is not None
            and not burn
            and self.status[prev_seat - 1] is SeatStatus.OUT
            and s == opp(prev_seat)
            and is_gouji(p, self.rules)
            and not self.free_play
        )

    def settle_rang(self, s: int) -> None:
        """A play after a 让 ends it; the seat that let another play is locked out."""
        if self.rang_by is not None:
            if s != self.rang_by:
                self.locked.add(self.rang_by)
            self.rang_by = None
            self.rang_deciding = False

    def set_top(self, s: int, p: Play, gousi: bool) -> None:
        """``p`` by ``s`` is now the play to beat."""
        self.top_seat, self.top_play = s, p
        self.top_gouji = is_gouji(p, self.rules)
        self.top_gousi = gousi
        self.lead_pending = False
        self.passed_since_top = set()
        self.last_passer = None
        self.trick_marks[s - 1] = p

    def after_place(self, s: int, prev_seat: int | None, burn: bool, released: bool) -> None:
        """What a play causes, announced after it (issue 9 item 10), then the next turn."""
        if released:
            self.emit(BurnReleased(seat=prev_seat, by=s))
        if prev_seat is not None:
            self.check_caught(prev_seat, s)
            if self.phase is not Phase.PLAY:
                return  # a 被闷 seat ranked 大落 ended the hand
        if burn:
            self.burner = s
            self.burned = prev_seat
            self.counter_burn = released  # a 反烧: the play burned was itself a burn
        if not sum(self.hands[s - 1]):
            self.go_out(s)
            if self.phase is not Phase.PLAY:
                return
        if self.top_gouji and not self.free_play:
            self.window = {
                x for x in SEATS if self.active(x) and x not in (s, opp(s)) and x not in self.locked
            }
        self.advance(s)

    def check_caught(self, prev_seat: int, by: int) -> None:
        """被闷: the seat whose last non-3 play was just beaten (RULES §11)."""
        if not self.rules.bie_san or not self.active(prev_seat):
            return
        h = self.hands[prev_seat - 1]
        if not h[I_THREE] or h[I_THREE] != sum(h):
            return
        if any(c == prev_seat for c, _ in self.caught):
            return
        self.caught = (*self.caught, (prev_seat, by))
        self.emit(Caught(seat=prev_seat, by=by))
        if self.rules.men_is_last:
            self.status[prev_seat - 1] = SeatStatus.DEAD
            self.bottom_order = (*self.bottom_order, prev_seat)
            self.check_over()

    def do_pass(self, s: int) -> None:
        self.turn_check(s)
        if self.top_play is None or self.lead_pending:
            raise IllegalAction(ErrorCode.LEAD_CANNOT_PASS)
        top = self.top_seat
        if (
            self.window
            and top is not None
            and s != opp(top)
            and self.active(opp(top))
            and self.restricted()
        ):
            # A 无头 seat answering in its normal place before the opposite: only the
            # opposite's action closes the burn window (RULES §8); the passer loses its chance.
            self.window.discard(s)
        else:
            self.window = set()
        self.passed_since_top.add(s)
        self.last_passer = s
        if not self.free_play:
            self.locked.add(s)
        if self.rang_by == s:
            self.rang_by = None
            self.rang_deciding = False
        self.trick_marks[s - 1] = Mark.PASS
        self.history = (*self.history, PublicMove(s, Mark.PASS, self.top_play, top))
        self.emit(Passed(seat=s))
        self.advance(s)

    def do_rang(self, s: int) -> None:
        refused = rang_refusal(self.view(), s)
        if refused is not None:
            code, reason = refused
            raise IllegalAction(code, **({"reason": reason} if reason else {}))
        self.window = set()
        self.rang_by = s
        self.trick_marks[s - 1] = Mark.RANG
        self.history = (*self.history, PublicMove(s, Mark.RANG, self.top_play, self.top_seat))
        self.emit(Ranged(seat=s))
        self.advance(s)

    def do_revolt(self, s: int) -> None:
        err = revolt_error(self.view(), s)
        if err is not None:
            # Name the card that rules it out, when one does (the refusal says why).
            card = revolt_blocker(self.view(), s)
            raise IllegalAction(err, **({"card": card} if card else {}))
        self.status[s - 1] = SeatStatus.REVOLTED
        self.revolters = (*self.revolters, s)
        self.emit(Revolted(seat=s))
        if len(self.revolters) >= 2:
            self.phase = Phase.VOIDED
            self.to_act = None
            self.result = HandResult(
                (), (0, 0), (0,) * 6, None, (), voided=True, streaks=self.streaks
            )
            self.emit(Voided())
            return
        o = opp(s)
        if self.active(o):
            self.set_gousi(o, 3)
            if self.rules.revolt_opposite_opens == "auto":
                self.mark_opened(o)  # 同城游 rooms: "革命者不开点，对家开点"
        if self.to_act == s:
            self.leader_moved_from(s)

    def leader_moved_from(self, s: int) -> None:
        self.start_lead(self.next_active(s))

    def do_hui(self, s: int, ranks: HuiRanks | None) -> None:
        """烩牌: the ranks leave every hand for the hand (《大纲》 第二十五条 "会3")."""
        err = hui_error(self.view(), s, ranks)
        if err is not None or ranks is None:
            raise IllegalAction(err or ErrorCode.HUI_NOT_ALLOWED)
        idx = [i for i, ch in ((I_THREE, "3"), (I_FOUR, "4")) if ch in ranks.value]
        total = 0
        for x in SEATS:
            h = self.hands[x - 1]
            gone = tuple(h[i] if i in idx else 0 for i in range(C.NUM_RANKS))
            n = sum(gone)
            if n:
                self.hands[x - 1] = C.sub(h, gone)
                self.set_aside = C.add(self.set_aside, gone)
                total += n
        self.hui = ranks
        self.emit(HuiCalled(seat=s, ranks=ranks, count=total))
        for x in SEATS:
            if self.active(x) and not sum(self.hands[x - 1]) and self.phase is Phase.PLAY:
                self.go_out(x)  # (only a scenario's short hands can empty this way)
        if self.phase is Phase.PLAY and (self.to_act is None or not self.has_lead(self.to_act)):
            self.start_lead(self.to_act if self.to_act is not None else s)

    def do_declare(self, s: int, pre: bool) -> None:
        err = declare_error(self.view(), s)
        if err is not None:
            raise IllegalAction(err)
        kind: PointKind = "yudian" if pre else "mingdian"
        self.declarations = (*self.declarations, (s, kind))
        self.emit(Declared(seat=s, target=opp(s), point_kind=kind))

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
            probe = Transition(self.view())
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

    # -- going out, deadlines, the end -------------------------------------------------
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

    def mark_opened(self, s: int) -> None:
        """The seat counts as opened now (a rule, not a living play, opened it)."""
        if s in self.opened or s in self.judged or not self.rules.dadian:
            return
        self.opened = self.opened | {s}
        self.emit(Opened(seat=s))
        if self.rules.dian_si and self.hands[s - 1][I_FOUR] and s not in self.fours_free:
            self.fours_pending = self.fours_pending | {s}

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
        kept.sort(key=lambda t: order[_TRIBUTE_GROUP.get(t.kind, t.kind)])
        return tuple(kept)
