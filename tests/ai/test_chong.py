"""冲点 (大众场): when a revolter leads its three pure 够级牌, and how both sides play it."""

from __future__ import annotations

import random

from bot.ai import NormalPolicy, decide, play_hand, policy_for
from bot.ai.chong import all_beaten, fail_chance, lead
from bot.engine import ActionKind, make_rules, parse
from bot.engine.views import seat_view

from .helpers import act, table

# 大众: 打点 and 冲点 on, 憋三 (so a revolter holds no 3), 3s trimmed from the deck.
PRESET = "dazhong"
OTHERS = "345678899TJQKA2S"  # a dull hand for the seats that do not matter


def _revolted(revolter: str, opposite: str = OTHERS) -> object:
    # Seat 3 revolts; seat 6 is its opposite.
    hands = [OTHERS, OTHERS, revolter, OTHERS, OTHERS, opposite]
    return act(table(hands, preset=PRESET), 3, ActionKind.REVOLT)


def test_strong_sets_choose_chongdian() -> None:
    # Eight As, seven Ks, six Qs: beating each needs a set that size of 2s and jokers.
    state = _revolted("44556677AAAAAAAAKKKKKKKQQQQQQ")
    choice = decide(state, 3, NormalPolicy(state.rules), random.Random(1))
    assert choice is not None and choice.kind is ActionKind.CHONGDIAN


def test_minimal_sets_do_not_chongdian() -> None:
    # TTTTT, JJJJ, QQQ: almost any opposite beats all three, and the revolter falls to 大落.
    state = _revolted("4455667788TTTTTJJJJQQQ")
    view = seat_view(state, 3)
    assert fail_chance(view, random.Random(1)) > 0.5
    assert decide(state, 3, NormalPolicy(state.rules), random.Random(1)) is None


def test_leads_hardest_first_and_keeps_enough_for_the_rest() -> None:
    # AAAA (or AAA) would leave one pure set for the two plays still due: KKK goes first.
    first = lead(parse("AAAAKKK"), 3)
    assert first is not None and (first.base, first.n) == (13, 3)
    best = lead(parse("AAAAKKKQQQ"), 3)
    assert best is not None and (best.base, best.n) == (14, 4)
    rules = make_rules(PRESET)
    assert all_beaten(parse("TTTTTJJJJQQQ"), parse("JJJJJQQQQKKK"), rules)
    assert not all_beaten(parse("TTTTTJJJJQQQ"), parse("JJJJJQQQQ"), rules)


def test_the_opposite_answers_a_chongdian_play_with_a_pure_set() -> None:
    state = _revolted("44556677AAAAAAAAKKKKKKKQQQQQQ", opposite="456789KKKKKK2")
    state = act(state, 3, ActionKind.CHONGDIAN)
    state = act(state, 3, ActionKind.PLAY, "QQQQQQ")
    assert state.to_act == 6
    choice = decide(state, 6, NormalPolicy(state.rules), random.Random(1))
    assert choice is not None and choice.kind is ActionKind.PLAY


def test_a_normal_revolter_is_asked_again_and_chongdians_in_a_whole_hand() -> None:
    state = table(
        [OTHERS, OTHERS, "44556677AAAAAAAAKKKKKKKQQQQQQ", OTHERS, OTHERS, OTHERS], preset=PRESET
    )
    normal = policy_for("normal", state.rules)
    log = play_hand(state, [normal] * 6, random.Random(3))
    kinds = [(seat, a.kind) for seat, a in log.actions]
    assert (3, ActionKind.REVOLT) in kinds and (3, ActionKind.CHONGDIAN) in kinds
    assert log.state.chong is not None and not log.state.chong.in_progress
