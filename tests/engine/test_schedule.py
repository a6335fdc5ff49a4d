"""The engine's schedule: burn_priority, resolve_burns (RULES.md §8) and pending_decisions."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Action, ActionKind, ErrorCode, IllegalAction, apply, from_hands, make_rules
from bot.engine.cards import NUM_RANKS, Counts, parse
from bot.engine.schedule import (
    BurnDeclaration,
    Decision,
    DecisionKind,
    burn_priority,
    pending_decisions,
    resolve_burns,
)
from bot.engine.state import HandState, Tribute


def _window(preset_switches: dict[str, object], hands: list[str]) -> HandState:
    """Seat 1 leads TTTTT (a 够级牌); seats 2, 3, 5, 6 may burn it."""
    rules = make_rules("dagang", preset_switches)
    state, _ = from_hands(rules, [parse(h) for h in hands], 1)
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("TTTTT")))
    return state


def _decl(seat: int, cards: str) -> BurnDeclaration:
    return BurnDeclaration(seat, parse(cards))


HANDS = ["TTTTT6", "JJJJJ9", "QQQQQ9", "9", "KKKKK9", "AAAAA9"]


def test_burn_priority_team_puts_the_players_teammates_first() -> None:
    state = _window({"burn_priority": "team"}, HANDS)
    assert burn_priority(state) == (3, 5, 2, 6)


def test_burn_priority_order_goes_counter_clockwise_from_the_player() -> None:
    state = _window({"burn_priority": "order"}, HANDS)
    assert burn_priority(state) == (2, 3, 5, 6)


def test_team_priority_teammate_burns_first_and_a_weaker_opponent_is_superseded() -> None:
    state = _window({"burn_priority": "team"}, HANDS)
    res = resolve_burns(state, [_decl(2, "JJJJJ"), _decl(3, "QQQQQ")])
    assert [o.to_json() for o in res.outcomes] == [
        {"seat": 2, "ok": False, "error": "burn_superseded"},
        {"seat": 3, "ok": True},
    ]
    assert res.state.burner == 3 and res.state.top_seat == 3


def test_order_priority_a_later_opponent_counter_burns() -> None:
    state = _window({"burn_priority": "order"}, HANDS)
    res = resolve_burns(state, [_decl(3, "QQQQQ"), _decl(2, "JJJJJ")])
    assert [o.ok for o in res.outcomes] == [True, True]
    assert res.state.burner == 3 and res.state.top_play is not None
    assert res.state.top_play.notation() == "QQQQQ"
    kinds = [e.kind.value for e in res.events]
    assert kinds.count("burned") == 2 and "burn_released" in kinds


def test_a_stronger_opponent_counter_burns_the_teammates_burn() -> None:
    hands = ["TTTTT6", "AAAAA9", "QQQQQ9", "9", "KKKKK9", "KKKKK8"]
    state = _window({"burn_priority": "team"}, hands)
    decls = [_decl(6, "KKKKK"), _decl(3, "QQQQQ"), _decl(5, "KKKKK"), _decl(2, "AAAAA")]
    res = resolve_burns(state, decls)
    # 3 burns first (teammate, play order); 5 is 3's teammate: superseded; 2 beats QQQQQ:
    # 反烧; 6 now faces its teammate 2: superseded.
    assert [o.to_json() for o in res.outcomes] == [
        {"seat": 6, "ok": False, "error": "burn_superseded"},
        {"seat": 3, "ok": True},
        {"seat": 5, "ok": False, "error": "burn_superseded"},
        {"seat": 2, "ok": True},
    ]
    assert res.state.burner == 2


def test_the_burners_opposite_cannot_counter_burn() -> None:
    state = _window({"burn_priority": "team"}, HANDS)
    res = resolve_burns(state, [_decl(6, "AAAAA"), _decl(3, "QQQQQ")])
    # 6 is opposite 3: it answers 3's burn in its turn, it does not burn it.
    assert [o.error for o in res.outcomes] == [ErrorCode.BURN_SUPERSEDED, None]
    assert res.state.to_act == 6


def test_a_declaration_never_legal_keeps_its_own_code() -> None:
    hands = ["TTTTT6", "JJJJJ9876", "QQQQQ9", "9", "9", "9"]
    state = _window({"burn_priority": "order"}, hands)
    res = resolve_burns(state, [_decl(2, "JJJJJ"), _decl(3, "QQQQQ"), _decl(4, "9")])
    assert [o.to_json() for o in res.outcomes] == [
        {"seat": 2, "ok": False, "error": "burn_formula"},
        {"seat": 3, "ok": True},
        {"seat": 4, "ok": False, "error": "burn_not_allowed"},
    ]


def test_nothing_legal_changes_nothing() -> None:
    state = _window({}, HANDS)
    res = resolve_burns(state, [_decl(2, "9")])
    assert not res.any_burned and res.state == state and res.events == ()
    assert res.outcomes[0].error is ErrorCode.SIZE_MISMATCH


def test_a_seat_declares_once_per_window() -> None:
    state = _window({}, HANDS)
    res = resolve_burns(state, [_decl(2, "JJJJJ"), _decl(2, "JJJJJ")])
    assert [o.error for o in res.outcomes] == [None, ErrorCode.BURN_NOT_ALLOWED]


def test_a_single_declaration_is_the_burn_action() -> None:
    state = _window({}, HANDS)
    res = resolve_burns(state, [_decl(5, "KKKKK")])
    direct, events = apply(state, 5, Action(ActionKind.BURN, parse("KKKKK")))
    assert res.state == direct and list(res.events) == events


# -- property: any declaration order gives the burn_priority result -------------------
high = st.lists(st.integers(8, NUM_RANKS - 1), min_size=1, max_size=8)  # J..B


def _counts(idx: list[int]) -> Counts:
    return tuple(idx.count(i) for i in range(NUM_RANKS))


def _sub(hand: Counts, picks: list[int]) -> Counts:
    """A non-empty sub-multiset of ``hand`` chosen by ``picks``."""
    out = [0] * NUM_RANKS
    ranks = [i for i in range(NUM_RANKS) if hand[i]]
    for p in picks:
        i = ranks[p % len(ranks)]
        if out[i] < hand[i]:
            out[i] += 1
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(
    hands=st.lists(high, min_size=4, max_size=4),
    picks=st.lists(st.lists(st.integers(0, 20), min_size=1, max_size=6), min_size=4, max_size=4),
    who=st.lists(st.sampled_from([2, 3, 5, 6]), min_size=1, max_size=4, unique=True),
    priority=st.sampled_from(["team", "order"]),
    perm=st.randoms(use_true_random=False),
)
def test_any_declaration_order_gives_the_burn_priority_result(
    hands: list[list[int]],
    picks: list[list[int]],
    who: list[int],
    priority: str,
    perm: object,
) -> None:
    window_seats = (2, 3, 5, 6)
    full = [parse("TTTTT6"), parse("9"), parse("9"), parse("9"), parse("9"), parse("9")]
    for seat, idx in zip(window_seats, hands, strict=True):
        full[seat - 1] = _counts(idx)
    rules = make_rules("dagang", {"burn_priority": priority, "burn_limit": 13})
    state, _ = from_hands(rules, full, 1)
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("TTTTT")))
    declared = [BurnDeclaration(s, _sub(full[s - 1], picks[window_seats.index(s)])) for s in who]
    order = burn_priority(state)
    by_priority = sorted(declared, key=lambda d: order.index(d.seat))
    want = resolve_burns(state, by_priority)
    shuffled = list(declared)
    perm.shuffle(shuffled)  # type: ignore[attr-defined]
    got = resolve_burns(state, shuffled)
    assert got.state == want.state
    assert got.events == want.events
    assert {o.seat: o.error for o in got.outcomes} == {o.seat: o.error for o in want.outcomes}
    # The burn_priority result itself: the burns that took effect, applied one by one in
    # priority order with ``apply``, give the same state.
    cur = state
    for d in by_priority:
        if {o.seat: o.ok for o in want.outcomes}[d.seat]:
            cur, _ = apply(cur, d.seat, d.action())
    assert cur == want.state
    # Each refusal is either the declaration's own refusal against the window's play, or
    # burn_superseded for one that was legal there.
    for o in want.outcomes:
        if o.ok:
            continue
        d = next(x for x in declared if x.seat == o.seat)
        try:
            apply(state, d.seat, d.action())
        except IllegalAction as err:
            assert o.error is err.code
        else:
            assert o.error is ErrorCode.BURN_SUPERSEDED


def test_all_orders_of_three_declarations_agree() -> None:
    state = _window({"burn_priority": "order"}, HANDS)
    decls = [_decl(2, "JJJJJ"), _decl(3, "QQQQQ"), _decl(5, "KKKKK"), _decl(6, "AAAAA")]
    results = {
        (r := resolve_burns(state, list(p))).state: tuple(
            sorted((o.seat, o.ok) for o in r.outcomes)
        )
        for p in itertools.permutations(decls)
    }
    assert len(results) == 1
    # order: 2 burns, 3 (its opponent) 反烧 with QQQQQ; 5 is 3's teammate and 6 its
    # opposite: both superseded.
    ((final, outcomes),) = results.items()
    assert final.burner == 3
    assert outcomes == ((2, True), (3, True), (5, False), (6, False))


# -- pending_decisions ----------------------------------------------------------------
def test_pending_returns_come_first_and_are_required() -> None:
    rules = make_rules("dagang")
    hands = [parse(h) for h in ["B5", "S6", "27", "58", "69", "7T"]]
    owed = [Tribute(1, 4, 1, "luo"), Tribute(3, 2, 1, "luo")]
    state, _ = from_hands(rules, hands, 1, owed)
    assert pending_decisions(state) == (
        Decision(4, DecisionKind.RETURN_TRIBUTE, True),
        Decision(2, DecisionKind.RETURN_TRIBUTE, True),
    )


def test_pre_play_seats_then_the_leaders_turn() -> None:
    rules = make_rules("dagang")
    hands = [parse(h) for h in ["2KK", "55", "S6", "B7", "28", "29"]]
    state, _ = from_hands(rules, hands, 1)
    decisions = pending_decisions(state)
    # Seats 2 holds no joker and no 2: it may revolt. Seat 1 is to act.
    assert Decision(2, DecisionKind.PRE_PLAY, False) in decisions
    assert decisions[-1] == Decision(1, DecisionKind.TURN, True)
    assert all(d.seat != 3 for d in decisions)
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("KK")))
    assert all(d.kind is not DecisionKind.PRE_PLAY for d in pending_decisions(state))


def test_burn_window_seats_that_can_burn_in_priority_order() -> None:
    state = _window({"burn_priority": "team"}, ["TTTTT6", "JJJJJ9", "QQQQQ9", "9", "88", "AAAAA9"])
    assert pending_decisions(state) == (
        Decision(3, DecisionKind.BURN, False),
        Decision(2, DecisionKind.BURN, False),
        Decision(6, DecisionKind.BURN, False),
        Decision(4, DecisionKind.TURN, True),
    )


def test_a_finished_hand_has_no_decisions() -> None:
    rules = make_rules("dagang")
    state, _ = from_hands(rules, [parse(h) for h in ["5", "3", "3", "3", "3", "3"]], 1)
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("5")))
    while not state.over:
        seat = state.to_act
        assert seat is not None
        kind = ActionKind.PASS if state.top_play is not None else ActionKind.PLAY
        cards = None if kind is ActionKind.PASS else state.hands[seat - 1]
        state, _ = apply(state, seat, Action(kind, cards))
    assert pending_decisions(state) == ()


def test_the_leader_may_hui_before_the_first_play() -> None:
    rules = make_rules("dagang", {"hui": "threes"})
    hands = [parse(h) for h in ["2KK3", "2553", "S63", "B73", "283", "293"]]
    state, _ = from_hands(rules, hands, 1)
    decisions = pending_decisions(state)
    assert Decision(1, DecisionKind.PRE_PLAY, False) in decisions
    assert decisions[-1] == Decision(1, DecisionKind.TURN, True)
    state, _ = apply(state, 1, Action(ActionKind.PLAY, parse("KK")))
    assert Decision(1, DecisionKind.PRE_PLAY, False) not in pending_decisions(state)


# -- pending_decisions agrees with legal_actions ---------------------------------------
KINDS_OF = {
    DecisionKind.RETURN_TRIBUTE: {ActionKind.RETURN_TRIBUTE},
    DecisionKind.PRE_PLAY: {
        ActionKind.REVOLT,
        ActionKind.DECLARE_POINT,
        ActionKind.HUI,
        ActionKind.CHONGDIAN,
    },
    DecisionKind.BURN: {ActionKind.BURN},
    DecisionKind.TURN: {
        ActionKind.PLAY,
        ActionKind.PASS,
        ActionKind.RANG,
        ActionKind.BURN,
        ActionKind.HUI,
        ActionKind.REVOLT,
        ActionKind.DECLARE_POINT,
        ActionKind.CHONGDIAN,
    },
}
FREE = {ActionKind.ASK_COUNT, ActionKind.WAIVE}  # never a scheduled decision


def _check_decisions(state: HandState) -> None:
    from bot.engine import legal_actions

    decisions = pending_decisions(state)
    for d in decisions:
        kinds = {a.kind for a in legal_actions(state, d.seat)}
        assert kinds & KINDS_OF[d.kind], (d, kinds)
    for seat in range(1, 7):
        kinds = {a.kind for a in legal_actions(state, seat)} - FREE
        covered: set[ActionKind] = set()
        for d in decisions:
            if d.seat == seat:
                covered |= KINDS_OF[d.kind]
        assert kinds <= covered, (seat, kinds, decisions)
    if not state.over:
        assert any(d.required for d in decisions) or state.to_act is None


@settings(max_examples=6, deadline=None)
@given(
    preset=st.sampled_from(["dagang", "qingdao", "weifang", "dazhong", "match"]),
    seed=st.integers(0, 10**6),
    hui=st.booleans(),
)
def test_pending_decisions_cover_exactly_the_seats_that_may_act(
    preset: str, seed: int, hui: bool
) -> None:
    import random

    from bot.engine import legal_actions, new_hand

    switches: dict[str, object] = {"hui": "threes_fours", "bie_san": False} if hui else {}
    if preset == "dazhong":
        switches = {**switches, "revolution": "no_hua_qian", "remove_threes": 0}
    state, _ = new_hand(make_rules(preset, switches), seed)
    rng = random.Random(seed)
    for _ in range(80):
        _check_decisions(state)
        if state.over:
            break
        options = [
            (s, a)
            for s in range(1, 7)
            for a in legal_actions(state, s)
            if a.kind is not ActionKind.ASK_COUNT
        ]
        seat, action = rng.choice(options)
        state, _ = apply(state, seat, action)


def test_decisions_during_chongdian_are_the_revolter_and_its_opposite() -> None:
    rules = make_rules("dagang", {"dadian": True, "chongdian": True})
    hands = ["5", "6", "TTTTTJJJJQQQ", "7", "8", "JJJJJQQQQKKK9"]
    state, _ = from_hands(rules, [parse(h) for h in hands], 1)
    state, _ = apply(state, 3, Action(ActionKind.REVOLT))
    _check_decisions(state)
    assert Decision(3, DecisionKind.PRE_PLAY, False) in pending_decisions(state)
    state, _ = apply(state, 3, Action(ActionKind.CHONGDIAN))
    _check_decisions(state)
    state, _ = apply(state, 3, Action(ActionKind.PLAY, parse("TTTTT")))
    _check_decisions(state)
    assert {d.seat for d in pending_decisions(state)} == {6}
