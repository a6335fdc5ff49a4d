"""Every level plays every decision the rules offer (issue 35): 革命, 冲点, 明点, 烩, 还贡 and
burn windows — each level takes it where the hand makes it right and declines where not."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai import Policy, decide, options, policy_for
from bot.ai.expert import ExpertPolicy
from bot.engine import Action, ActionKind, Tribute, from_hands, make_rules, parse
from bot.engine.actions import HuiRanks
from bot.engine.cards import fmt
from bot.engine.state import HandState, Phase

from .helpers import act, play, table

LEVELS = ("easy", "normal", "expert")
DULL = "345678899TJQKA2S"  # a hand for the seats that do not matter


def _policy(level: str, state: HandState) -> Policy:
    if level == "expert":  # a small fixed budget: the same decisions on any machine, fast
        return ExpertPolicy(state.rules, playouts=24)
    return policy_for(level, state.rules)


def _choice(level: str, state: HandState, seat: int) -> Action | None:
    return decide(state, seat, _policy(level, state), random.Random(3))


def _kind(choice: Action | None) -> ActionKind | None:
    return None if choice is None else choice.kind


@pytest.mark.parametrize("level", LEVELS)
def test_revolts_with_a_hand_of_no_twos_jokers_or_gouji_sets(level: str) -> None:
    weak = table(["55S", "3456789TJQKA", "6", "7", "8", "9"])
    assert _kind(_choice(level, weak, 2)) is ActionKind.REVOLT
    strong = table(["55S", "AAAAKKKKQQQ5", "6", "7", "8", "9"])
    assert _choice(level, strong, 2) is None


@pytest.mark.parametrize("level", LEVELS)
def test_revolts_to_chongdian_with_three_strong_pure_sets(level: str) -> None:
    # 大众: seat 3 holds no 2s or jokers, and eight As, seven Ks, six Qs.
    hands = [DULL, DULL, "44556677AAAAAAAAKKKKKKKQQQQQQ", DULL, DULL, DULL]
    state = table(hands, preset="dazhong")
    assert _kind(_choice(level, state, 3)) is ActionKind.REVOLT
    state = act(state, 3, ActionKind.REVOLT)
    assert _kind(_choice(level, state, 3)) is ActionKind.CHONGDIAN
    weak = act(
        table([DULL, DULL, "4455667788TTTTTJJJJQQQ", DULL, DULL, DULL], preset="dazhong"),
        3,
        ActionKind.REVOLT,
    )
    assert _choice(level, weak, 3) is None  # TTTTT, JJJJ, QQQ: all three are beaten


@pytest.mark.parametrize("level", LEVELS)
def test_declares_mingdian_only_with_the_cards_to_stop_the_opposite(level: str) -> None:
    strong = table(["55S", "SSBB22225678", "6", "7", "8", "9"], preset="qingdao")
    assert any(a.kind is ActionKind.DECLARE_POINT for a in options(strong, 2))
    assert _kind(_choice(level, strong, 2)) is ActionKind.DECLARE_POINT
    weak = table(["55S", "3456S", "6", "7", "8", "9"], preset="qingdao")
    assert _choice(level, weak, 2) is None


def _hui_table(leader_hand: str, rule: str = "threes_fours") -> HandState:
    rules = replace(make_rules("dagang"), hui=rule)
    hands = [leader_hand, "3456789S", "3TJ2", "33QK2", "4A2", "5599S"]
    state, _ = from_hands(rules, [parse(h) for h in hands], 1)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_huis_the_low_ranks_the_leader_holds_in_small_sets(level: str) -> None:
    both = _choice(level, _hui_table("3447799KK2S"), 1)
    assert both is not None and both.kind is ActionKind.HUI and both.ranks is HuiRanks.BOTH
    threes = _choice(level, _hui_table("37799KK2S"), 1)
    assert threes is not None and threes.ranks is HuiRanks.THREES
    only3 = _choice(level, _hui_table("3447799KK2S", rule="threes"), 1)
    assert only3 is not None and only3.ranks is HuiRanks.THREES
    # No low cards of its own (or a big set of them, a lead few can answer): it plays.
    for hand in ("7799KK2S", "333337799KK2S"):
        choice = _choice(level, _hui_table(hand), 1)
        assert choice is not None and choice.kind is ActionKind.PLAY


@pytest.mark.parametrize("level", LEVELS)
def test_returns_its_lowest_singles_as_tribute(level: str) -> None:
    rules = make_rules("dagang")
    hands = [parse(h) for h in ("35779KK", "4", "6", "8", "9", "SB2T")]
    state, _ = from_hands(rules, hands, 1, [Tribute(6, 1, 2, "luo")])
    assert state.phase is Phase.RETURN_TRIBUTE
    choice = _choice(level, state, 1)
    assert choice is not None and choice.kind is ActionKind.RETURN_TRIBUTE
    assert fmt(choice.cards or ()) == "35" and choice.target == 6


@pytest.mark.parametrize("level", LEVELS)
def test_burns_an_opponents_gouji_play_when_the_rest_runs_out(level: str) -> None:
    state = play(table(["KK5", "AA77B", "AA77B", "66", "5", "7"]), 1, "KK")
    burn = _choice(level, state, 2)
    assert burn is not None and burn.kind is ActionKind.BURN and fmt(burn.cards or ()) == "AA"
    assert _choice(level, state, 3) is None  # seat 1's teammate lets its 够级牌 live
    # The only burn (AB) spends the joker and leaves 77 99: no way out, no burn.
    stuck = play(table(["KK5", "AB7799", "5", "66", "5", "7"]), 1, "KK")
    assert any(a.kind is ActionKind.BURN for a in options(stuck, 2))
    assert _choice(level, stuck, 2) is None
