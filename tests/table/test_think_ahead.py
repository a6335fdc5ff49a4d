"""Think while humans think (bot/table/ahead.py, bot/ai/ahead.py): during a person's turn
the expert seats after it work out their decisions for the person's likely answers, and
a turn that comes as foreseen takes its decision as it is — the hand is the same as
without thinking ahead, decision for decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import options
from bot.ai.base import masked_state
from bot.ai.expert import ExpertPolicy
from bot.ai.search_pool import SearchPool
from bot.engine import Action
from bot.engine.views import seat_view
from bot.table import Act, AddBots, FakeClock, OpenTable, Start, TableManager
from bot.table.ahead import ANSWERS, GUESSER, likely_answers

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]
SLOW = 600.0  # the clock out of the way: a decision depends on its inputs only


def expert() -> ExpertPolicy:
    return ExpertPolicy(work=1500, early_work=1500, max_seconds=SLOW, pool=SearchPool(1))


async def table(policy: ExpertPolicy, ahead: bool) -> TableManager:
    m = TableManager(
        clock=FakeClock(), seed_source=lambda: 11, policy=policy,
        burn_window_seconds=0, declare_window_seconds=0,
    )  # fmt: skip
    m.think_ahead = ahead
    set_settings(m, turn_seconds=0, match_hands=1, preset="dagang")
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    return m


async def person_turns(m: TableManager, turns: int) -> list[object]:
    """The person plays normal's choice (the likeliest answer) ``turns`` times; the table
    state after each."""
    states: list[object] = []
    for _ in range(turns):
        await m.ahead.wait()  # the person "thinks" until the table has worked ahead
        st = m.tables[CHAT.key].state
        if st is None or st.over or st.to_act != 1:
            break
        guess = GUESSER.choose(seat_view(st, 1), options(st, 1), random.Random(0))
        assert guess is not None
        assert (await m.handle(Act(chat=CHAT, actor=ME, action=guess))).ok
        states.append(m.tables[CHAT.key].state)
    await m.drain()
    return states


async def test_turns_worked_out_ahead_decide_the_same_and_search_no_more() -> None:
    thinking, plain = expert(), expert()
    with_ahead = await person_turns(await table(thinking, ahead=True), 6)
    without = await person_turns(await table(plain, ahead=False), 6)
    assert len(with_ahead) >= 3
    assert with_ahead == without  # the same hand, decision for decision
    assert plain.thoughts.hits == 0 and len(plain.thoughts) == 0
    assert thinking.thoughts.hits >= 3  # turns that took what was worked out ahead


def test_a_thought_is_the_decision_the_turn_would_take(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.ai.helpers import mid_hand

    state = mid_hand()
    seat = state.to_act
    assert seat is not None
    view, public, legal = seat_view(state, seat), masked_state(state, seat), options(state, seat)
    ahead = expert()
    searched: list[int] = []
    real = ahead._search

    def counted(*args: Any) -> Action | None:
        searched.append(1)
        return real(*args)

    monkeypatch.setattr(ahead, "_search", counted)
    thought = ahead.think_ahead(view, public, legal, random.Random("s"))
    assert searched == [1]
    assert ahead.choose_searching(view, public, legal, random.Random("s")) == thought
    assert searched == [1]  # taken, not searched again
    assert expert().choose_searching(view, public, legal, random.Random("s")) == thought
    # Other inputs (another rng seed) are another decision: searched.
    ahead.choose_searching(view, public, legal, random.Random("t"))
    assert searched == [1, 1]


def test_the_likely_answers_are_normals_choice_first() -> None:
    from tests.ai.helpers import mid_hand

    state = mid_hand()
    seat = state.to_act
    assert seat is not None
    answers = likely_answers(state, seat)
    guess = GUESSER.choose(seat_view(state, seat), options(state, seat), random.Random(0))
    assert answers[0] == guess
    assert len(answers) == len(set(answers)) and all(a in options(state, seat) for a in answers)
    assert 2 <= len(answers) <= ANSWERS
