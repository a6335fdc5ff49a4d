"""The hand state machine's public face: new_hand, legal actions, apply (RULES.md §7–§13).

Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import cards as C
from . import chongdian
from .actions import Action, ActionKind, HuiRanks, burn_action, play_action
from .cards import Counts
from .errors import ErrorCode, IllegalAction
from .events import CountAnswered, Dealt, Event, HandDealt, ReturnCards, TributeReturned, Waived
from .memo import IdentityMemo
from .movegen import gen_answers, gen_leads, group_by_rank_and_size
from .plays import Play, classify
from .queries import (
    burn_error,
    constraints,
    count_answer,
    declare_error,
    hui_error,
    is_lead,
    rang_error,
    revolt_error,
)
from .rules import Rules
from .state import (
    NO_STREAKS,
    SEATS,
    STREAK_EXEMPT,
    HandExtras,
    HandState,
    Phase,
    PointKind,
    SeatStatus,
    Tribute,
    check_seat,
    down,
    is_seat,
    opp,
)
from .transition import Transition

_new = tuple.__new__  # a Play without NamedTuple's keyword handling (built in bulk)

__all__ = [
    "apply",
    "burn_error",
    "constraints",
    "count_answer",
    "first_leader",
    "from_hands",
    "legal_actions",
    "legal_burns",
    "legal_options",
    "legal_plays",
    "new_hand",
    "next_leader",
]


# ---------------------------------------------------------------------------------------
# Starting a hand
# ---------------------------------------------------------------------------------------
def first_leader(seed: int) -> int:
    """The first hand of a table is led by a random seat drawn from the table's seed."""
    return random.Random(f"leader:{seed}").randint(1, 6)


def next_leader(prev: HandState) -> int:
    """Who leads the hand after ``prev`` (switch ``next_leader``)."""
    res = prev.result
    if prev.rules.next_leader == "rotate" or res is None or res.voided:
        return down(prev.leader) if prev.rules.next_leader == "rotate" else prev.leader
    return res.places[-1]


def new_hand(
    rules: Rules,
    seed: int,
    leader: int | None = None,
    owed: Sequence[Tribute] = (),
    pre_points: Iterable[int] = (),
    streaks: Sequence[int] = NO_STREAKS,
) -> tuple[HandState, list[Event]]:
    """Deal a hand from ``seed``; give the tributes ``owed`` by the previous hand.

    ``pre_points`` are seats that declared 预点 before the deal; ``streaks`` are the seats'
    点 streaks carried from the previous hand of the match (its ``result.streaks``).
    """
    if leader is None:
        leader = first_leader(seed)
    _check_setup(leader, owed, pre_points, streaks)
    deck = C.full_deck(rules.remove_threes, rules.remove_fours, rules.remove_fives)
    hands = C.deal(deck, random.Random(seed), leader)
    events: list[Event] = [Dealt(seat=leader, counts=tuple(sum(h) for h in hands))]
    events += [HandDealt(seat=s, visible_to=(s,), cards=C.fmt(hands[s - 1])) for s in SEATS]
    declarations = _pre_points(rules, pre_points, streaks)
    return _setup(
        rules, hands, leader, owed if rules.tribute else (), True, declarations, events, streaks
    )


def from_hands(
    rules: Rules,
    hands: Sequence[Counts],
    leader: int,
    owed: Sequence[Tribute] = (),
    buy: bool = False,
    pre_points: Iterable[int] = (),
    streaks: Sequence[int] = NO_STREAKS,
) -> tuple[HandState, list[Event]]:
    """A hand from fixed hands (scenarios): tributes ``owed`` are given; 买3 only if ``buy``."""
    _check_setup(leader, owed, pre_points, streaks)
    declarations = _pre_points(rules, pre_points, streaks)
    return _setup(rules, tuple(hands), leader, owed, buy, declarations, [], streaks)


