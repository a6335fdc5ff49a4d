"""Classification and strength of plays (RULES §4–6), including every switch."""

from __future__ import annotations

import pytest

from bot.engine import ErrorCode, IllegalAction, Rules, beats, classify, is_gouji, make_rules, parse
from bot.engine.plays import is_pure_gouji, opens_point

R = make_rules()


def P(text: str, rules: Rules = R):
    return classify(parse(text), rules)


def b(a: str, t: str, **switches: object) -> bool:
    rules = make_rules("dagang", switches)
    return beats(P(a, rules), P(t, rules), rules)


def test_classify_shapes() -> None:
    assert P("22333") == (3, 3, 2, 0, 0)
    assert P("266") == (6, 2, 1, 0, 0)
    assert P("222S").base == 15 and P("222S").small == 1
    assert P("SB").base == 0 and P("SB").size == 2
    assert P("SS888").others == 3


@pytest.mark.parametrize(
    "text, code, switches",
    [
        ("", ErrorCode.EMPTY_PLAY, {}),
        ("89", ErrorCode.MIXED_RANKS, {}),
        ("TJ2", ErrorCode.MIXED_RANKS, {}),
        ("882", ErrorCode.NO_TIE_QIAN, {"tie_qian": False}),
        ("332", ErrorCode.THREES_ALONE, {"bie_san": True}),
        ("3S", ErrorCode.THREES_ALONE, {"bie_san": True}),
        ("44B", ErrorCode.FOURS_ALONE, {"dian_si": True}),
    ],
)
def test_classify_refusals(text: str, code: ErrorCode, switches: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as info:
        classify(parse(text), make_rules("dagang", switches))
    assert info.value.code is code


def test_switch_off_allows_what_it_forbids() -> None:
    assert P("332").size == 3
    assert P("44B").big == 1
    assert classify(parse("22"), make_rules("dagang", {"tie_qian": False})).base == 15


@pytest.mark.parametrize(
    "answer, top",
    [
        ("99999", "22888"),
        ("SS", "22"),
        ("BB", "SS"),
        ("BB", "S8"),
        ("SJJJJ", "TTTTT"),
        ("BB9", "888"),
        ("22", "AA"),
        ("BB999", "SS888"),
        ("BBB99", "SS888"),
        ("B", "S"),
        ("9", "8"),
        ("S", "2"),
        ("S", "A"),
        ("2229", "8888"),
    ],
)
def test_beats(answer: str, top: str) -> None:
    assert b(answer, top)


@pytest.mark.parametrize(
    "answer, top",
    [
        ("S9999", "TTTTT"),
        ("SS999", "SS888"),
        ("SSS99", "SS888"),
        ("BSS99", "SS888"),
        ("99", "999"),
        ("8", "8"),
        ("22", "SS"),
        ("BB", "BB"),
        ("BB22", "BAA"),
        ("222", "B"),
        ("SSS", "B"),
        ("B", "B"),
        ("2S", "22"),
        ("AAAAA", "22222"),
        ("BS", "SS"),
    ],
)
def test_does_not_beat(answer: str, top: str) -> None:
    assert not b(answer, top)


def test_small_joker_more_jokers_switch() -> None:
    assert b("SSS99", "SS888", small_joker_beaten_by="more_jokers")
    assert b("BSS99", "SS888", small_joker_beaten_by="more_jokers")
    assert b("BBB99", "SS888", small_joker_beaten_by="more_jokers")
    assert not b("SS999", "SS888", small_joker_beaten_by="more_jokers")
    assert not b("SSS88", "SS888", small_joker_beaten_by="more_jokers")


def test_kill_switches() -> None:
    assert b("BB22", "BAA", kill_two_big=True)
    assert b("BBBB", "BB", kill_two_big=True)
    assert not b("BB2", "BAA", kill_two_big=True)  # other cards must be the same count
    assert not b("BBKK", "BAA", kill_two_big=True)  # and higher
    assert b("SSS", "B", kill_three_small=True)
    assert b("SSSAA", "BKK", kill_three_small=True)
    assert not b("SS", "B", kill_three_small=True)
    assert b("222", "B", kill_three_twos=True)
    assert b("222222", "BB", kill_three_twos=True)
    assert not b("22", "B", kill_three_twos=True)
    assert not b("222", "BA", kill_three_twos=True)  # big jokers alone only


def test_mixed_jokers_switch() -> None:
    # Default: a play holding a big joker is a big-joker play, nobody beats it.
    assert not b("BB99", "BS88")
    small = make_rules("dagang", {"mixed_jokers": "small"})
    mixed = classify(parse("BS225555"), small)
    assert beats(classify(parse("BB666666"), small), mixed, small)
    assert not beats(classify(parse("SS666666"), small), mixed, small)


def test_gouji_thresholds_and_twos_switch() -> None:
    for text in (
        "TTTTT",
        "JJJJ",
        "QQQ",
        "KK",
        "AA",
        "2",
        "S",
        "B",
        "KKK",
        "TTTTTTT",
        "TTTT2",
        "555S",
    ):
        assert is_gouji(P(text), R), text
    for text in ("TTTT", "JJJ", "QQ", "K", "A", "99999999", "33333"):
        assert not is_gouji(P(text), R), text
    two = make_rules("dagang", {"gouji_twos": 2})
    assert not is_gouji(P("2", two), two) and is_gouji(P("22", two), two)


def test_pure_gouji_and_opening() -> None:
    assert is_pure_gouji(P("TTTTT")) and is_pure_gouji(P("AA"))
    assert (
        not is_pure_gouji(P("TTTT2"))
        and not is_pure_gouji(P("QQQS"))
        and not is_pure_gouji(P("22"))
    )
    pair = make_rules("dagang", {"dadian": True, "kaidian_twos": "pair"})
    single = make_rules("dagang", {"dadian": True, "kaidian_twos": "single"})
    never = make_rules("dagang", {"dadian": True})
    assert opens_point(P("22"), pair) and not opens_point(P("2"), pair)
    assert opens_point(P("2"), single) and not opens_point(P("22"), never)
    nbj = make_rules("dagang", {"dadian": True, "kaidian_plays": "no_big_joker"})
    assert opens_point(P("2"), nbj) and opens_point(P("KKS"), nbj) and opens_point(P("TTTT2"), nbj)
    assert not opens_point(P("KKB"), nbj) and not opens_point(P("888"), nbj)
    assert not opens_point(P("KKS"), never) and not opens_point(P("TTTT2"), never)
