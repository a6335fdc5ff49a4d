"""The free-play endgame search (``bot.ai.endgame``): its rules are the engine's, it sees
only the seat's view, and it wins races the rules of thumb lose."""

from __future__ import annotations

import random
from functools import cache

import pytest

from bot.ai import NormalPolicy, decide, play_hand
from bot.ai import endgame as eg
from bot.ai.base import masked_state, options
from bot.ai.deal import hand_sizes, hidden_cards
from bot.ai.hand import play_of
from bot.ai.tracking import deck_of
from bot.engine import Action, apply, make_rules, new_hand, parse
from bot.engine.plays import Play
from bot.engine.state import HandState, Phase, SeatStatus
from bot.engine.views import seat_view

from .helpers import table

PRESETS = ("dagang", "qingdao", "match", "weifang", "dazhong")


def plain_normal(state: HandState) -> NormalPolicy:
    return NormalPolicy(state.rules, endgame=None)


@cache
def free_play_states(preset: str) -> tuple[HandState, ...]:
    """Positions of rule-only ``normal`` self-play where 四户乱缠 has begun."""
    rules = make_rules(preset)
    out: list[HandState] = []
    for seed in range(12):
        start, _ = new_hand(rules, 900 + seed)
        pol = NormalPolicy(rules, endgame=None)
        log = play_hand(start, [pol] * 6, random.Random(seed))
        st = start
        for seat, action in log.actions:
            if st.phase is Phase.PLAY and st.free_play and st.to_act is not None:
                out.append(st)
            st, _ = apply(st, seat, action)
    assert out, f"no free-play position in {preset}"
    return tuple(out)


def full_node(st: HandState) -> tuple[eg.Table, eg.Node]:
    me = st.to_act
    assert me is not None
    view = seat_view(st, me)
    return eg.table_of(view, st), eg.node_of(st, st.hands)