def _pre_points(
    rules: Rules, pre_points: Iterable[int], streaks: Sequence[int]
) -> tuple[tuple[int, PointKind], ...]:
    """预点 declared before the deal; refused like ``declare_point`` where it is not allowed."""
    seats = sorted(set(pre_points))
    if seats and not (rules.dadian and rules.point_bets):
        raise IllegalAction(ErrorCode.DECLARE_NOT_ALLOWED)
    for s in seats:
        if rules.point_streak and streaks[opp(s) - 1] >= STREAK_EXEMPT:
            raise IllegalAction(ErrorCode.DECLARE_NOT_ALLOWED, seat=s)  # 毕业: exempt
    return tuple((s, "yudian") for s in seats)


def _check_setup(
    leader: object, owed: Sequence[Tribute], pre_points: Iterable[int], streaks: Sequence[int]
) -> None:
    """Seats are ints 1..6 everywhere (issue 9: ``1.0`` or ``True`` is refused, not used)."""
    if not is_seat(leader):
        raise IllegalAction(ErrorCode.BAD_SEAT, seat=leader)
    for t in owed:
        for s in (t.giver, t.receiver):
            if not is_seat(s):
                raise IllegalAction(ErrorCode.BAD_SEAT, seat=s)
    for s in pre_points:
        if not is_seat(s):
            raise IllegalAction(ErrorCode.BAD_SEAT, seat=s)
    if len(streaks) != 6 or not all(type(n) is int and 0 <= n <= STREAK_EXEMPT for n in streaks):
        raise IllegalAction(ErrorCode.BAD_STREAKS, streaks=tuple(streaks))


@dataclass(frozen=True, slots=True)
class OptionGroup:
    """The compact form of legal plays: one base rank at one size, and its variants.

    ``variants`` lists the (2s added, small jokers, big jokers) choices; a chat UI pages
    through base ranks, then sizes, then variants.
    """

    kind: ActionKind  # PLAY or BURN
    base: int  # 3..14, 15 for 2s alone, 0 for jokers alone
    size: int
    variants: tuple[tuple[int, int, int], ...]

    def plays(self) -> list[Play]:
        base, size = self.base, self.size
        return [_new(Play, (base, size - t - s - b, t, s, b)) for t, s, b in self.variants]


def legal_options(state: HandState, seat: int) -> list[OptionGroup]:
    """Every legal play and burn of the seat, grouped by (kind, base rank, size)."""
    out: list[OptionGroup] = []
    for kind, plays in (
        (ActionKind.PLAY, legal_plays(state, seat)),
        (ActionKind.BURN, legal_burns(state, seat)),
    ):
        for (base, size), group in sorted(group_by_rank_and_size(plays).items()):
            variants = tuple(sorted((p.twos, p.small, p.big) for p in group))
            out.append(OptionGroup(kind, base, size, variants))
    return out


def _setup(
    rules: Rules,
    hands: tuple[Counts, ...],
    leader: int,
    owed: Sequence[Tribute],
    buy: bool,
    declarations: tuple[tuple[int, PointKind], ...],
    events: list[Event],
    streaks: Sequence[int] = NO_STREAKS,
) -> tuple[HandState, list[Event]]:
    state = HandState(
        rules=rules,
        phase=Phase.PLAY,
        hands=hands,
        status=(SeatStatus.PLAYING,) * 6,
        leader=leader,
        declarations=declarations,
        buy_pending=buy,
        extras=HandExtras(streaks=tuple(streaks)),
    )
    w = Transition(state)
    w.events = events
    w.give_tributes(owed)
    if w.pending_returns:
        w.phase = Phase.RETURN_TRIBUTE
        w.to_act = None
    else:
        w.begin_play()
    return w.freeze(count_step=False), w.events


# The same state's plays are asked for several times in a row: a chat table draws a
# player's legal actions, then its play menu (``legal_options``), and the table asks
# again for its timers. Kept per (state, seat, burns) as tuples (callers get a new list).
_memo: IdentityMemo[tuple[Play, ...]] = IdentityMemo()


