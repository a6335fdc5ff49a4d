"""HeuristicPolicy behaviour on hand-built tables (bot.engine.game.from_hands)."""

from __future__ import annotations

import random

import pytest

from bot.ai import HeuristicPolicy, RandomPolicy, decide, options, play_hand
from bot.ai.hand import plays_needed, runs_out_burning
from bot.ai.tribute import return_cards
from bot.engine import ActionKind, Tribute, fmt, from_hands, make_rules, new_hand, parse
from bot.engine.state import SEATS, Phase

from .helpers import act, heuristic_choice, play, table


def _cards(action: object) -> str:
    cards = getattr(action, "cards", None)
    assert cards is not None
    return fmt(cards)


def test_passes_on_a_teammates_ordinary_lead_it_could_beat() -> None:
    state = play(table(["55KK", "3", "99AA", "4", "6", "7"]), 1, "55")
    state = act(state, 2, ActionKind.PASS)
    assert state.to_act == 3
    choice = heuristic_choice(state, 3)
    assert choice is not None and choice.kind is ActionKind.PASS


def test_passes_on_a_teammate_about_to_go_out() -> None:
    # Seat 1 keeps one card after its lead: it is about to go out; seat 3 must not beat it.
    state = play(table(["JJ4", "3", "QQAA22", "4", "6", "7"]), 1, "JJ")
    state = act(state, 2, ActionKind.PASS)
    choice = heuristic_choice(state, 3)
    assert choice is not None and choice.kind is ActionKind.PASS


def test_goes_out_over_a_teammate_when_the_answer_is_its_whole_hand() -> None:
    state = play(table(["55KK", "3", "99", "4", "6", "7"]), 1, "55")
    state = act(state, 2, ActionKind.PASS)
    choice = heuristic_choice(state, 3)
    assert choice is not None and _cards(choice) == "99"


def test_answers_an_opponent_with_the_cheapest_whole_set() -> None:
    state = play(table(["55KK", "6699AA2S", "99AA", "4", "6", "7"]), 1, "55")
    choice = heuristic_choice(state, 2)
    assert choice is not None and choice.kind is ActionKind.PLAY and _cards(choice) == "66"


def test_answers_the_opposites_gouji_play_cheaply_and_keeps_jokers() -> None:
    state = play(table(["KK55", "3", "5", "AABB66", "4", "7"]), 1, "KK")
    assert state.to_act == 4 and state.top_gouji
    choice = heuristic_choice(state, 4)
    assert choice is not None and _cards(choice) == "AA"


def test_keeps_jokers_against_an_ordinary_play_unless_the_player_is_nearly_out() -> None:
    long_hand = "QQ3456789TJK"
    state = play(table([long_hand, "5579SB", "6", "7", "8", "9"]), 1, "QQ")
    choice = heuristic_choice(state, 2)
    assert choice is not None and choice.kind is ActionKind.PASS
    # Seat 1 now holds two cards (报户 shows it): stop it with the jokers.
    state = play(table(["QQ55", "5579SB", "6", "7", "8", "9"]), 1, "QQ")
    choice = heuristic_choice(state, 2)
    assert choice is not None and _cards(choice) == "SB"


def test_leads_the_lowest_whole_set_without_attachments() -> None:
    choice = heuristic_choice(table(["55566678SB2", "3", "5", "4", "4", "7"]), 1)
    assert choice is not None and _cards(choice) == "555"


def test_leads_a_set_too_big_for_a_short_opponent() -> None:
    # Seat 2 (next, an opponent) shows two cards: a pair could let it out, a triple cannot.
    # The other seats hold more than 10 cards, so 报户 tells nothing about them.
    big = "3456789TJQK"
    state = table(["44777KKK2", "AA", big, big, big, big])
    choice = heuristic_choice(state, 1)
    assert choice is not None and _cards(choice) == "777"


def test_under_bie_san_the_play_before_the_threes_takes_everything() -> None:
    state = table(["33772S", "55", "6", "7", "8", "9"], preset="qingdao")
    choice = heuristic_choice(state, 1)
    assert choice is not None and _cards(choice) == "772S"


def test_burns_when_the_rest_of_the_hand_runs_out_with_jokers() -> None:
    state = play(table(["KK5", "AA77B", "AA77B", "66", "5", "7"]), 1, "KK")
    burn = heuristic_choice(state, 2)
    assert burn is not None and burn.kind is ActionKind.BURN and _cards(burn) == "AA"
    # Seat 3 is the player's teammate: its 够级牌 should live.
    assert heuristic_choice(state, 3) is None