def same_position(st: HandState, t: eg.Table, n: eg.Node) -> None:
    assert n.hands == st.hands
    assert n.out == st.out_order
    assert n.dead == st.bottom_order
    assert n.caught == tuple(s for s, _ in st.caught)
    if st.phase is not Phase.PLAY:
        assert n.to_act == 0
        assert st.result is not None
        assert tuple(eg.places(t, n)) == st.result.places
        return
    assert n.to_act == st.to_act
    assert n.top == st.top_play
    assert n.top_seat == (st.top_seat or 0)
    live = {s for s in range(1, 7) if n.live >> (s - 1) & 1}
    assert live == {
        s for s in range(1, 7) if st.status[s - 1] is SeatStatus.PLAYING and any(st.hands[s - 1])
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_free_play_follows_the_engine_move_for_move(preset: str) -> None:
    """Random walks from real positions: every move the search lists is legal, and its
    position after each move (and the final places) is the engine's."""
    rng = random.Random(preset)
    walks = 0
    for st in free_play_states(preset)[::3]:
        t, n = full_node(st)
        while st.phase is Phase.PLAY:
            seat = st.to_act
            assert seat is not None
            legal = options(st, seat)
            moves = t.moves(n.hands[seat - 1], n.top, seat)
            move = rng.choice(moves)
            action = eg.PASS if move is None else Action.play(move)
            assert action in legal
            st, _ = apply(st, seat, action)
            n = eg.step(t, n, move)
            same_position(st, t, n)
        walks += 1
    assert walks >= 10


def test_lists_one_play_per_rank_and_size_cheapest_first() -> None:
    st = table(["33", "45", "6", "7", "8", "9"], preset="dagang")
    t = eg.table_of(seat_view(st, 1), st)
    answers = t.moves(parse("99922S"), Play(8, 3), 1)
    assert Play(9, 3) in answers  # 999, not the dearer 992 or 9922's three-card forms
    assert Play(9, 2, 1) not in answers and Play(9, 1, 2) not in answers
    assert answers[-1] is None  # a pass, last
    plays = [m for m in answers if m is not None]
    assert len({(m.base, m.size) for m in plays}) == len(plays)
    assert all(m.size == 3 for m in plays)
    leads = t.moves(parse("99922S"), None, 1)
    assert leads[0] == Play(9, 3, 2, 1)  # the play that empties the hand comes first
    assert None not in leads  # a lead cannot pass


def race(mine: str, theirs: str, preset: str = "match") -> HandState:
    """Four seats out (3, 2, 5, 6 in that order); seat 1 leads against seat 4 alone. Seat
    1's team wins the hand if seat 1 goes out first, and ties it otherwise."""
    st = table([mine, "", "", theirs, "", ""], preset=preset)
    played = tuple(d - sum(h[i] for h in st.hands) for i, d in enumerate(deck_of(st.rules)))
    return st._replace(
        status=tuple(SeatStatus.PLAYING if s in (1, 4) else SeatStatus.OUT for s in range(1, 7)),
        out_order=(3, 2, 5, 6),
        judged=frozenset(range(1, 7)),
        opened=frozenset(range(1, 7)),
        played=played,
    )


def test_solves_a_race_the_rules_lose() -> None:
    """``6677888Q`` against a seat holding four singles, ``8JKA``: the pairs and the triple
    come back (nobody left can answer a set), so they go first; the lone Q goes last or
    never. The rules of thumb lead the Q (their 回牌 run-out counts it as the one loser to
    lead before the sure winners), seat 4 answers K or A, leads its singles and goes out
    first."""
    st = race("6677888Q", "8JKA")
    assert st.to_act == 1 and st.free_play
    rule = decide(st, 1, plain_normal(st), random.Random(1))
    searched = decide(st, 1, NormalPolicy(st.rules), random.Random(1))
    assert rule is not None and rule.cards == parse("Q")
    assert searched is not None and searched.cards in (parse("888"), parse("66"), parse("77"))
    t, n = full_node(st)
    assert eg.Search(t, 10_000).value_of(n, play_of(searched.cards)) > 1.0  # a won hand
    assert eg.Search(t, 10_000).value_of(n, Play(12, 1)) == 0.5  # a tie


def test_sees_only_its_own_view() -> None:
    """Moving hidden cards between two other seats (same counts) never changes a choice."""
    checked = 0
    for st in free_play_states("dagang"):
        me = st.to_act
        assert me is not None
        others = [
            s
            for s in range(1, 7)
            if s != me and st.status[s - 1] is SeatStatus.PLAYING and any(st.hands[s - 1])
        ]
        if len(others) < 2:
            continue
        a, b = others[:2]
        hands = list(st.hands)
        hands[a - 1], hands[b - 1] = _swap_one(hands[a - 1], hands[b - 1])
        other = st._replace(hands=tuple(hands))
        pol = NormalPolicy(st.rules)
        assert decide(st, me, pol, random.Random(3)) == decide(other, me, pol, random.Random(3))
        assert masked_state(st, me) == masked_state(other, me)
        checked += 1
    assert checked >= 5


def _swap_one(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Trade one card of x for one card of another rank in y."""
    i = next(k for k, c in enumerate(x) if c)
    j = next((k for k, c in enumerate(y) if c and k != i), i)
    xs, ys = list(x), list(y)
    xs[i] -= 1
    ys[i] += 1
    ys[j] -= 1
    xs[j] += 1
    return tuple(xs), tuple(ys)


def test_deterministic_and_within_its_budget() -> None:
    states = [s for s in free_play_states("qingdao") if s.to_act is not None][:40]
    pol = NormalPolicy(states[0].rules)
    for st in states:
        me = st.to_act
        assert me is not None
        a = decide(st, me, pol, random.Random(5))
        assert a == decide(st, me, pol, random.Random(5))
        assert a in options(st, me)


def test_a_budget_of_nothing_keeps_normals_choice() -> None:
    cfg = eg.EndgameConfig(budget=0)
    for st in free_play_states("match")[:60]:
        me = st.to_act
        assert me is not None
        rules_only = decide(st, me, plain_normal(st), random.Random(2))
        starved = decide(st, me, NormalPolicy(st.rules, endgame=cfg), random.Random(2))
        assert starved == rules_only


def test_applies_only_in_free_play_with_an_opponent_left() -> None:
    st = table(["5KK", "6", "7", "6AA", "8", "9"], preset="match")
    view = seat_view(st, 1)
    assert not eg.applies(view, masked_state(st, 1), eg.DEFAULT_ENDGAME)  # nobody is out
    st = race("6677888Q", "8JKA")
    assert eg.applies(seat_view(st, 1), masked_state(st, 1), eg.DEFAULT_ENDGAME)
    small = eg.EndgameConfig(max_cards=5)
    assert not eg.applies(seat_view(st, 1), masked_state(st, 1), small)  # 12 cards left


def test_the_hidden_cards_leave_out_the_discarded_fours() -> None:
    """点四's discarded 4s are neither played nor held: the deals must not hand them out."""
    st = race("6677888Q", "8JKA")
    gone = parse("444")
    st = st._replace(
        played=tuple(p - g for p, g in zip(st.played, gone, strict=True)), discarded=gone
    )
    view = seat_view(st, 1)
    pool = hidden_cards(view, st)
    assert pool == parse("8JKA")
    sizes = hand_sizes(view, pool)
    assert sizes[3] == 4 and sum(sizes) == 12  # the one other seat holds them all
