"""How one action changes a hand: a mutable copy of the frozen state, changed step by
step and frozen again, so a refused action never leaves a half-changed state behind."""

from __future__ import annotations

from collections.abc import Sequence

from . import cards as C
from .actions import HuiRanks
from .cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO
from .ending import TRIBUTE_GROUP
from .errors import ErrorCode, IllegalAction
from .events import (
    Bought,
    Burned,
    BurnReleased,
    Caught,
    Declared,
    HuiCalled,
    Passed,
    Played,
    PlayStarts,
    Ranged,
    Revolted,
    TributeCards,
    TributeGiven,
    Voided,
)
from .plays import Play, beats, is_gouji
from .queries import (
    burn_refusal,
    declare_error,
    hui_error,
    rang_refusal,
    revolt_blocker,
    revolt_error,
    turn_error,
)
from .seats import down, opp, same_team, up
from .state import SEATS, HandResult, Mark, Phase, PointKind, PublicMove, SeatStatus, Tribute
from .tricks import TrickFlow

_new = tuple.__new__  # a PublicMove without NamedTuple's Python-level constructor (every move)

# 《大纲》 第二十一条(四): 落贡 is returned; 第二十四条: "点贡只进贡，不计分，不回牌".
_RETURNED_UNDER_LUO = frozenset({"luo", "sweep"})


class Transition(TrickFlow):
    """A mutable copy of a HandState while one action is applied: its setup (tributes,
    buying a rank) and the actions; the lead and turn order are ``TrickFlow``'s, the end
    of the hand ``HandEnd``'s, the copy itself ``MutableHand``'s."""

    # -- setup -------------------------------------------------------------------------
    def give_tributes(self, owed: Sequence[Tribute]) -> None:
        order = {k: i for i, k in enumerate(self.rules.tribute_order)}
        ranked = sorted(
            enumerate(owed),
            key=lambda it: (order[TRIBUTE_GROUP.get(it[1].kind, it[1].kind)], it[0]),
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
        self.history = (*self.history, _new(PublicMove, (s, p, self.top_play, prev_seat)))
        self.set_top(s, p, gousi)
        if not self.quiet:
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
        self.history = (*self.history, _new(PublicMove, (s, Mark.PASS, self.top_play, top)))
        if not self.quiet:
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
        self.history = (
            *self.history,
            _new(PublicMove, (s, Mark.RANG, self.top_play, self.top_seat)),
        )
        if not self.quiet:
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
