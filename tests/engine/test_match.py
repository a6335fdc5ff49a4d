"""The match carry-over (bot.engine.match) and whole matches played through it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import RandomPolicy, play_hand
from bot.engine import PRESET_NAMES, Action, ActionKind, apply, from_hands, make_rules, new_hand
from bot.engine.cards import parse
from bot.engine.events import TributeGiven
from bot.engine.match import MatchCarry, carry_over
from bot.engine.rules import deck_size
from bot.engine.state import HandState, Tribute, down


def _single_cards_hand(preset: str = "dagang") -> HandState:
    """Each seat holds one card; seat 1 leads A and the seats go out 1, 2, 3, 4, 5."""
    hands = ["A", "K", "Q", "J", "T", "9"]
    state, _ = from_hands(make_rules(preset), [parse(h) for h in hands], 1)
    while not state.over:
        seat = state.to_act
        assert seat is not None
        if state.top_play is None or state.lead_pending:
            state, _ = apply(state, seat, Action(ActionKind.PLAY, state.hands[seat - 1]))
        else:
            state, _ = apply(state, seat, Action(ActionKind.PASS))
    return state


def test_carry_over_passes_tributes_leader_and_scores() -> None:
    fin = _single_cards_hand()
    assert fin.result is not None and fin.result.places == (1, 2, 3, 4, 5, 6)
    carry = carry_over(MatchCarry(leader=1, scores=(3, 1), hands=2, deals=2), fin)
    assert carry.leader == 6  # next_leader loser: the 大落 leads
    assert carry.owed == fin.result.tributes
    assert {(t.giver, t.receiver, t.count, t.kind) for t in carry.owed} == {
        (6, 1, 2, "luo"),
        (5, 2, 1, "luo"),
    }
    assert carry.scores == (3 + fin.result.team_scores[0], 1 + fin.result.team_scores[1])
    assert (carry.hands, carry.deals) == (3, 3)


def test_rotate_passes_the_lead_downstream() -> None:
    rules = make_rules("dagang", {"next_leader": "rotate"})
    state, _ = from_hands(rules, [parse(h) for h in ["A", "K", "Q", "J", "T", "9"]], 4)
    while not state.over:
        seat = state.to_act
        assert seat is not None
        if state.top_play is None or state.lead_pending:
            state, _ = apply(state, seat, Action(ActionKind.PLAY, state.hands[seat - 1]))
        else:
            state, _ = apply(state, seat, Action(ActionKind.PASS))
    assert carry_over(MatchCarry(leader=4), state).leader == down(4)


def test_a_voided_hand_keeps_the_leader_the_tributes_owed_and_the_scores() -> None:
    hands = ["55", "66", "77", "2", "S", "B"]
    state, _ = from_hands(make_rules("dagang"), [parse(h) for h in hands], 2)
    state, _ = apply(state, 1, Action(ActionKind.REVOLT))
    state, _ = apply(state, 3, Action(ActionKind.REVOLT))
    assert state.result is not None and state.result.voided
    owed = (Tribute(6, 1, 2, "luo"),)
    before = MatchCarry(2, owed, (1, 0, 2, 0, 0, 0), (4, 0), hands=1, deals=1)
    after = carry_over(before, state)
    assert after.leader == 2 and after.owed == owed and after.scores == (4, 0)
    assert (after.hands, after.deals) == (1, 2)


def test_carry_over_refuses_a_hand_in_progress() -> None:
    state, _ = from_hands(make_rules(), [parse("5")] * 6, 1)
    try:
        carry_over(MatchCarry(leader=1), state)
    except ValueError:
        return
    raise AssertionError("carry_over accepted an unfinished hand")


def test_streaks_come_from_the_engine_and_survive_a_voided_hand() -> None:
    fin = _single_cards_hand("qingdao")
    assert fin.result is not None
    assert carry_over(MatchCarry(leader=1, streaks=(2,) * 6), fin).streaks == fin.result.streaks
    hands = ["55", "66", "77", "2", "S", "B"]
    state, _ = from_hands(make_rules("dagang"), [parse(h) for h in hands], 2)
    state, _ = apply(state, 1, Action(ActionKind.REVOLT))
    state, _ = apply(state, 3, Action(ActionKind.REVOLT))
    streaks = (1, 0, 2, 0, 3, 0)
    assert carry_over(MatchCarry(leader=2, streaks=streaks), state).streaks == streaks


# -- whole matches conserve cards -----------------------------------------------------
def _conserved(state: HandState) -> bool:
    aside = getattr(state, "set_aside", None)
    extra = sum(aside) if isinstance(aside, tuple) else 0
    total = sum(map(sum, state.hands)) + sum(state.played) + sum(state.discarded) + extra
    return total == deck_size(state.rules)


@settings(max_examples=5, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6))
def test_cards_are_conserved_through_whole_matches(preset: str, seed: int) -> None:
    rules = make_rules(preset)
    carry = MatchCarry()
    policies = [RandomPolicy()] * 6
    rng = random.Random(seed)
    for k in range(3):
        state, events = new_hand(
            rules, seed * 10 + k, carry.leader, carry.owed, streaks=carry.streaks
        )
        assert _conserved(state)
        if carry.leader is not None:
            assert state.leader == carry.leader
        n_given = sum(e.count for e in events if isinstance(e, TributeGiven))
        assert n_given <= sum(t.count for t in carry.owed)
        if not rules.tribute:
            assert n_given == 0
        log = play_hand(state, policies, rng)
        # Replaying the log from the deal gives the same end, with cards conserved at every step.
        replay = state
        for seat, action in log.actions:
            replay, _ = apply(replay, seat, action)
            assert _conserved(replay)
        assert replay == log.state
        fin = log.state
        assert fin.result is not None
        before = carry
        carry = carry_over(carry, fin)
        if fin.result.voided:
            assert carry.leader == fin.leader and carry.scores == before.scores
        else:
            assert carry.scores == (
                before.scores[0] + fin.result.team_scores[0],
                before.scores[1] + fin.result.team_scores[1],
            )
    assert carry.deals == 3
