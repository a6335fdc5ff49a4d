"""Property tests: generated moves are exactly the accepted ones; random hands end cleanly."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    PRESET_NAMES,
    Action,
    ActionKind,
    IllegalAction,
    apply,
    from_hands,
    legal_actions,
    make_rules,
    new_hand,
)
from bot.engine.cards import NUM_RANKS, Counts, parse
from bot.engine.game import legal_plays
from bot.engine.rules import deck_size
from bot.engine.state import HandState

SWITCH_SETS = [
    {},
    {"bie_san": True, "dian_si": True, "dadian": True},
    {"tie_qian": False, "mixed_jokers": "small", "small_joker_beaten_by": "more_jokers"},
    {"kill_two_big": True, "kill_three_small": True, "kill_three_twos": True},
]

hand_st = st.lists(st.integers(0, NUM_RANKS - 1), min_size=1, max_size=9).map(
    lambda idx: tuple(idx.count(i) for i in range(NUM_RANKS))
)


def submultisets(hand: Counts) -> list[Counts]:
    ranges = [range(n + 1) for n in hand]
    return [c for c in itertools.product(*ranges) if any(c)]


def accepted(state: HandState, seat: int, cards: Counts) -> bool:
    try:
        apply(state, seat, Action(ActionKind.PLAY, cards))
    except IllegalAction:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(hand=hand_st, top=hand_st, sw=st.sampled_from(SWITCH_SETS), lead=st.booleans())
def test_generated_plays_are_exactly_the_accepted_ones(
    hand: Counts, top: Counts, sw: dict[str, object], lead: bool
) -> None:
    rules = make_rules("dagang", sw)
    hands = [hand, top] + [parse("55")] * 4
    if lead:
        state, _ = from_hands(rules, hands, 1)
        seat = 1
    else:
        state, _ = from_hands(rules, hands, 2)
        opts = legal_plays(state, 2)
        if not opts:
            return
        # Put seat 2's largest-rank play on top, then let seat 1 (via the cycle) answer.
        play = max(opts, key=lambda p: (p.size, p.base))
        state, _ = apply(state, 2, Action.play(play))
        while state.to_act not in (1, None) and state.top_play is not None:
            if state.lead_pending:
                return
            state, _ = apply(state, state.to_act, Action(ActionKind.PASS))
        if state.to_act != 1 or state.top_play is None:
            return
        seat = 1
    generated = {p.counts() for p in legal_plays(state, seat)}
    brute = {c for c in submultisets(state.hands[seat - 1]) if accepted(state, seat, c)}
    assert generated == brute


def random_hand(preset: str, seed: int) -> tuple[HandState, list[tuple[int, Action]]]:
    rules = make_rules(preset)
    state, _ = new_hand(rules, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Action]] = []
    for _ in range(5000):
        if state.over:
            break
        options = [
            (s, a)
            for s in range(1, 7)
            for a in legal_actions(state, s)
            if a.kind is not ActionKind.ASK_COUNT
        ]
        assert options, f"no seat can act: {preset} seed {seed}"
        seat, action = rng.choice(options)
        state, _ = apply(state, seat, action)  # an offered action is never refused
        log.append((seat, action))
        total = sum(map(sum, state.hands)) + sum(state.played) + sum(state.discarded)
        assert total + sum(state.set_aside) == deck_size(rules)
    assert state.over
    return state, log


@settings(max_examples=8, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6))
def test_random_hands_end_conserve_cards_and_replay(preset: str, seed: int) -> None:
    final, log = random_hand(preset, seed)
    state, _ = new_hand(make_rules(preset), seed)
    for seat, action in log:
        state, _ = apply(state, seat, action)
    assert state == final
    if final.result is not None and not final.result.voided:
        assert sorted(final.result.places) == [1, 2, 3, 4, 5, 6]
        scores = final.result.team_scores
        if not final.rules.positive_only and final.rules.scoring == "standard":
            assert scores[0] == -scores[1]


def test_every_preset_plays_whole_hands() -> None:
    for preset in PRESET_NAMES:
        for seed in range(3):
            final, _ = random_hand(preset, seed)
            assert final.over


def test_work_copy_round_trips_every_field() -> None:
    from bot.engine.transition import Transition

    final, log = random_hand("qingdao", 5)
    state, _ = new_hand(make_rules("qingdao"), 5)
    for seat, action in log[: len(log) // 2]:
        state, _ = apply(state, seat, action)
    assert Transition(state).freeze(count_step=False) == state
    assert Transition(final).freeze(count_step=False) == final


def accepted_burn(state: HandState, seat: int, cards: Counts) -> bool:
    try:
        apply(state, seat, Action(ActionKind.BURN, cards))
    except IllegalAction:
        return False
    return True


gouji_top = st.sampled_from(
    ["TTTTT", "JJJJ", "QQQ", "KK", "AA", "2", "S", "B", "55S", "TTTT2", "2B", "22B", "B88", "BB8"]
)


@settings(max_examples=120, deadline=None)
@given(hand=hand_st, top=gouji_top, sw=st.sampled_from(SWITCH_SETS))
def test_generated_burns_are_exactly_the_accepted_ones(
    hand: Counts, top: str, sw: dict[str, object]
) -> None:
    rules = make_rules("dagang", {**sw, "burn_limit": 13})
    hands = [parse("3"), parse(top + "3"), hand, parse("4"), parse("6"), parse("7")]
    state, _ = from_hands(rules, hands, 2)
    from bot.engine.game import legal_burns

    try:
        state, _ = apply(state, 2, Action(ActionKind.PLAY, parse(top)))
    except IllegalAction:
        return
    generated = {p.counts() for p in legal_burns(state, 3)}
    brute = {c for c in submultisets(state.hands[2]) if accepted_burn(state, 3, c)}
    assert generated == brute
