"""The ``expert`` level: determinized playouts that see only the seat's own view."""

from __future__ import annotations

import random

from bot.ai import decide, options
from bot.ai.base import masked_state
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Seen
from bot.engine import ActionKind, fmt, make_rules, new_hand
from bot.engine.cards import EMPTY
from bot.engine.views import seat_view

from .helpers import play, table


def _mid_hand(seed: int = 4):  # type: ignore[no-untyped-def]
    """A dealt dagang hand a few plays in, with a choice to make for the seat to act."""
    rules = make_rules("dagang")
    state, _ = new_hand(rules, seed)
    normal = ExpertPolicy(rules).normal
    for _ in range(12):
        seat = state.to_act
        assert seat is not None
        action = decide(state, seat, normal, random.Random(0))
        assert action is not None
        from bot.engine import apply

        state, _ = apply(state, seat, action)
    return state


def test_masked_state_hides_every_other_hand() -> None:
    state = _mid_hand()
    masked = masked_state(state, 2)
    assert masked.hands[1] == state.hands[1]
    assert all(masked.hands[i] == EMPTY for i in (0, 2, 3, 4, 5))
    assert masked._replace(hands=state.hands) == state  # nothing else is hidden


def test_determinized_deals_respect_what_the_seat_knows() -> None:
    state = _mid_hand()
    seat = state.to_act
    assert seat is not None
    view = seat_view(state, seat)
    expert = ExpertPolicy(state.rules)
    dealt = expert.determinize(view, masked_state(state, seat), random.Random(3))
    assert dealt.hands[seat - 1] == state.hands[seat - 1]
    unseen = Seen.of(view).outstanding
    pooled = [sum(h[i] for s, h in enumerate(dealt.hands, 1) if s != seat) for i in range(15)]
    assert tuple(pooled) == unseen  # exactly the cards the seat cannot see
    other = expert.determinize(view, masked_state(state, seat), random.Random(4))
    assert other.hands != dealt.hands  # a real sample, not a copy of the truth


def test_same_seed_same_decision_and_independent_of_the_hidden_hands() -> None:
    state = _mid_hand()
    seat = state.to_act
    assert seat is not None
    expert = ExpertPolicy(state.rules, playouts=12)
    first = decide(state, seat, expert, random.Random(9))
    assert first == decide(state, seat, expert, random.Random(9))
    assert first in options(state, seat)
    # Swap two other seats' hidden hands: the seat's view is unchanged, so is the decision.
    a, b = [s for s in (1, 2, 3, 4, 5, 6) if s != seat][:2]
    hands = list(state.hands)
    hands[a - 1], hands[b - 1] = hands[b - 1], hands[a - 1]
    if sum(hands[a - 1]) == sum(hands[b - 1]):
        swapped = state._replace(hands=tuple(hands))
        assert decide(swapped, seat, expert, random.Random(9)) == first


def test_search_finds_the_finishing_line_normal_would_not_force() -> None:
    # Seat 1 leads with 2 cards left in two plays: either order finishes unless answered.
    state = table(["5B", "66", "77", "88", "99", "TT"])
    state = state._replace(started=True)
    expert = ExpertPolicy(state.rules, playouts=16)
    choice = decide(state, 1, expert, random.Random(1))
    assert choice is not None and choice.kind is ActionKind.PLAY
    assert fmt(choice.cards or EMPTY) in ("5B", "5")


def test_candidates_include_pass_and_the_cheapest_answers() -> None:
    state = play(table(["55KK", "6699AA2S", "99AA", "4", "6", "7"]), 1, "55")
    view = seat_view(state, 2)
    expert = ExpertPolicy(state.rules)
    legal = options(state, 2)
    base = expert.normal.choose(view, legal, random.Random(0))
    cands = expert.candidates(view, legal, base)
    assert cands[0] == base
    assert any(c is not None and c.kind is ActionKind.PASS for c in cands)
    assert len(cands) <= 4 and len(set(cands)) == len(cands)


def test_decide_async_keeps_the_event_loop_free() -> None:
    import asyncio

    from bot.ai import decide_async

    state = _mid_hand()
    seat = state.to_act
    assert seat is not None
    expert = ExpertPolicy(state.rules, playouts=24)

    async def run() -> tuple[object, int]:
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0.001)

        task = asyncio.create_task(ticker())
        choice = await decide_async(state, seat, expert, random.Random(9))
        done = True
        await task
        return choice, ticks

    choice, ticks = asyncio.run(run())
    assert choice == decide(state, seat, expert, random.Random(9))
    assert ticks > 1  # the loop kept running while the expert searched


def test_the_view_remembers_who_played_and_passed_on_what() -> None:
    from bot.engine import Mark, PublicMove, parse
    from bot.engine.plays import Play

    from .helpers import act

    state = table(["55KK", "6699AA2S", "99AA", "4", "6", "7"])
    state = play(state, 1, "55")
    state = act(state, 2, ActionKind.PASS)
    state = play(state, 3, "99")
    history = seat_view(state, 4).public.history
    five, nine = Play(5, 2), Play(9, 2)
    assert history == (
        PublicMove(1, five, None, None),
        PublicMove(2, Mark.PASS, five, 1),
        PublicMove(3, nine, five, 1),
    )
    assert parse("99") == nine.counts()
    assert masked_state(state, 4).history == state.history  # public: the mask keeps it
