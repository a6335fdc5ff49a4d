"""The engine's fast paths against their plain definitions (issue 13: same results, less CPU).

``gen_answers`` builds the answers to a top without a big joker as products that beat it
by construction, and ``has_answer`` stops at the first such product; here both are
checked against the enumeration they replaced (every play of the top's size whose other
cards rank higher, each then asked ``beats``), kept below as the reference, in the same
order, on random hands, tops, constraints and play switches.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import new_hand
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import I_BIG, I_SMALL, I_TWO, NUM_RANKS, Counts
from bot.engine.errors import IllegalAction
from bot.engine.movegen import (
    Constraints,
    _joker_pairs,
    _others_parts,
    gen_answers,
    has_answer,
)
from bot.engine.plays import JOKERS_BASE, TWOS_BASE, Play, beats, classify, effective_jokers
from bot.engine.rules import Rules, make_rules

PLAY_SWITCHES = st.fixed_dictionaries(
    {
        "tie_qian": st.booleans(),
        "mixed_jokers": st.sampled_from(("big", "small")),
        "small_joker_beaten_by": st.sampled_from(("bigs", "more_jokers")),
        "kill_two_big": st.booleans(),
        "kill_three_small": st.booleans(),
        "kill_three_twos": st.booleans(),
        "bie_san": st.booleans(),
        "dian_si": st.booleans(),
    }
)
CONSTRAINTS = st.builds(Constraints, st.sampled_from(("free", "forbid", "must")), st.booleans())


def counts_st(max_size: int) -> st.SearchStrategy[Counts]:
    # Jokers and 2s drawn often: they make the shapes the fast path has to get right.
    slot = st.one_of(st.integers(0, NUM_RANKS - 1), st.sampled_from((I_TWO, I_SMALL, I_BIG)))
    return st.lists(slot, min_size=1, max_size=max_size).map(
        lambda idx: tuple(min(idx.count(i), 16) for i in range(NUM_RANKS))
    )


def reference_candidates(
    hand: Sequence[int], top: Play, rules: Rules, cons: Constraints
) -> Iterator[Play]:
    """The candidate enumeration ``gen_answers`` used before its fast path (verbatim)."""
    small, big = hand[I_SMALL], hand[I_BIG]
    _, t_big = effective_jokers(top, rules)
    t_others = top.n + top.twos
    above = top.base if t_others else TWOS_BASE
    if not t_big:
        size = top.size
        for j in range(0, min(size, small + big) + 1):
            pairs = [(s, j - s) for s in range(max(0, j - big), min(j, small) + 1)]
            if not pairs:
                continue
            if j == size:
                yield from (Play(JOKERS_BASE, 0, 0, s, b) for s, b in pairs)
                continue
            for base, n, t in _others_parts(hand, size - j, above, rules, cons):
                yield from (Play(base, n, t, s, b) for s, b in pairs)
        return
    if rules.kill_two_big or rules.kill_three_small:
        parts = [(JOKERS_BASE, 0, 0)]
        for n_plain in range(1, t_others + 1):
            parts += _others_parts(hand, n_plain, above, rules, cons)
        for s, b in _joker_pairs(small, big):
            if not (b >= 2 * t_big or (not b and s >= 3 * t_big)):
                continue
            yield from (Play(base, n, t, s, b) for base, n, t in parts)
    if rules.kill_three_twos and not t_others:
        yield from (Play(TWOS_BASE, n, 0, 0, 0) for n in range(3 * t_big, hand[I_TWO] + 1))


def reference_answers(
    hand: Sequence[int], top: Play, rules: Rules, cons: Constraints
) -> list[Play]:
    out = [p for p in reference_candidates(hand, top, rules, cons) if beats(p, top, rules)]
    if cons.need_joker:
        total = sum(hand)
        out = [p for p in out if p.small or p.big or p.size == total]
    return out


@settings(max_examples=400, deadline=None)
@given(
    hand=counts_st(30),
    top_cards=counts_st(8),
    sw=PLAY_SWITCHES,
    cons=CONSTRAINTS,
)
def test_answers_are_the_plain_enumeration_in_its_order(
    hand: Counts, top_cards: Counts, sw: dict[str, object], cons: Constraints
) -> None:
    rules = make_rules("dagang", sw)
    try:
        top = classify(top_cards, rules)
    except IllegalAction:
        return  # not a play: nothing to answer
    expected = reference_answers(hand, top, rules, cons)
    assert gen_answers(hand, top, rules, cons) == expected
    assert has_answer(hand, top, rules, cons) == bool(expected)


def test_a_small_joker_top_keeps_only_enough_jokers() -> None:
    """A hand-made case the products must get right: 9S on top, mixed jokers counted small."""
    rules = make_rules("dagang", {"mixed_jokers": "small", "small_joker_beaten_by": "bigs"})
    hand = (0,) * 8 + (1, 1) + (0,) * 3 + (1, 1)  # a J, a Q, one small and one big joker
    top = Play(9, 1, 0, 1, 0)
    answers = gen_answers(hand, top, rules)
    # S+B counts as two small jokers here: no big joker left, so only J/Q with the big one.
    assert answers == [Play(11, 1, 0, 0, 1), Play(12, 1, 0, 0, 1)]
    assert answers == reference_answers(hand, top, rules, Constraints())


def test_cached_play_actions_equal_fresh_ones() -> None:
    for p in (Play(5, 2, 1, 0, 1), Play(TWOS_BASE, 3), Play(JOKERS_BASE, 0, 0, 2, 1)):
        assert Action.play(p) == Action(ActionKind.PLAY, p.counts())
        assert Action.burn(p) == Action(ActionKind.BURN, p.counts())
        assert Action.play(p) != Action.burn(p)


def test_the_mutable_copy_gives_back_every_field_it_was_given() -> None:
    """``MutableHand`` unpacks and rebuilds a HandState positionally: a state whose every
    field differs from its default comes back whole (a swapped pair of fields would not)."""
    from bot.engine.mutable import MutableHand
    from bot.engine.state import HandState

    base, _ = new_hand(make_rules("qingdao"), 5)
    odd = {
        name: value for name, value in zip(HandState._fields, _distinct_values(base), strict=True)
    }
    state = base._replace(**odd)
    again = MutableHand(state).freeze(count_step=False)
    assert again == state
    assert [type(x) for x in again] == [type(x) for x in state]
    assert MutableHand(state).freeze().step == state.step + 1


def _distinct_values(base: object) -> list[object]:
    """A value per HandState field, each of the field's type (the compiled engine checks
    them) and told apart from the others (sets and tuples of different sizes, ints of
    different values)."""
    from bot.engine.state import HandState

    out: list[object] = []
    for i, value in enumerate(base):  # type: ignore[attr-defined]
        if isinstance(value, frozenset):
            out.append(frozenset(range(1, i % 5 + 2)))
        elif isinstance(value, bool):
            out.append(not value)
        elif isinstance(value, int):
            out.append(100 + i)
        elif isinstance(value, tuple) and not hasattr(value, "_fields"):
            out.append((*value, ("marker", i)))
        elif value is None and HandState._fields[i] == "top_play":
            out.append(Play(5, i % 3 + 1))
        elif value is None and HandState._fields[i] != "result":
            out.append(200 + i)  # a seat field (to_act, top_seat, rang_by, burner, …)
        else:
            out.append(value)  # the rules, the phase, the extras: one of a kind each
    return out
