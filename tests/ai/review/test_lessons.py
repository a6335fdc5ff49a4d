"""The lecture's lessons (bot.ai.lessons): each names its own pattern and not another's."""

from __future__ import annotations

from typing import Any

from bot.ai.lessons import Lesson, lesson_for
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import parse
from bot.engine.views import SeatView, seat_view
from bot.records.scenario import replay_scenario

PASS = Action(ActionKind.PASS)


def play(cards: str) -> Action:
    return Action(ActionKind.PLAY, parse(cards))


def view_after(
    hands: list[str], actions: list[dict[str, Any]], preset: str = "dagang", leader: int = 1
) -> SeatView:
    """The view of the seat to act after ``actions`` (a small scenario)."""
    sc = {"preset": preset, "switches": {}, "hands": hands, "leader": leader, "actions": actions}
    hand = replay_scenario(sc)[0]
    assert not hand.refused, hand.refused
    state = hand.states[-1]
    assert state.to_act is not None
    return seat_view(state, state.to_act)


def test_big_joker_on_an_ordinary_single() -> None:
    view = view_after(
        ["KK5", "B9" + "6" * 12, "3", "3", "3", "3"], [{"seat": 1, "do": "play", "cards": "5"}]
    )
    assert lesson_for(view, play("B"), PASS) is Lesson.KEEP_BIG_JOKER
    assert lesson_for(view, play("9"), PASS) is None


def test_a_gouji_set_split_for_a_small_single() -> None:
    view = view_after(["5", "KK9", "3", "3", "3", "3"], [{"seat": 1, "do": "play", "cards": "5"}])
    assert lesson_for(view, play("K"), play("9")) is Lesson.KEEP_GOUJI_SET
    assert lesson_for(view, play("K"), play("K")) is None  # both split it: no lesson


def test_passing_the_opposites_gouji() -> None:
    view = view_after(
        ["KK5", "3", "3", "AA9", "3", "3"], [{"seat": 1, "do": "play", "cards": "KK"}]
    )
    assert view.seat == 4
    assert lesson_for(view, PASS, play("AA")) is Lesson.ANSWER_OPPOSITE_GOUJI


def test_beating_a_teammate_and_letting_a_runner_go() -> None:
    # Seat 3 answers its teammate seat 1's 5 (seat 2 passed): the better move is a pass.
    view = view_after(
        ["5" + "4" * 12, "6", "9" + "4" * 12, "3", "3", "3"],
        [{"seat": 1, "do": "play", "cards": "5"}, {"seat": 2, "do": "pass"}],
    )
    assert view.seat == 3
    assert lesson_for(view, play("9"), PASS) is Lesson.TEAMMATE
    # Seat 2 passes on seat 1, who holds two cards (shown under 10): stop the runner.
    view = view_after(
        ["577", "9" + "4" * 12, "3", "3", "3", "3"], [{"seat": 1, "do": "play", "cards": "5"}]
    )
    assert lesson_for(view, PASS, play("9")) is Lesson.STOP_RUNNER


def test_leads_small_sets_and_threes_first() -> None:
    view = view_after(["33599K", "4", "4", "4", "4", "4"], [])
    assert lesson_for(view, play("K"), play("5")) is Lesson.LEAD_SMALL
    assert lesson_for(view, play("99"), play("33")) is Lesson.LEAD_THREES


def test_the_lone_three_and_the_big_cards_of_the_second_half() -> None:
    # 憋三 (qingdao): seat 2 holds a 3 and spends its 2 on a single 8 where the 9 would do.
    view = view_after(
        ["8" + "5" * 12, "329", "3", "3", "3", "3"],
        [{"seat": 1, "do": "play", "cards": "8"}],
        preset="qingdao",
    )
    assert lesson_for(view, play("2"), play("9")) is Lesson.LONE_THREE
    assert lesson_for(view, play("9"), play("2")) is None
    # Early (more than 12 cards): an ace on an ordinary single, where passing was better.
    view = view_after(
        ["8" + "5" * 12, "A" + "4" * 13, "3", "3", "3", "3"],
        [{"seat": 1, "do": "play", "cards": "8"}],
    )
    assert lesson_for(view, play("A"), PASS) is Lesson.BIG_CARDS_LATE
