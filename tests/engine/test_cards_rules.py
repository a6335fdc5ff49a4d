"""Notation, deck building, dealing, presets and switch validation."""

from __future__ import annotations

import random

import pytest

from bot.engine import ErrorCode, IllegalAction, RulesError, fmt, make_rules, parse
from bot.engine.cards import deal, full_deck
from bot.engine.game import first_leader, new_hand
from bot.engine.rules import PRESETS, deck_size


def test_parse_and_format_roundtrip() -> None:
    assert fmt(parse("SS888")) == "888SS"
    assert fmt(parse("TTTT2")) == "TTTT2"
    assert fmt(parse("B S 2 A K Q J T 9 8 7 6 5 4 3")) == "3456789TJQKA2SB"
    assert sum(parse("22333")) == 5


@pytest.mark.parametrize("bad, char", [("88X", "X"), ("10", "1"), ("3♠", "♠"), ("TT0", "0")])
def test_parse_rejects_bad_characters_naming_them(bad: str, char: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse(bad)
    assert info.value.code is ErrorCode.BAD_NOTATION
    assert info.value.params["char"] == char


@pytest.mark.parametrize(
    "preset, size, per_seat",
    [
        ("dagang", 216, [36] * 6),
        ("qingdao", 198, [33] * 6),
        ("weifang", 216, [36] * 6),
        ("dazhong", 206, [35, 35, 34, 34, 34, 34]),
        ("match", 216, [36] * 6),
    ],
)
def test_preset_decks_and_deal_sizes(preset: str, size: int, per_seat: list[int]) -> None:
    rules = make_rules(preset)
    assert deck_size(rules) == size
    deck = full_deck(rules.remove_threes, rules.remove_fours, rules.remove_fives)
    hands = deal(deck, random.Random(7), 1)
    assert [sum(h) for h in hands] == per_seat
    assert [sum(h[i] for h in hands) for i in range(15)] == list(deck)


def test_uneven_deal_gives_extra_cards_from_the_first_taker() -> None:
    deck = full_deck(remove_threes=10)
    hands = deal(deck, random.Random(1), 5)
    assert [sum(h) for h in hands] == [34, 34, 34, 34, 35, 35]


def test_deck_switches_remove_cards() -> None:
    deck = full_deck(remove_threes=10, remove_fours=8, remove_fives=4)
    assert deck[0] == 6 and deck[1] == 8 and deck[2] == 12 and deck[13] == 4 and deck[14] == 4


def test_dealing_is_seeded() -> None:
    rules = make_rules()
    a, _ = new_hand(rules, 42)
    b, _ = new_hand(rules, 42)
    c, _ = new_hand(rules, 43)
    assert a.hands == b.hands and a.leader == b.leader
    assert a.hands != c.hands
    assert first_leader(42) == a.leader


def test_presets_match_rules_table() -> None:
    q = make_rules("qingdao")
    assert (q.bie_san, q.dadian, q.dian_si, q.count_rule) == (True, True, True, "ask_lt10")
    assert (q.revolution, q.burn_requires_kaidian, q.men_is_last) == ("no_hua_qian_34", True, True)
    assert q.see_team_after_out and q.burn_priority == "order"
    w = make_rules("weifang")
    assert (w.kaidian_twos, w.count_rule, w.dian_si, w.men_is_last) == (
        "pair",
        "always",
        False,
        True,
    )
    d = make_rules("dazhong")
    assert (d.kill_three_twos, d.count_rule, d.revolution, d.remove_threes) == (
        True,
        "never",
        "no_hua_qian",
        10,
    )
    m = make_rules("match")
    assert (m.revolution, m.tribute, m.scoring, m.burn_success) == (
        "off",
        False,
        "competition",
        "first_trick",
    )
    assert m.score_table == (2, 1, 0, 0, -1, -2) and m.sweep_multiplier == 1
    assert m.kaidian_plays == "no_big_joker" and m.burn_priority == "team"
    g = make_rules("dagang")
    assert not (g.bie_san or g.dadian or g.dian_si or g.kill_two_big or g.kill_three_twos)
    for name in PRESETS:
        r = make_rules(name)
        assert r.opposite_final_say and r.rang and r.tie_qian
        assert r.small_joker_beaten_by == "bigs" and r.mixed_jokers == "big"


def test_overrides_are_validated_with_allowed_values() -> None:
    assert make_rules("dagang", {"kill_two_big": True}).kill_two_big
    with pytest.raises(RulesError) as info:
        make_rules("dagang", {"kill_two_bigs": True})
    assert info.value.code is ErrorCode.UNKNOWN_SWITCH
    assert "kill_two_big" in info.value.params["allowed"]
    with pytest.raises(RulesError) as info:
        make_rules("dagang", {"count_rule": "sometimes"})
    assert info.value.code is ErrorCode.BAD_SWITCH_VALUE
    assert "ask_le10" in info.value.params["allowed"]
    with pytest.raises(RulesError) as info:
        make_rules("dagang", {"remove_threes": 5})
    assert info.value.params["allowed"] == "0, 10"
    with pytest.raises(RulesError):
        make_rules("dagang", {"rang": "yes"})
    with pytest.raises(RulesError):
        make_rules("dagang", {"burn_limit": -1})
    with pytest.raises(RulesError) as info:
        make_rules("shanghai")
    assert info.value.code is ErrorCode.UNKNOWN_PRESET
    assert (
        make_rules("dagang", {"tribute_order": ["luo", "point", "burn", "men"]}).tribute_order[0]
        == "luo"
    )