def legal_plays(state: HandState, seat: int) -> list[Play]:
    """Every play (lead or answer) the seat may make now; empty when it is not its turn."""
    if type(seat) is not int or not 1 <= seat <= 6:  # (check_seat, inlined: a hot path)
        raise IllegalAction(ErrorCode.BAD_SEAT, seat=seat)
    if state.phase is not Phase.PLAY or state.to_act != seat:
        return []
    known = _memo.get(state, (seat, False))
    if known is not None:
        return list(known)
    plays = _plays(state, seat)
    _memo.put(state, (seat, False), tuple(plays))
    return plays


def _plays(state: HandState, seat: int) -> list[Play]:
    """``legal_plays`` for the seat to act, worked out afresh."""
    if state.buy_pending:
        # 买3 runs before the first play (RULES §10): answer for the hands after it.
        w = Transition(state)
        w.run_buy()
        state = w.view()
        if state.to_act != seat:
            return []
    if state.extras.chong is not None and state.extras.chong.in_progress:
        return chongdian.legal_plays(state, seat)
    if state.lead_pending:
        state = _after_trick(state)
        if state.to_act != seat:
            return []
    hand = state.hands[seat - 1]
    cons = constraints(state, seat)
    if is_lead(state):
        return gen_leads(hand, state.rules, cons)
    assert state.top_play is not None
    return gen_answers(hand, state.top_play, state.rules, cons)


def _after_trick(state: HandState) -> HandState:
    """The state once a 够死级 play has lived, for the seat about to lead."""
    w = Transition(state)
    w.end_trick()
    return w.view()


def legal_burns(state: HandState, seat: int) -> list[Play]:
    check_seat(seat)
    if state.phase is not Phase.PLAY or not state.is_active(seat) or burn_error(state, seat):
        return []
    known = _memo.get(state, (seat, True))
    if known is not None:
        return list(known)
    assert state.top_play is not None
    hand = state.hands[seat - 1]
    burns = gen_answers(hand, state.top_play, state.rules, constraints(state, seat))
    _memo.put(state, (seat, True), tuple(burns))
    return burns


