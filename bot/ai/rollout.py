"""A fast rollout: plays a (determinized) hand to its end with cheap rules of thumb.

The expert's playouts need thousands of moves a second, so this loop skips the view and
the full legal list: it proposes one move from the raw counts and lets ``apply`` judge
it, falling back to the engine's legal plays only when the proposal is refused (点四,
憋三, a burner's joker rule …). Nobody burns, 让s, revolts or declares in a rollout.

The rules: lead the lowest whole plain set (everything when one play empties the hand);
pass on a teammate; answer an opponent with the lowest whole plain set that beats it,
else a split set of 9 or below, else — against the opposite's 够级牌 or a nearly-out
opponent, or to go out — the cheapest legal answer; otherwise pass.
"""

from __future__ import annotations

import random

from ..engine.actions import Action, ActionKind
from ..engine.cards import I_BIG, I_SMALL, I_TWO, NUM_RANKS
from ..engine.errors import GoujiError
from ..engine.game import apply, legal_plays
from ..engine.plays import JOKERS_BASE, TWOS_BASE, Play
from ..engine.state import HandState, Phase, opp, same_team

MAX_STEPS = 4000
NEAR_OUT = 4
_PASS = Action(ActionKind.PASS)


def _cost(p: Play, hand: tuple[int, ...]) -> float:
    if p.base == JOKERS_BASE:
        rank = 16.0
    elif p.base == TWOS_BASE:
        rank = 12.0 + 5 * p.n
    else:
        rank = float(p.base - 3) + (5.0 if p.n < hand[p.base - 3] else 0.0)
    return rank + 5 * p.twos + 9 * p.small + 12 * p.big


def _whole(hand: tuple[int, ...]) -> Play | None:
    """The single play that empties the hand, if there is one."""
    ranks = [i for i in range(12) if hand[i]]
    if len(ranks) > 1:
        return None
    if ranks:
        i = ranks[0]
        return Play(i + 3, hand[i], hand[I_TWO], hand[I_SMALL], hand[I_BIG])
    if hand[I_TWO]:
        return Play(TWOS_BASE, hand[I_TWO], 0, hand[I_SMALL], hand[I_BIG])
    return Play(JOKERS_BASE, 0, 0, hand[I_SMALL], hand[I_BIG])


def _proposal(state: HandState, seat: int) -> Action:
    hand = state.hands[seat - 1]
    top = state.top_play
    lead = top is None or state.lead_pending
    out = _whole(hand)
    if lead:
        if out is not None:
            return Action.play(out)
        rules = state.rules
        fours = rules.dian_si and hand[1] and seat not in state.fours_free
        if fours and seat in state.fours_pending:
            return Action.play(Play(4, hand[1]))
        for i in range(12):
            if hand[i] and not (i == 0 and rules.bie_san) and not (i == 1 and fours):
                return Action.play(Play(i + 3, hand[i]))
        return Action.play(Play(TWOS_BASE, hand[I_TWO]) if hand[I_TWO] else out or Play(0, 0))
    assert top is not None and state.top_seat is not None
    if same_team(state.top_seat, seat):
        return _PASS
    if top.jokers or top.base in (JOKERS_BASE, TWOS_BASE):
        return _fallback(state, seat, urgent=True)
    size, base = top.size, top.base
    split: Play | None = None
    for r in range(base + 1, 15):
        c = hand[r - 3]
        if c == size:
            return Action.play(Play(r, size))
        if c > size and split is None and r <= 9:
            split = Play(r, size)
    if split is not None:
        return Action.play(split)
    top_count = sum(state.hands[state.top_seat - 1])
    duel = state.top_gouji and opp(seat) == state.top_seat
    if duel or top_count <= NEAR_OUT:
        return _fallback(state, seat, urgent=True)
    return _PASS


def _fallback(state: HandState, seat: int, urgent: bool) -> Action:
    hand = state.hands[seat - 1]
    plays = legal_plays(state, seat)
    if not plays:
        return _PASS
    total = sum(hand)
    best = min(plays, key=lambda p: (p.size != total, _cost(p, hand)))
    if best.size == total or urgent or state.top_play is None or state.lead_pending:
        return Action.play(best)
    return _PASS


def rollout(state: HandState, rng: random.Random) -> HandState:
    """The end state of ``state`` played on by the fast rules (``rng`` is for ties only)."""
    for _ in range(MAX_STEPS):
        if state.over:
            return state
        if state.phase is Phase.RETURN_TRIBUTE:
            recv, _, count = state.pending_returns[0]
            hand = state.hands[recv - 1]
            cards = [0] * NUM_RANKS
            left = count
            for i in range(NUM_RANKS):
                take = min(hand[i], left)
                cards[i] += take
                left -= take
            state, _ = apply(state, recv, Action(ActionKind.RETURN_TRIBUTE, tuple(cards)))
            continue
        seat = state.to_act
        if seat is None:
            return state
        action = _proposal(state, seat)
        try:
            state, _ = apply(state, seat, action)
        except GoujiError:
            fallback = _fallback(state, seat, urgent=False)
            try:
                state, _ = apply(state, seat, fallback)
            except GoujiError:
                plays = legal_plays(state, seat)
                if not plays:
                    return state  # stalled: only the engine could cause this
                state, _ = apply(state, seat, Action.play(plays[0]))
    return state
