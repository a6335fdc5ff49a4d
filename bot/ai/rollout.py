"""A fast rollout: plays a (determinized) hand to its end with ``normal``'s judgement, cheaply.

The expert's playouts need thousands of moves a second, so this loop skips the view and
the full legal list: it proposes one move from the raw counts and lets ``apply`` judge
it, falling back to the engine's legal plays only when the proposal is refused (点四,
憋三, who may answer a 够级牌, a burner's joker rule …). Nobody burns, revolts or
declares in a rollout.

The proposal follows ``NormalPolicy``'s cost model (costs in rank steps: a 2 costs 5, a
small joker 9, a big one 12; splitting a rank 5, breaking a 够级-sized set 4 more) so
that a playout plays the way the table's ``normal`` seats do:

- **lead**: everything when one play empties the hand; under 憋三 the play before the
  3s; otherwise the whole plain set with the best score — low and big (a set bigger than
  a short opponent's hand, the size of a short teammate's), never one the next opponent
  could go out on;
- **answer**: never over a teammate; against an opponent the cheapest answer (a whole
  set, a split set, 贴钱 with 2s, 2s alone, jokers only where a ``normal`` seat would
  fire them), taken when its cost is within normal's limit (``NormalWeights``: 12 early
  in the hand and 16 late for an ordinary play, ± 4 as the other opponents passed or are
  still to come, + 8 a trick (up to 16) for an opponent that keeps the lead with 15
  cards or fewer; 20 for the opposite's 够级牌, 26 for a pure one; 40 against a seat
  about to go out or burning, or when the answer nearly ends the hand); where the rules
  let it 让 an opposite's play (its teammate two seats on still playing) it 让s, as
  ``normal`` does, an answer over the limit or dearer than ``cheap`` unless urgent.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..engine.actions import Action, ActionKind
from ..engine.cards import I_BIG, I_SMALL, I_THREE, I_TWO, NUM_RANKS, contains
from ..engine.errors import ErrorCode, GoujiError, IllegalAction
from ..engine.game import apply, legal_plays
from ..engine.movegen import gen_answers
from ..engine.plays import GOUJI_MIN, JOKERS_BASE, TWOS_BASE, Play, classify, is_pure_gouji
from ..engine.queries import rang_error
from ..engine.rules import Rules
from ..engine.seats import down, opp, same_team, up
from ..engine.state import HandState, Mark, Phase, SeatStatus
from ..engine.transition import Transition
from .normal import DEFAULT_NORMAL

_new = tuple.__new__  # a Play without NamedTuple's Python-level constructor (a hot path)
MAX_STEPS = 4000
CLOCK_STEPS = 16  # moves between looks at the clock (a move takes ~0.1 ms on an idle core)
# normal's own weights, so that playouts follow its tuning
W = DEFAULT_NORMAL
NEAR_OUT = W.near_out
LATE = W.late  # a hand this short plays its 2s as high cards
ANSWER_GOUJI = W.answer_gouji
ANSWER_URGENT = W.urgent
TAKES_TRICK = W.takes_trick  # the other two opponents passed: the answer likely wins
SPEND_GOUJI = W.gouji_set
HOARD_JOKER = W.hoard_joker
KEEP_LAST = W.last_big
KEEP_LAST_MEN = W.last_big_men
GUARD_TWOS = W.guard_twos
BLOCK = W.block
FEED = W.feed
SPLIT = W.split
SPLIT_GOUJI = W.split_gouji
RUN_BONUS = W.run_bonus
RUN_CAP = W.run_cap
RUN_SHORT = W.run_short
_PASS = Action(ActionKind.PASS)
_RANG = Action(ActionKind.RANG)
# The size from which a plain set of each base rank is a 够级牌 (``is_gouji`` without the
# call: the playouts ask it hundreds of thousands of times per decision).
_GOUJI_AT = tuple(GOUJI_MIN.get(base, 99) for base in range(16))


# -- costs ----------------------------------------------------------------------------
def _groups(hand: Sequence[int]) -> int:
    """Plays the hand needs: one per rank 3 … A; 2s and jokers alone make one more."""
    g = 12 - hand[:12].count(0)
    return g if g or not (hand[I_TWO] or hand[I_SMALL] or hand[I_BIG]) else 1


Units = tuple[float, float, float]


def _unit_costs(hand: Sequence[int]) -> Units:
    """(2, small joker, big joker) costs for this hand, as ``normal`` prices them."""
    jok = hand[I_SMALL] + hand[I_BIG]
    if jok + hand[I_TWO] * W.two_share >= _groups(hand) - 1:
        # They outnumber the groups: just the way out.
        return W.two_late, W.small * W.abundant_scale, W.big * W.abundant_scale
    return (W.two_late if sum(hand) <= LATE else W.two), W.small, W.big


def cost(p: Play, hand: Sequence[int], rules: Rules, units: Units | None = None) -> float:
    """How much of the hand's strength a play spends (``NormalPolicy.cost``, abridged)."""
    two, small, big = units or _unit_costs(hand)
    if p.base == JOKERS_BASE:
        rank = 4.0
    elif p.base == TWOS_BASE:
        rank = 12.0 + two * (p.n - 1)
    else:
        rank = float(p.base - 3)
        held = hand[p.base - 3]
        if p.n < held:
            rank += SPLIT
            at = _GOUJI_AT[p.base]
            if held >= at > held - p.n:
                rank += SPLIT_GOUJI  # a 够级-sized set broken
    return rank + two * p.twos + small * p.small + big * p.big