# The actions without cards are values: built once, not at every legal list.
_PASS = Action(ActionKind.PASS)
_RANG = Action(ActionKind.RANG)
_REVOLT = Action(ActionKind.REVOLT)
_WAIVE = Action(ActionKind.WAIVE)
_DECLARE = (Action(ActionKind.DECLARE_POINT), Action(ActionKind.DECLARE_POINT, pre=True))
_ASK_COUNTS = tuple(Action(ActionKind.ASK_COUNT, target=t) for t in SEATS)
_HUI = {r: Action.hui(r) for r in HuiRanks}


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action the engine accepts from ``seat`` now (the expanded form)."""
    check_seat(seat)
    if state.over:
        return []
    out: list[Action] = []
    if state.phase is Phase.RETURN_TRIBUTE:
        out += _return_actions(state, seat)
    elif chongdian.in_progress(state):
        out += [Action.play(p) for p in legal_plays(state, seat)]
        if state.to_act == seat and state.top_play is not None:
            out.append(_PASS)
    elif state.is_active(seat):
        out += _active_actions(state, seat)
    elif chongdian.chongdian_error(state, seat) is None:
        out.append(Action.chongdian())
    if state.rules.count_rule != "never":
        out += _ASK_COUNTS
    return out


def _return_actions(state: HandState, seat: int) -> list[Action]:
    """Every way ``seat`` can return the tribute it owes (none when it owes none)."""
    out: list[Action] = []
    for receiver, giver, count in state.pending_returns:
        if receiver == seat:
            for combo in _multisets(state.hands[seat - 1], count):
                out.append(Action(ActionKind.RETURN_TRIBUTE, combo, giver))
    return out


def _active_actions(state: HandState, seat: int) -> list[Action]:
    """What a seat still in the hand can do in the play phase (besides asking a count)."""
    out = [play_action(p) for p in legal_plays(state, seat)]
    if state.to_act == seat and not is_lead(state):
        out.append(_PASS)
    if rang_error(state, seat) is None:
        out.append(_RANG)
    out += [burn_action(p) for p in legal_burns(state, seat)]
    if revolt_error(state, seat) is None:
        out.append(_REVOLT)
    if declare_error(state, seat) is None:
        out += _DECLARE
    if state.gousi_left[seat - 1] > 0:
        out.append(_WAIVE)
    if state.rules.hui != "off":  # (else every 烩 is refused: the common case, skipped)
        out += [_HUI[r] for r in HuiRanks if hui_error(state, seat, r) is None]
    return out


def _multisets(hand: Counts, k: int) -> list[Counts]:
    """All ways to pick ``k`` cards from a hand, as count vectors."""
    out: list[Counts] = []
    cur = [0] * C.NUM_RANKS

    def rec(i: int, left: int) -> None:
        if left == 0:
            out.append(tuple(cur))
            return
        if i == C.NUM_RANKS:
            return
        for n in range(min(hand[i], left), -1, -1):
            cur[i] = n
            rec(i + 1, left - n)
        cur[i] = 0

    rec(0, k)
    return out


# ---------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------
def apply(state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    """Apply one action; raises IllegalAction (and changes nothing) when refused."""
    if state.over:
        raise IllegalAction(ErrorCode.HAND_OVER)
    if not isinstance(action.kind, ActionKind):
        raise IllegalAction(ErrorCode.UNKNOWN_ACTION, action=str(action.kind))
    if type(seat) is not int or not 1 <= seat <= 6:  # (check_seat, inlined: a hot path)
        raise IllegalAction(ErrorCode.BAD_SEAT, seat=seat)
    kind = action.kind
    if kind is ActionKind.ASK_COUNT:
        return _ask_count(state, seat, action.target)
    if (kind is ActionKind.RETURN_TRIBUTE) != (state.phase is Phase.RETURN_TRIBUTE):
        raise IllegalAction(ErrorCode.WRONG_PHASE, phase=state.phase.value)
    if kind is ActionKind.RETURN_TRIBUTE:
        return _return_tribute(state, seat, action)
    chong = state.extras.chong
    if kind is ActionKind.CHONGDIAN or (chong is not None and chong.in_progress):
        return _chongdian(state, seat, action)
    if not state.is_active(seat):
        raise IllegalAction(ErrorCode.SEAT_OUT, seat=seat)
    w = Transition(state)
    if state.buy_pending and kind not in _DECLARATIONS:
        w.run_buy()  # 买3 comes after the 革命 declarations (RULES §10, §15)
        state = w.view()  # the action is checked against the hands after it
    _do_turn_action(w, state, seat, action)
    return w.freeze(), w.events


def _do_turn_action(w: Transition, state: HandState, seat: int, action: Action) -> None:
    """One play-phase action of an active seat, on ``w`` (``state`` is its view)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        w.do_play(seat, _play_of(state, seat, action))
    elif kind is ActionKind.BURN:
        w.do_burn(seat, _play_of(state, seat, action))
    elif kind is ActionKind.PASS:
        w.do_pass(seat)
    elif kind is ActionKind.RANG:
        w.do_rang(seat)
    elif kind is ActionKind.REVOLT:
        w.do_revolt(seat)
    elif kind is ActionKind.DECLARE_POINT:
        w.do_declare(seat, action.pre)
    elif kind is ActionKind.HUI:
        w.do_hui(seat, action.ranks)
    elif kind is ActionKind.WAIVE:
        if state.gousi_left[seat - 1] <= 0:
            raise IllegalAction(ErrorCode.WAIVE_NOT_ALLOWED)
        w.set_gousi(seat, 0)
        w.emit(Waived(seat=seat))


