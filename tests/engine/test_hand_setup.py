"""What single-hand scenarios cannot show: 买3/买4, tributes across hands, next leader,
预点, 看牌, the revolter as 三科, a failed burner's opposite, and the compact options."""

from __future__ import annotations

from bot.engine import (
    Action,
    ActionKind,
    Tribute,
    apply,
    fmt,
    from_hands,
    legal_options,
    legal_plays,
    make_rules,
    new_hand,
    next_leader,
    parse,
)
from bot.engine.events import Bought
from bot.engine.game import legal_burns
from bot.engine.views import seat_view

BIE = make_rules("dagang", {"bie_san": True})


def play(state, seat, cards):  # type: ignore[no-untyped-def]
    state, _ = apply(state, seat, Action(ActionKind.PLAY, parse(cards)))
    return state


def pass_(state, seat):  # type: ignore[no-untyped-def]
    state, _ = apply(state, seat, Action(ActionKind.PASS))
    return state


def test_buy_three_from_the_opposite_paying_a_two() -> None:
    hands = [parse(h) for h in ("5562", "33", "3", "33K", "3", "3")]
    state, events = from_hands(BIE, hands, 1, buy=True)
    assert fmt(state.hands[0]) == "3556"  # bought a 3, paid the 2
    assert fmt(state.hands[3]) == "3K2"
    bought = [e for e in events if isinstance(e, Bought)]
    assert bought[0].paid == "2" and bought[0].target == 4


def test_buy_three_falls_back_to_the_opposites_teammates_then_a_teammate() -> None:
    # Seat 1's opposite (4) has one 3: seat 2 (downstream, 4's teammate) sells it.
    hands = [parse(h) for h in ("55S", "333", "3", "3", "3", "3")]
    state, _ = from_hands(BIE, hands, 1, buy=True)
    assert fmt(state.hands[0]) == "355" and fmt(state.hands[1]) == "33S"
    # No opponent can sell: teammate 3 gives one free.
    hands = [parse(h) for h in ("55S", "3", "333", "3", "3", "3")]
    state, _ = from_hands(BIE, hands, 1, buy=True)
    assert fmt(state.hands[0]) == "355S" and fmt(state.hands[2]) == "33"


def test_buy_fours_only_when_fours_are_trimmed() -> None:
    qd = make_rules("qingdao")
    hands = [parse(h) for h in ("3K2", "344", "3", "3444", "3", "3")]
    state, _ = from_hands(qd, hands, 1, buy=True)
    assert state.hands[0][1] == 1  # 买4 from the opposite
    full = make_rules("dagang", {"bie_san": True, "dian_si": True, "dadian": True})
    state, _ = from_hands(full, hands, 1, buy=True)
    assert state.hands[0][1] == 0


def test_tributes_carry_into_the_next_hand_and_receivers_return() -> None:
    rules = make_rules()
    owed = (Tribute(6, 1, 2, "luo"), Tribute(5, 2, 1, "luo"))
    state, _ = new_hand(rules, 5, leader=6, owed=owed)
    assert state.phase.value == "return_tribute"
    assert sorted(state.pending_returns) == [(1, 6, 2), (2, 5, 1)]
    total = sum(map(sum, state.hands))
    assert total == 216
    r = apply  # returns go back to the givers, any cards the receiver likes
    low1 = next(i for i in range(15) if state.hands[0][i])
    cards = tuple(min(2, state.hands[0][low1]) if i == low1 else 0 for i in range(15))
    if sum(cards) < 2:
        nxt = next(i for i in range(low1 + 1, 15) if state.hands[0][i])
        cards = tuple(c + (1 if i == nxt else 0) for i, c in enumerate(cards))
    state, _ = r(state, 1, Action(ActionKind.RETURN_TRIBUTE, cards, 6))
    low2 = next(i for i in range(15) if state.hands[1][i])
    one = tuple(1 if i == low2 else 0 for i in range(15))
    state, _ = r(state, 2, Action(ActionKind.RETURN_TRIBUTE, one))
    assert state.phase.value == "play" and state.to_act is not None


def test_next_leader_switch() -> None:
    hands = [parse(h) for h in ("5", "6", "7", "8", "9", "T")]
    state, _ = from_hands(make_rules(), hands, 1)
    for seat, cards in ((1, "5"), (2, "6"), (3, "7"), (4, "8"), (5, "9")):
        state = play(state, seat, cards)
    assert state.over and state.result is not None
    assert next_leader(state) == state.result.places[-1] == 6
    rot, _ = from_hands(make_rules("dagang", {"next_leader": "rotate"}), hands, 1)
    assert next_leader(rot) == 2


def test_pre_point_stake_is_four() -> None:
    rules = make_rules("dagang", {"dadian": True})
    hands = [parse(h) for h in ("5", "6", "7", "8", "9", "T")]
    state, _ = from_hands(rules, hands, 1, pre_points=[2])
    for seat, cards in ((1, "5"), (2, "6"), (3, "7"), (4, "8"), (5, "9")):
        state = play(state, seat, cards)
    assert state.result is not None
    stakes = [t for t in state.result.tributes if t.kind == "yudian"]
    assert stakes == [Tribute(5, 2, 4, "yudian")]  # seat 5 never opened: the bet is won


def test_see_team_after_out() -> None:
    rules = make_rules("dagang", {"see_team_after_out": True})
    hands = [parse(h) for h in ("5", "66", "77", "88", "99", "TT")]
    state, _ = from_hands(rules, hands, 1)
    assert seat_view(state, 1).teammates == ()
    state = play(state, 1, "5")
    view = seat_view(state, 1)
    assert [s for s, _ in view.teammates] == [3, 5] and fmt(view.teammates[0][1]) == "77"
    off, _ = from_hands(make_rules(), hands, 1)
    off = play(off, 1, "5")
    assert seat_view(off, 1).teammates == ()


def test_revolter_ranks_third_when_its_teammates_take_first_and_second() -> None:
    hands = [parse(h) for h in ("5", "66", "789", "88", "9", "TT")]
    state, _ = from_hands(make_rules(), hands, 1)
    state, _ = apply(state, 3, Action(ActionKind.REVOLT))
    state = play(state, 1, "5")  # 头科
    state = pass_(state, 2)
    state = pass_(state, 4)
    # 5's teammates 1 and 5 take 头科/二科: the revolter 3 is 三科, a sweep.
    state = play(state, 5, "9") if state.to_act == 5 else state
    assert state.over and state.result is not None
    assert state.result.places[:3] == (1, 5, 3) and state.result.sweep_team == "135"


def test_compact_options_expand_to_exactly_the_legal_plays() -> None:
    rules = make_rules("dagang", {"kill_two_big": True})
    state, _ = new_hand(rules, 77)
    seat = state.to_act
    assert seat is not None
    groups = legal_options(state, seat)
    expanded = sorted(p for g in groups if g.kind is ActionKind.PLAY for p in g.plays())
    assert expanded == sorted(legal_plays(state, seat))
    assert all(len(set(g.variants)) == len(g.variants) for g in groups)
    assert not legal_burns(state, seat)