def _keep_for_threes(p: Play, hand: Sequence[int], rules: Rules) -> float:
    """Under 憋三 the best card left guards the play before the 3s (worth far more where
    a caught seat ranks 大落 at once, ``men_is_last``): the last big joker, else the
    last small one, else (``guard_twos``, as the table's ``normal`` plays) the last 2s.
    ``choices.spends_last_guard`` inline: the playouts ask it for every answer."""
    if not (rules.bie_san and hand[I_THREE]) or p.size >= sum(hand) - hand[I_THREE]:
        return 0.0
    keep = KEEP_LAST_MEN if rules.men_is_last else KEEP_LAST
    if hand[I_BIG]:
        return keep if p.big >= hand[I_BIG] else 0.0
    if hand[I_SMALL]:
        return keep if p.small >= hand[I_SMALL] else 0.0
    if GUARD_TWOS and hand[I_TWO]:
        spent = p.twos + (p.n if p.base == TWOS_BASE else 0)
        return keep if spent >= hand[I_TWO] else 0.0
    return 0.0


def _answer_cost(p: Play, hand: Sequence[int], rules: Rules, units: Units, flags: int) -> float:
    """Normal's price of an answer; ``flags``: 1 = a 够级 duel, 2 = an opponent nearly out."""
    c = cost(p, hand, rules, units)
    if rules.bie_san:
        c += _keep_for_threes(p, hand, rules)
    if flags & 1:
        return c
    if 0 < p.base < TWOS_BASE and not p.small and not p.big and p.n + p.twos >= _GOUJI_AT[p.base]:
        c += SPEND_GOUJI  # a whole 够级-sized set thrown at an ordinary play
    if p.base == JOKERS_BASE and not flags & 2 and units[1] == W.small:
        c += HOARD_JOKER  # a lone joker fired at an ordinary play
    return c


# -- answers --------------------------------------------------------------------------
def _plain_answers(hand: Sequence[int], top: Play, rules: Rules) -> list[Play]:
    """The joker-free answers to a plain top: per rank its cheapest form, and 2s alone."""
    n = top.size
    twos = hand[I_TWO] if rules.tie_qian else 0
    out: list[Play] = []
    for r in range(top.base + 1, 15):
        c = hand[r - 3]
        if not c:
            continue
        if c >= n:
            out.append(_new(Play, (r, n, 0, 0, 0)))
        elif c + twos >= n:
            out.append(_new(Play, (r, c, n - c, 0, 0)))
    if top.base < TWOS_BASE and hand[I_TWO] >= n:
        out.append(_new(Play, (TWOS_BASE, n, 0, 0, 0)))
    return out