_DECLARATIONS = frozenset({ActionKind.REVOLT, ActionKind.DECLARE_POINT})
# What the other actions are refused with while a 冲点 lasts (only its two seats play).
_DURING_CHONGDIAN = {
    ActionKind.BURN: ErrorCode.BURN_NOT_ALLOWED,
    ActionKind.RANG: ErrorCode.RANG_NOT_ALLOWED,
    ActionKind.REVOLT: ErrorCode.REVOLT_NOT_ALLOWED,
    ActionKind.DECLARE_POINT: ErrorCode.DECLARE_NOT_ALLOWED,
    ActionKind.HUI: ErrorCode.HUI_NOT_ALLOWED,
    ActionKind.CHONGDIAN: ErrorCode.CHONGDIAN_NOT_ALLOWED,
    ActionKind.WAIVE: ErrorCode.WAIVE_NOT_ALLOWED,
}


def _chongdian(state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    """冲点: its declaration, then the plays and passes of the revolter and its opposite."""
    kind = action.kind
    w = Transition(state)
    if kind is ActionKind.CHONGDIAN and state.chong is None:
        if state.buy_pending:
            w.run_buy()  # 买3 comes after the 革命 declarations
        chongdian.start(w, seat)
    elif kind in _DURING_CHONGDIAN:
        raise IllegalAction(_DURING_CHONGDIAN[kind])
    elif kind is ActionKind.PLAY:
        chongdian.act(w, seat, _play_of(state, seat, action))
    else:
        chongdian.act(w, seat, None)
    return w.freeze(), w.events


def _play_of(state: HandState, seat: int, action: Action) -> Play:
    if action.cards is None:
        raise IllegalAction(ErrorCode.EMPTY_PLAY)
    p = classify(action.cards, state.rules)
    if not C.contains(state.hands[seat - 1], action.cards):
        raise IllegalAction(ErrorCode.CARDS_NOT_IN_HAND)
    return p


def _ask_count(state: HandState, seat: int, target: int | None) -> tuple[HandState, list[Event]]:
    if state.rules.count_rule == "never":
        raise IllegalAction(ErrorCode.COUNT_REFUSED)
    if not is_seat(target):
        raise IllegalAction(ErrorCode.BAD_TARGET, target=target)
    assert target is not None
    answer, n = count_answer(state, target)
    return state, [CountAnswered(seat=seat, target=target, answer=answer, count=n)]


def _return_tribute(state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    if action.target is not None and not is_seat(action.target):
        raise IllegalAction(ErrorCode.BAD_TARGET, target=action.target)
    owed = [(i, r) for i, r in enumerate(state.pending_returns) if r[0] == seat]
    if action.target is not None:
        owed = [(i, r) for i, r in owed if r[1] == action.target]
    if not owed:
        raise IllegalAction(ErrorCode.RETURN_NOT_OWED, target=action.target)
    idx, (_, giver, count) = owed[0]
    cards = action.cards or C.EMPTY
    if sum(cards) != count:
        raise IllegalAction(ErrorCode.RETURN_COUNT, count=count)
    if not C.contains(state.hands[seat - 1], cards):
        raise IllegalAction(ErrorCode.CARDS_NOT_IN_HAND)
    w = Transition(state)
    w.hands[seat - 1] = C.sub(w.hands[seat - 1], cards)
    w.hands[giver - 1] = C.add(w.hands[giver - 1], cards)
    del w.pending_returns[idx]
    w.emit(TributeReturned(seat=seat, target=giver, count=count))
    w.emit(ReturnCards(seat=seat, visible_to=(seat, giver), target=giver, cards=C.fmt(cards)))
    if not w.pending_returns:
        w.begin_play()
    return w.freeze(), w.events


def replace_rules(state: HandState, rules: Rules) -> HandState:
    return state._replace(rules=rules)