def test_does_not_burn_into_a_hand_it_cannot_finish() -> None:
    # The only burn (AB) spends the joker and leaves 77 99: two plays, no joker.
    state = play(table(["KK5", "AB7799", "5", "66", "5", "7"]), 1, "KK")
    assert any(a.kind is ActionKind.BURN for a in options(state, 2))
    assert heuristic_choice(state, 2) is None


def test_burns_a_teammate_only_to_go_out() -> None:
    state = play(table(["KK5", "3", "AA", "66", "5", "7"]), 1, "KK")
    burn = heuristic_choice(state, 3)
    assert burn is not None and burn.kind is ActionKind.BURN


def test_returns_its_lowest_singles_as_tribute() -> None:
    rules = make_rules("dagang")
    hands = [parse(h) for h in ("35779KK", "4", "6", "8", "9", "SB2T")]
    state, _ = from_hands(rules, hands, 1, [Tribute(6, 1, 2, "luo")])
    assert state.phase is Phase.RETURN_TRIBUTE
    choice = heuristic_choice(state, 1)
    assert choice is not None and choice.kind is ActionKind.RETURN_TRIBUTE
    assert _cards(choice) == "35" and choice.target == 6


@pytest.mark.parametrize(
    ("hand", "count", "preset", "given"),
    [
        ("3355777K2S", 2, "dagang", "33"),  # no singles below J: the lowest cards
        ("35579KKSB", 3, "dagang", "379"),  # singles first, the pair of 5s kept
        ("3689AAA", 2, "qingdao", "68"),  # 憋三: the only 3 is kept
        ("2SB", 1, "dagang", "2"),  # nothing but 2s and jokers: the lowest of them
    ],
)
def test_return_cards(hand: str, count: int, preset: str, given: str) -> None:
    assert fmt(return_cards(parse(hand), count, make_rules(preset))) == given


def test_revolts_only_with_a_weak_hand_and_never_declares() -> None:
    weak = table(["55S", "3456789TJQKA", "6", "7", "8", "9"])
    choice = heuristic_choice(weak, 2)
    assert choice is not None and choice.kind is ActionKind.REVOLT
    strong = table(["55S", "AAAAKKKKQQQ5", "6", "7", "8", "9"])
    assert heuristic_choice(strong, 2) is None
    declaring = table(["55S", "3456S", "6", "7", "8", "9"], preset="qingdao")
    assert heuristic_choice(declaring, 2) is None


def test_no_second_revolt() -> None:
    state = table(["55S", "3456789TJQKA", "3456789TJQKA", "7", "8", "9"])
    state = act(state, 2, ActionKind.REVOLT)
    assert heuristic_choice(state, 3) is None  # a second revolt would void the hand


def test_hand_arithmetic() -> None:
    rules = make_rules("dagang")
    bie = make_rules("qingdao")
    assert plays_needed(parse("5577TTT2SB"), rules) == 3
    assert plays_needed(parse("2SB"), rules) == 1
    assert plays_needed(parse("332"), bie) == 2  # 3s carry nothing under 憋三
    assert runs_out_burning(parse("77B"), rules)
    assert runs_out_burning(parse("7799B"), rules)
    assert not runs_out_burning(parse("7799"), rules)
    assert runs_out_burning(parse("33S77"), bie)  # 77S, then the 3s
    assert not runs_out_burning(parse("3377"), bie)
    assert not runs_out_burning(parse("4477SS"), bie)  # unopened 4s cannot be led


def test_heuristic_needs_no_randomness() -> None:
    rules = make_rules("dagang")
    state, _ = new_hand(rules, 9)
    a = play_hand(state, [HeuristicPolicy(rules)] * 6, random.Random(1)).actions
    b = play_hand(state, [HeuristicPolicy(rules)] * 6, random.Random(2)).actions
    assert a == b


def test_heuristic_team_beats_random_team() -> None:
    rules = make_rules("dagang")
    wins = 0
    for seed in range(20):
        team = seed % 2
        policies = [
            HeuristicPolicy(rules) if (s % 2 == 1) == (team == 0) else RandomPolicy() for s in SEATS
        ]
        state, _ = new_hand(rules, seed)
        result = play_hand(state, policies, random.Random(seed)).state.result
        assert result is not None
        wins += result.team_scores[team] > 0
    assert wins >= 17


def test_default_policy_reads_the_preset_from_the_view() -> None:
    # No rules given: the 憋三 rule of the qingdao preset still shapes the lead.
    state = table(["33772S", "55", "6", "7", "8", "9"], preset="qingdao")
    choice = decide(state, 1, HeuristicPolicy(), random.Random(0))
    assert choice is not None and _cards(choice) == "772S"
