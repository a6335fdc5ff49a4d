"""Rules v2 (RULES.md §5, §8–§15) beyond the scenario files: the preset table of §14, the 点
streak a hand takes from its match, int-only seats in the API, and conservation of cards
through 烩 and 冲点."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    ActionKind,
    HuiRanks,
    IllegalAction,
    Tribute,
    apply,
    from_hands,
    legal_actions,
    legal_plays,
    make_rules,
    new_hand,
)
from bot.engine.cards import NUM_RANKS, Counts, parse
from bot.engine.errors import ErrorCode, RulesError
from bot.engine.rules import upgrade_overrides
from bot.engine.state import NO_STREAKS, HandState
from bot.engine.views import seat_view

# RULES §14, row by row and the "All presets" paragraph: (switch, value) per preset.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "dagang": {
        "remove_threes": 0, "remove_fours": 0, "bie_san": False, "dadian": False,
        "dian_si": False, "count_rule": "ask_le10", "tie_qian": True, "rang": True,
        "tribute": True, "revolution": "no_hua_qian", "positive_only": True,
        "revolt_opposite_opens": "three_plays", "next_leader": "loser",
        "point_bet_success": "opposite_not_opened", "chongdian": False, "point_bets": True,
        "burn_priority": "team", "burn_success": "out", "men_is_last": False,
        "burn_requires_kaidian": False, "see_team_after_out": False,
    },
    "qingdao": {
        "remove_threes": 10, "remove_fours": 8, "bie_san": True, "dadian": True,
        "dian_si": True, "count_rule": "ask_lt10", "revolution": "no_hua_qian_34",
        "burn_requires_kaidian": True, "men_is_last": True, "see_team_after_out": True,
        "positive_only": False, "revolt_opposite_opens": "auto",
        "point_bet_success": "both", "chongdian": False, "burn_priority": "order",
    },
    "weifang": {
        "remove_threes": 0, "remove_fours": 0, "bie_san": True, "dadian": True,
        "kaidian_twos": "pair", "dian_si": False, "count_rule": "always",
        "revolution": "no_hua_qian", "men_is_last": True, "positive_only": False,
        "revolt_opposite_opens": "auto", "point_bet_success": "opposite_not_opened",
        "chongdian": False, "burn_priority": "order", "see_team_after_out": False,
    },
    "dazhong": {
        "remove_threes": 10, "remove_fours": 0, "bie_san": True, "dadian": True,
        "dian_si": True, "kill_three_twos": True, "count_rule": "never",
        "burn_requires_kaidian": True, "men_is_last": True, "see_team_after_out": True,
        "revolution": "no_hua_qian", "positive_only": False,
        "revolt_opposite_opens": "auto", "point_bet_success": "both", "chongdian": True,
        "burn_priority": "order",
    },
    "match": {
        "remove_threes": 0, "bie_san": True, "dadian": True, "dian_si": False,
        "kill_three_twos": True, "count_rule": "never", "revolution": "off",
        "tribute": False, "scoring": "competition", "score_table": (2, 1, 0, 0, -1, -2),
        "sweep_multiplier": 1, "kaidian_plays": "no_big_joker", "move_seconds": 30,
        "positive_only": True, "next_leader": "rotate", "failed_burn_opens_opposite": True,
        "point_bets": False, "burn_success": "first_trick", "burn_priority": "team",
    },
}  # fmt: skip
ALL_PRESETS = {
    "opposite_final_say": True, "rang": True, "tie_qian": True,
    "small_joker_beaten_by": "bigs", "mixed_jokers": "big", "gouji_twos": 1,
    "tribute_return": "luo", "hui": "off", "point_streak": False,
    "counter_burn_double": False, "sweep_tribute": "opposite", "kill_two_big": False,
    "kill_three_small": False, "point_bet_fail_double": False,
}  # fmt: skip


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_presets_follow_the_table_of_section_14(preset: str) -> None:
    rules = make_rules(preset)
    for name, want in {**ALL_PRESETS, **PRESET_TABLE[preset]}.items():
        assert getattr(rules, name) == want, (preset, name)
    if preset != "match":
        assert rules.failed_burn_opens_opposite is False
        assert rules.kaidian_plays == "pure"


def test_tribute_return_is_no_longer_a_boolean_but_stored_booleans_migrate() -> None:
    with pytest.raises(RulesError) as err:
        make_rules("dagang", {"tribute_return": True})
    assert err.value.code is ErrorCode.BAD_SWITCH_VALUE
    assert upgrade_overrides({"tribute_return": True}) == {"tribute_return": "all"}
    assert upgrade_overrides({"tribute_return": False, "rang": False}) == {
        "tribute_return": "none",
        "rang": False,
    }
    assert make_rules("dagang", upgrade_overrides({"tribute_return": False})).tribute_return == (
        "none"
    )


# -- int seats everywhere (issue 9 item 3) ------------------------------------------------
def _start() -> HandState:
    hands = [parse(h) for h in ("55", "66", "77", "88", "99", "TT")]
    state, _ = from_hands(make_rules("dagang"), hands, 1)
    return state


@pytest.mark.parametrize("bad", [1.0, True, "1", None, 0, 7])
def test_apply_refuses_seats_that_are_not_ints_1_to_6(bad: Any) -> None:
    state = _start()
    with pytest.raises(IllegalAction) as err:
        apply(state, bad, Action(ActionKind.PLAY, parse("55")))
    assert err.value.code is ErrorCode.BAD_SEAT
    for query in (legal_plays, legal_actions, seat_view):
        with pytest.raises(IllegalAction) as err:
            query(state, bad)
        assert err.value.code is ErrorCode.BAD_SEAT


@pytest.mark.parametrize("bad", [1.0, True, "2", 0])
def test_targets_must_be_ints(bad: Any) -> None:
    state = _start()
    with pytest.raises(IllegalAction) as err:
        apply(state, 2, Action(ActionKind.ASK_COUNT, target=bad))
    assert err.value.code is ErrorCode.BAD_TARGET
    if type(bad) is not int:  # the range is checked when the action is applied
        with pytest.raises(IllegalAction) as err:
            Action.from_json({"do": "ask_count", "target": bad})
        assert err.value.code is ErrorCode.BAD_TARGET


def test_hand_setup_refuses_float_seats_and_bad_streaks() -> None:
    rules = make_rules("dagang", {"dadian": True})
    hands = [parse("5")] * 6
    for kwargs in (
        {"leader": 1.0},
        {"leader": 1, "owed": [Tribute(1.0, 2, 1, "luo")]},  # type: ignore[arg-type]
        {"leader": 1, "pre_points": [True]},
    ):
        with pytest.raises(IllegalAction) as err:
            from_hands(rules, hands, **kwargs)  # type: ignore[arg-type]
        assert err.value.code is ErrorCode.BAD_SEAT
    for streaks in ((0,) * 5, (0, 0, 0, 0, 0, 4), (0, 0, 0, 0, 0, 1.0), (0, 0, 0, 0, 0, -1)):
        with pytest.raises(IllegalAction) as err:
            new_hand(rules, 1, 1, streaks=streaks)  # type: ignore[arg-type]
        assert err.value.code is ErrorCode.BAD_STREAKS


# -- 点 streak (point_streak) -----------------------------------------------------------------
STREAK = make_rules("dagang", {"dadian": True, "point_streak": True})
# 1 opens with KK and goes out (头科); 2 goes out (二科): 2..6 never opened.
HANDS = ("KK5", "6", "7", "8", "9", "T")
PLAYS = [(1, "KK"), (4, None), (1, "5"), (2, "6"), (3, "7"), (4, "8"), (5, "9")]


def _play_hand(rules: Any, streaks: tuple[int, ...], declare: tuple[int, ...] = ()) -> HandState:
    state, _ = from_hands(rules, [parse(h) for h in HANDS], 1, streaks=streaks)
    for d in declare:
        state, _ = apply(state, d, Action(ActionKind.DECLARE_POINT))
    for seat, cards in PLAYS:
        act = Action(ActionKind.PASS) if cards is None else Action(ActionKind.PLAY, parse(cards))
        state, _ = apply(state, seat, act)
    assert state.over and state.result is not None
    return state


def _points(state: HandState) -> dict[int, int]:
    assert state.result is not None
    return {t.giver: t.count for t in state.result.tributes if t.kind == "point"}


def test_point_streak_grows_the_point_tribute_and_is_carried() -> None:
    state = _play_hand(STREAK, (0, 1, 2, 0, 0, 0))
    # 4 fails a first time (1 card); 2 a second (2 cards); 3 a third (3 cards).
    assert _points(state) == {4: 1, 2: 2, 3: 3, 5: 1, 6: 1}
    assert state.result is not None
    assert state.result.streaks == (0, 2, 3, 1, 1, 1)  # 1 opened: its streak is reset


def test_fourth_hand_of_a_streak_is_exempt_and_the_cycle_restarts() -> None:
    state = _play_hand(STREAK, (0, 0, 3, 0, 0, 0))
    assert 3 not in _points(state)  # 毕业: no 点贡
    assert state.result is not None and state.result.streaks[2] == 0
    start, _ = from_hands(STREAK, [parse(h) for h in HANDS], 1, streaks=(0, 0, 3, 0, 0, 0))
    with pytest.raises(IllegalAction) as err:  # a bet against an exempt seat
        apply(start, 6, Action(ActionKind.DECLARE_POINT))
    assert err.value.code is ErrorCode.DECLARE_NOT_ALLOWED
    with pytest.raises(IllegalAction):
        from_hands(STREAK, [parse(h) for h in HANDS], 1, pre_points=[6], streaks=(0, 0, 3, 0, 0, 0))


def test_a_right_bet_replaces_the_streak_count() -> None:
    state = _play_hand(STREAK, (0, 0, 2, 0, 0, 0), declare=(6,))
    assert state.result is not None
    assert 3 not in _points(state)
    assert [t.count for t in state.result.tributes if t.kind == "mingdian"] == [2]


def test_streaks_off_or_voided_hand() -> None:
    plain = make_rules("dagang", {"dadian": True})
    state = _play_hand(plain, (0, 1, 2, 0, 0, 0))
    assert _points(state) == {4: 1, 2: 1, 3: 1, 5: 1, 6: 1}
    assert state.result is not None and state.result.streaks == NO_STREAKS
    revolt = [parse(h) for h in ("5", "6", "7", "8", "9", "T")]
    voided, _ = from_hands(STREAK, revolt, 1, streaks=(1, 2, 3, 0, 1, 2))
    voided, _ = apply(voided, 1, Action(ActionKind.REVOLT))
    voided, _ = apply(voided, 2, Action(ActionKind.REVOLT))
    assert voided.result is not None and voided.result.voided
    assert voided.result.streaks == (1, 2, 3, 0, 1, 2)  # neither extended nor broken


# -- cards are conserved through 烩 and 冲点 -------------------------------------------------
def _total(state: HandState) -> int:
    return (
        sum(map(sum, state.hands)) + sum(state.played) + sum(state.discarded) + sum(state.set_aside)
    )


def _play_out(state: HandState, rng: random.Random) -> HandState:
    start = _total(state)
    for _ in range(3000):
        if state.over:
            break
        options = [
            (s, a)
            for s in range(1, 7)
            for a in legal_actions(state, s)
            if a.kind is not ActionKind.ASK_COUNT
        ]
        assert options, "no seat can act"
        seat, action = rng.choice(options)
        state, _ = apply(state, seat, action)  # an offered action is never refused
        assert _total(state) == start
    assert state.over
    return state


plain_hand = st.lists(st.integers(0, 11), min_size=1, max_size=12).map(
    lambda idx: tuple(idx.count(i) for i in range(NUM_RANKS))
)
any_hand = st.lists(st.integers(0, NUM_RANKS - 1), min_size=1, max_size=12).map(
    lambda idx: tuple(idx.count(i) for i in range(NUM_RANKS))
)


@settings(max_examples=40, deadline=None)
@given(hands=st.lists(any_hand, min_size=6, max_size=6), seed=st.integers(0, 10**6))
def test_cards_are_conserved_through_hui(hands: list[Counts], seed: int) -> None:
    rules = make_rules("dagang", {"hui": "threes_fours", "dadian": True, "dian_si": True})
    state, _ = from_hands(rules, hands, 1)
    rng = random.Random(seed)
    ranks = rng.choice(list(HuiRanks))
    if state.to_act is not None:
        state, _ = apply(state, state.to_act, Action.hui(ranks))
        assert not any(h[0] for h in state.hands) or ranks is HuiRanks.FOURS
    _play_out(state, rng)


@settings(max_examples=40, deadline=None)
@given(
    others=st.lists(any_hand, min_size=5, max_size=5),
    rest=plain_hand,
    seed=st.integers(0, 10**6),
)
def test_cards_are_conserved_through_chongdian(
    others: list[Counts], rest: Counts, seed: int
) -> None:
    # Seat 3 holds no 2 and no joker and three pure 够级牌 (TTTTT, JJJJ, QQQ) besides.
    pure = parse("TTTTTJJJJQQQ")
    revolter = tuple(a + b for a, b in zip(pure, rest, strict=True))
    hands = [*others[:2], revolter, *others[2:]]
    rules = make_rules("dagang", {"dadian": True, "chongdian": True})
    state, _ = from_hands(rules, hands, 1)
    state, _ = apply(state, 3, Action(ActionKind.REVOLT))
    if state.over:
        return
    state, _ = apply(state, 3, Action.chongdian())
    final = _play_out(state, random.Random(seed))
    assert final.chong is not None and not final.chong.in_progress


def test_match_rotates_the_leader() -> None:
    from bot.engine import next_leader

    # seed 003 "以后本局每把牌采用逆时针轮流先抓牌、出牌": the next seat leads, not 大落.
    for preset, want in (("match", 3), ("dagang", 1)):
        rules = make_rules(preset, {"bie_san": False})
        state, _ = from_hands(rules, [parse(h) for h in ("3", "5", "6", "7", "8", "9")], 2)
        for seat, cards in ((2, "5"), (3, "6"), (4, "7"), (5, "8"), (6, "9")):
            state, _ = apply(state, seat, Action(ActionKind.PLAY, parse(cards)))
        assert state.over and state.result is not None
        assert state.result.places[-1] == 1  # 大落
        assert next_leader(state) == want, preset


def test_hui_is_off_by_default_and_only_the_first_leader_may() -> None:
    hands = [parse(h) for h in ("3345", "36", "3337", "48", "9", "T33")]
    state, _ = from_hands(make_rules("dagang"), hands, 1)
    with pytest.raises(IllegalAction) as err:
        apply(state, 1, Action.hui(HuiRanks.THREES))
    assert err.value.code is ErrorCode.HUI_NOT_ALLOWED
    on, _ = from_hands(make_rules("dagang", {"hui": "threes"}), hands, 1)
    assert [a.ranks for a in legal_actions(on, 1) if a.kind is ActionKind.HUI] == [HuiRanks.THREES]
    assert not [a for a in legal_actions(on, 2) if a.kind is ActionKind.HUI]
    with pytest.raises(IllegalAction) as err:
        Action.from_json({"do": "hui", "ranks": "5"})
    assert err.value.code is ErrorCode.HUI_NOT_ALLOWED


def test_plays_offered_while_buy_three_waits_are_those_after_it() -> None:
    # 2 may revolt, so 买3 waits; if 2 leads instead, it first buys a 3 from 5 with its 9.
    hands = [parse(h) for h in ("5533", "6789", "2733", "8833", "333S9", "T33")]
    state, _ = from_hands(make_rules("weifang"), hands, 2, buy=True)
    assert state.buy_pending and state.hands[1] == parse("6789")
    offered = legal_plays(state, 2)
    assert offered and all(p.base != 9 for p in offered)
    for p in offered:
        after, events = apply(state, 2, Action.play(p))
        assert events[0].kind.value == "bought" and not after.buy_pending