def _joker_answers(hand: Sequence[int], top: Play, rules: Rules) -> list[Play]:
    if not (hand[I_SMALL] or hand[I_BIG]):
        return []
    if not top.jokers and top.base != JOKERS_BASE:
        return [p for p in gen_answers(hand, top, rules) if p.jokers]
    return gen_answers(hand, top, rules)


def _limit(state: HandState, seat: int, duel: bool, urgent: bool) -> float:
    """normal's limit: 打后半场 — early only cheap answers, late any sound one."""
    if urgent:
        return ANSWER_URGENT
    if duel:
        top = state.top_play
        return ANSWER_GOUJI + (W.pure_bonus if top is not None and is_pure_gouji(top) else 0.0)
    late = sum(state.hands[seat - 1]) <= W.stage
    limit = W.answer_plain if late else W.answer_early
    marks = state.trick_marks
    if all(
        marks[s - 1] is Mark.PASS or state.status[s - 1] is not SeatStatus.PLAYING
        for s in (down(seat), up(seat))
    ):
        limit += TAKES_TRICK
    elif state.top_seat == up(seat):
        limit -= W.upstream  # both other opponents still to come
    return limit + _run_bonus(state, seat)


def _run_bonus(state: HandState, seat: int) -> float:
    """normal's: an opponent that keeps the lead trick after trick sheds a set each time
    while the table passes, so its lead is worth answering at a higher price."""
    top = state.top_seat
    if top is None or same_team(top, seat) or sum(state.hands[top - 1]) > RUN_SHORT:
        return 0.0
    streak = 0
    for m in reversed(state.history):
        if not isinstance(m.act, Play):
            continue
        if m.over is not None:
            if not streak:
                return 0.0  # someone answered the lead in this trick
            continue
        if m.seat != top:
            break
        streak += 1
    return RUN_BONUS * min(streak - 1, RUN_CAP) if streak > 1 else 0.0


def _answer(state: HandState, seat: int, top: Play, top_seat: int) -> Action:
    hand = state.hands[seat - 1]
    total = sum(hand)
    if top.size == total and (out := _whole(hand)) is not None:
        return Action.play(out)  # our last cards, if they beat it (``apply`` judges)
    rules = state.rules
    units = _unit_costs(hand)
    duel = state.top_gouji and (top_seat == opp(seat) or state.headless(seat))
    urgent = 0 < sum(state.hands[top_seat - 1]) <= NEAR_OUT or state.burner == top_seat
    flags = duel | (urgent << 1)
    best: Play | None = None
    price = 1e9
    if not top.jokers and top.base:
        for p in _plain_answers(hand, top, rules):  # the first of the cheapest
            c = _answer_cost(p, hand, rules, units, flags)
            if c < price:
                best, price = p, c
    if price > units[1]:  # a joker answer could be cheaper (it costs at least a joker)
        for p in _joker_answers(hand, top, rules):
            c = _answer_cost(p, hand, rules, units, flags)
            if c < price or p.size == total:
                best, price = p, c
    if best is None:
        return _PASS  # nothing beats it: a plain pass (normal 让s only with an answer)
    rest = list(hand)
    if best.base == TWOS_BASE:
        rest[I_TWO] -= best.n
    elif best.base:
        rest[best.base - 3] -= best.n
        rest[I_TWO] -= best.twos
    rest[I_SMALL] -= best.small
    rest[I_BIG] -= best.big
    limit = ANSWER_URGENT if _groups(rest) <= 1 else _limit(state, seat, duel, urgent)
    if (price > limit or (price > W.cheap and not urgent)) and _may_rang(state, seat):
        return _RANG  # as normal: the teammate two seats on may take it cheaper
    return Action.play(best) if price <= limit else _PASS


