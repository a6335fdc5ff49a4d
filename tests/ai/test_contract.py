"""The Policy contract: legal choices only, determinism, whole hands under every preset."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.ai import (
    HeuristicPolicy,
    Policy,
    PolicyError,
    RandomPolicy,
    Role,
    burn_order,
    decide,
    options,
    play_hand,
    role_of,
)
from bot.engine import PRESET_NAMES, Action, ActionKind, Tribute, make_rules, new_hand
from bot.engine.game import next_leader
from bot.engine.rules import deck_size
from bot.engine.state import SEATS, HandState, Phase, SeatStatus
from bot.engine.views import SeatView

from .helpers import Checked, act, play, table


def _policies(kind: str, rules_preset: str) -> list[Policy]:
    rules = make_rules(rules_preset)
    if kind == "heuristic":
        return [HeuristicPolicy(rules) for _ in SEATS]
    if kind == "random":
        return [RandomPolicy() for _ in SEATS]
    return [HeuristicPolicy(rules) if s % 2 else RandomPolicy() for s in SEATS]


def _cards_in_play(state: HandState) -> int:
    return sum(map(sum, state.hands)) + sum(state.played) + sum(state.discarded)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_six_heuristic_seats_finish_every_preset_with_cards_conserved(preset: str) -> None:
    rules = make_rules(preset)
    for seed in range(3):
        state, _ = new_hand(rules, seed)
        checked = [Checked(HeuristicPolicy(rules)) for _ in SEATS]
        log = play_hand(state, checked, random.Random(seed))
        end = log.state
        assert end.phase in (Phase.OVER, Phase.VOIDED)
        assert _cards_in_play(end) == deck_size(rules)
        if end.phase is Phase.OVER:
            assert end.result is not None
            assert sorted(end.result.places) == list(SEATS)
        assert all(c.calls for c in checked)  # every seat really played


@pytest.mark.parametrize("kind", ["random", "mixed"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_and_mixed_tables_finish(preset: str, kind: str) -> None:
    rules = make_rules(preset)
    state, _ = new_hand(rules, 11)
    policies: list[Policy] = [Checked(p) for p in _policies(kind, preset)]
    log = play_hand(state, policies, random.Random(11))
    assert log.state.over
    assert _cards_in_play(log.state) == deck_size(rules)


@pytest.mark.parametrize("kind", ["heuristic", "random", "mixed"])
def test_same_seed_same_hand(kind: str) -> None:
    def run(seed: int) -> list[tuple[int, Action]]:
        state, _ = new_hand(make_rules("weifang"), 5)
        return play_hand(state, _policies(kind, "weifang"), random.Random(seed)).actions

    first = run(3)
    assert first == run(3)
    if kind != "heuristic":
        assert first != run(4)  # the rng really drives the random seats


def test_a_match_of_hands_with_tribute_and_returns() -> None:
    rules = make_rules("dagang")
    policies = _policies("mixed", "dagang")
    owed: tuple[Tribute, ...] = ()
    leader: int | None = None
    returned = 0
    for seed in range(6):
        state, _ = new_hand(rules, 100 + seed, leader=leader, owed=owed)
        log = play_hand(state, policies, random.Random(seed))
        returned += sum(1 for _, a in log.actions if a.kind is ActionKind.RETURN_TRIBUTE)
        assert _cards_in_play(log.state) == deck_size(rules)
        assert log.state.result is not None
        if not log.state.result.voided:
            owed = log.state.result.tributes
            leader = next_leader(log.state)
    assert returned > 0  # the 还贡 path ran


def test_decide_is_none_for_a_seat_with_nothing_to_do() -> None:
    state = play(table(["55", "66", "77", "88", "99", "TT"]), 1, "55")
    assert state.to_act == 2
    for seat in (1, 3, 4, 5, 6):
        assert decide(state, seat, HeuristicPolicy(), random.Random(1)) is None
        assert decide(state, seat, RandomPolicy(optional_rate=1.0), random.Random(1)) is None


def test_options_drop_ask_count_and_roles() -> None:
    state = table(["55", "66", "77", "88", "99", "TT"])
    legal = options(state, 1)
    assert legal and all(a.kind is not ActionKind.ASK_COUNT for a in legal)
    assert role_of(legal, state, 1) is Role.TURN
    state = play(state, 1, "55")
    assert role_of(options(state, 3), state, 3) is None


class _Illegal:
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return Action(ActionKind.PLAY, (9,) + (0,) * 14)


class _Silent:
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return None


def test_decide_refuses_contract_breaches() -> None:
    state = table(["55", "66", "77", "88", "99", "TT"])
    with pytest.raises(PolicyError):
        decide(state, 1, _Illegal(), random.Random(1))
    with pytest.raises(PolicyError):
        decide(state, 1, _Silent(), random.Random(1))


def test_burn_order_puts_the_players_teammate_first_under_team_priority() -> None:
    hands = ["KK5", "AA6", "AA7", "338", "AA9", "AAT"]
    state = play(table(hands), 1, "KK")
    assert state.top_gouji
    # Window: every seat but the player (1) and its opposite (4).
    assert burn_order(state) == [3, 5, 2, 6]
    order_rules = table(hands, preset="weifang")
    state = play(order_rules, 1, "KK")
    assert burn_order(state) == [2, 3, 5, 6]


def test_random_policy_always_makes_progress_on_its_turn() -> None:
    state = table(["55", "66", "77", "88", "99", "TT"])
    state = play(state, 1, "55")
    policy = RandomPolicy(optional_rate=1.0)
    for seed in range(20):
        choice = decide(state, 2, policy, random.Random(seed))
        assert choice is not None and choice.kind in (ActionKind.PLAY, ActionKind.PASS)


def test_random_policy_declines_optional_moves_sometimes() -> None:
    # Seat 2 holds no 2s or jokers: it may revolt before the first play.
    state = table(["55S", "66", "77", "88", "99", "TT"])
    assert any(a.kind is ActionKind.REVOLT for a in options(state, 2))
    choices = {decide(state, 2, RandomPolicy(), random.Random(seed)) for seed in range(40)}
    assert None in choices
    assert any(c is not None and c.kind is ActionKind.REVOLT for c in choices)


def test_revolted_seat_is_never_asked_again() -> None:
    state = table(["55S", "66", "77", "88", "99", "TT"])
    state = act(state, 2, ActionKind.REVOLT)
    assert state.status[1] is SeatStatus.REVOLTED
    assert decide(state, 2, RandomPolicy(optional_rate=1.0), random.Random(0)) is None


def test_the_level_names_type_lists_every_level() -> None:
    from bot.ai.levels import LEVELS, Level

    assert tuple(level.value for level in Level) == LEVELS