def _may_rang(state: HandState, seat: int) -> bool:
    """Whether the seat may 让 (the rules allow it here) with its teammate two seats on
    still playing — the only 让 that helps, and the only one ``normal`` makes."""
    return (
        state.rules.rang
        and state.rang_by is None
        and state.top_seat == opp(seat)
        and state.status[down(down(seat)) - 1] is SeatStatus.PLAYING
        and rang_error(state, seat) is None
    )


# -- leads ----------------------------------------------------------------------------
def _whole(hand: Sequence[int]) -> Play | None:
    """The single play that empties the hand, if there is one."""
    ranks = [i for i in range(12) if hand[i]]
    if len(ranks) > 1:
        return None
    if ranks:
        i = ranks[0]
        return _new(Play, (i + 3, hand[i], hand[I_TWO], hand[I_SMALL], hand[I_BIG]))
    if hand[I_TWO]:
        return _new(Play, (TWOS_BASE, hand[I_TWO], 0, hand[I_SMALL], hand[I_BIG]))
    return _new(Play, (JOKERS_BASE, 0, 0, hand[I_SMALL], hand[I_BIG]))


def _short(state: HandState, seat: int, mates: bool) -> int | None:
    """The smallest hand (≤ 10 cards, what 报户 would tell) among opponents or teammates."""
    sizes = [
        n
        for s in range(1, 7)
        if s != seat
        and same_team(s, seat) == mates
        and state.status[s - 1] is SeatStatus.PLAYING
        and 0 < (n := sum(state.hands[s - 1])) <= 10
    ]
    return min(sizes, default=None)


def _lead_sets(state: HandState, seat: int) -> list[Play]:
    """The whole plain sets the seat may lead (not its 3s under 憋三, nor unopened 4s)."""
    hand = state.hands[seat - 1]
    rules = state.rules
    fours = rules.dian_si and hand[1] and seat not in state.fours_free
    if fours and seat in state.fours_pending:
        return [_new(Play, (4, hand[1], 0, 0, 0))]
    return [
        _new(Play, (i + 3, hand[i], 0, 0, 0))
        for i in range(12)
        if hand[i] and not (i == 0 and rules.bie_san) and not (i == 1 and fours)
    ]


def _lead_score(
    p: Play, hand: Sequence[int], rules: Rules, shorts: tuple[int | None, ...], units: Units
) -> float:
    opp_n, mate_n, next_n = shorts
    s = cost(p, hand, rules, units) - min(p.size, 4)
    if p.n >= _GOUJI_AT[p.base]:  # a plain 够级牌 (the lead sets are plain)
        s += SPEND_GOUJI
    if opp_n is not None and p.size > opp_n:
        s -= BLOCK  # an opponent this short cannot answer a bigger set
    elif next_n is not None and next_n <= NEAR_OUT and p.size <= next_n:
        s += BLOCK  # the next seat could go out on it
    if mate_n is not None and mate_n <= NEAR_OUT and p.size == mate_n:
        s -= FEED
    return s


def _lead(state: HandState, seat: int) -> Action:
    hand = state.hands[seat - 1]
    out = _whole(hand)
    if out is not None:
        return Action.play(out)
    rules = state.rules
    if rules.bie_san and hand[I_THREE]:
        rest = list(hand)
        rest[I_THREE] = 0
        last = _whole(rest)
        if last is not None:
            return Action.play(last)  # the play before the 3s
    sets = _lead_sets(state, seat)
    if not sets:
        return _fallback(state, seat, urgent=True)
    nxt = down(seat)
    next_n = sum(state.hands[nxt - 1]) if not same_team(nxt, seat) else None
    shorts = (_short(state, seat, False), _short(state, seat, True), next_n)
    units = _unit_costs(hand)
    return Action.play(min(sets, key=lambda p: _lead_score(p, hand, rules, shorts, units)))


def _proposal(state: HandState, seat: int) -> Action:
    top = state.top_play
    if top is None or state.lead_pending:
        return _lead(state, seat)
    assert state.top_seat is not None
    if same_team(state.top_seat, seat):
        out = _whole(state.hands[seat - 1])
        # Our last cards end our hand (if they do not beat the top, ``apply`` says so).
        return Action.play(out) if out is not None and out.size else _PASS
    return _answer(state, seat, top, state.top_seat)


def _fallback(state: HandState, seat: int, urgent: bool) -> Action:
    hand = state.hands[seat - 1]
    plays = legal_plays(state, seat)
    if not plays:
        return _PASS
    total = sum(hand)
    best = min(plays, key=lambda p: (p.size != total, cost(p, hand, state.rules)))
    if best.size == total or urgent or state.top_play is None or state.lead_pending:
        return Action.play(best)
    return _PASS


# -- the loop -------------------------------------------------------------------------
def _return_tribute(state: HandState) -> HandState:
    """还贡 in a rollout: the receiver returns its lowest cards."""
    recv, _, count = state.pending_returns[0]
    hand = state.hands[recv - 1]
    cards = [0] * NUM_RANKS
    left = count
    for i in range(NUM_RANKS):
        take = min(hand[i], left)
        cards[i] += take
        left -= take
    return apply(state, recv, Action(ActionKind.RETURN_TRIBUTE, tuple(cards)))[0]


def _apply(state: HandState, seat: int, action: Action) -> HandState:
    """``apply(state, seat, action)[0]``, straight to the transition for what a playout
    does most — a play, a pass or a 让 of the seat to act in plain play — without ``apply``'s
    checks that cannot fail there (the loop acts only for ``to_act``, and only plays,
    passes and 让s) or the 买3, 冲点 and 还贡 paths: a state that needs one of those, or
    any other action, goes through ``apply``."""
    kind = action.kind
    cards = action.cards
    if (
        state.phase is not Phase.PLAY
        or state.buy_pending
        or state.extras.chong is not None
        or state.status[seat - 1] is not SeatStatus.PLAYING
        or (
            (kind is not ActionKind.PLAY or cards is None)
            and kind is not ActionKind.PASS
            and kind is not ActionKind.RANG
        )
    ):
        return apply(state, seat, action)[0]
    w = Transition(state, quiet=True)  # a playout reads no events
    if kind is ActionKind.RANG:
        w.do_rang(seat)  # refuses a 让 the rules do not allow here, as ``apply`` does
    elif cards is None:
        w.do_pass(seat)
    else:
        p = classify(cards, state.rules)  # refuses 3s or 4s with 2s (憋三, 点四) as apply does
        if not contains(state.hands[seat - 1], cards):
            raise IllegalAction(ErrorCode.CARDS_NOT_IN_HAND)
        w.do_play(seat, p)
    return w.freeze()


def _step(state: HandState, seat: int) -> HandState | None:
    """One move of ``seat``: the proposal, else a fallback; None if the seat cannot move."""
    try:
        return _apply(state, seat, _proposal(state, seat))
    except GoujiError:
        pass
    try:
        return _apply(state, seat, _fallback(state, seat, urgent=False))
    except GoujiError:
        plays = legal_plays(state, seat)
        if not plays:
            return None  # stalled: only the engine could cause this
        return _apply(state, seat, Action.play(plays[0]))


def rollout(state: HandState, rng: random.Random, deadline: float = math.inf) -> HandState:
    """The end state of ``state`` played on by the fast rules (``rng`` is for ties only).

    Past ``deadline`` (a ``time.perf_counter`` reading) it stops where it is, unfinished:
    on a machine slowed by other work, one playout must not carry a decision past its
    time (the caller drops an unfinished playout's deal).
    """
    for step in range(MAX_STEPS):
        phase = state.phase
        if phase is Phase.OVER or phase is Phase.VOIDED:  # ``state.over``, without its call
            return state
        if not step % CLOCK_STEPS and time.perf_counter() > deadline:
            return state
        if phase is Phase.RETURN_TRIBUTE:
            state = _return_tribute(state)
            continue
        seat = state.to_act
        if seat is None:
            return state
        nxt = _step(state, seat)
        if nxt is None:
            return state
        state = nxt
    return state
