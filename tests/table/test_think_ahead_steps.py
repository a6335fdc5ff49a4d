"""Thinking ahead after every kind of step, not only a person's command: a play whose AI
moves follow in a step of their own (``handle(..., ai_later=True)``, the web page's
taps), a timer's step (a turn that timed out, a pause or window that closed) and a
restart's resumed moves leave a person to act too, and the expert seats work ahead
meanwhile — never while AI moves are still owed, and the hand stays the same decision
for decision."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.table.ahead as ahead_module
from bot.ai import options
from bot.ai.expert import ExpertPolicy
from bot.ai.search_pool import SearchPool
from bot.engine.views import seat_view
from bot.store import Store
from bot.table import (
    Act,
    AddBots,
    DeadlineKind,
    FakeClock,
    Join,
    OpenTable,
    SetAutoplay,
    Start,
    TableManager,
)
from bot.table.ahead import GUESSER

from .conftest import CHAT, PLAYERS, set_settings

ME, OTHER = PLAYERS[0], PLAYERS[1]
SLOW = 600.0  # the expert's clock out of the way: a decision depends on its inputs only


def expert() -> ExpertPolicy:
    return ExpertPolicy(work=1500, early_work=1500, max_seconds=SLOW, pool=SearchPool(1))


async def opened(policy: ExpertPolicy, ahead: bool, clock: FakeClock, **kw: Any) -> TableManager:
    settings: dict[str, object] = {"turn_seconds": 0, "match_hands": 1, "preset": "dagang"}
    settings.update(kw.pop("settings", {}))
    m = TableManager(clock=clock, seed_source=lambda: 11, policy=policy, **kw)
    m.think_ahead = ahead
    set_settings(m, CHAT, **settings)
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    return m


def my_guess(m: TableManager) -> Act | None:
    """The person's likeliest answer (normal's choice) if it is their turn to play."""
    t = m.tables[CHAT.key]
    st = t.state
    if st is None or st.over or st.to_act != 1 or not st.started or t.run.window is not None:
        return None
    guess = GUESSER.choose(seat_view(st, 1), options(st, 1), random.Random(0))
    assert guess is not None
    return Act(chat=CHAT, actor=ME, action=guess)


# -- ai_later: the web page's taps -----------------------------------------------------
async def later_hand(
    policy: ExpertPolicy, ahead: bool, ai_later: bool, turns: int
) -> tuple[object, int]:
    """``turns`` of the person's plays at a table of five experts: the deal's log, and
    the AI turns taken as worked out ahead after the first play (whose turn the
    ``Start`` command reached: the later ones come after the AI seats' own steps)."""
    m = await opened(policy, ahead, FakeClock(), burn_window_seconds=0, declare_window_seconds=0)
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    first = 0
    for turn in range(turns):
        await m.settle()
        await m.ahead.wait()  # the person thinks until the table has worked ahead
        first = policy.thoughts.hits if turn == 1 else first
        cmd = my_guess(m)
        if cmd is None:
            break
        assert (await m.handle(cmd, ai_later=ai_later)).ok
    await m.settle()
    await m.drain()
    return m.tables[CHAT.key].log, policy.thoughts.hits - first


async def test_a_play_answered_before_the_ai_moves_is_thought_ahead_of_the_same() -> None:
    thinking, plain = expert(), expert()
    with_ahead, taken = await later_hand(thinking, ahead=True, ai_later=True, turns=6)
    without, _ = await later_hand(plain, ahead=False, ai_later=False, turns=6)
    assert isinstance(with_ahead, tuple) and len(with_ahead) > 20
    assert with_ahead == without  # the same hand, decision for decision
    assert plain.thoughts.hits == 0
    assert taken >= 3  # AI turns taken as worked out ahead after the AI seats' steps


async def test_no_thinking_ahead_while_ai_moves_are_owed(monkeypatch: pytest.MonkeyPatch) -> None:
    thought_on: list[object] = []
    real = ahead_module.think_ahead

    def spied(state: Any, *args: Any) -> int:
        thought_on.append(state)
        return real(state, *args)

    monkeypatch.setattr(ahead_module, "think_ahead", spied)
    policy = expert()
    m = await opened(policy, True, FakeClock(), burn_window_seconds=0, declare_window_seconds=0)
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    thought = 0
    for _ in range(4):
        await m.settle()
        await m.ahead.wait()
        cmd = my_guess(m)
        assert cmd is not None
        started, seen = m.ahead.started, len(thought_on)
        assert (await m.handle(cmd, ai_later=True)).ok
        owed = m.tables[CHAT.key]
        assert owed.run.deadline is not None and owed.run.deadline.kind is DeadlineKind.AI
        # Answered, the AI moves still owed: nothing thinks ahead, nor may start to.
        assert not m.ahead.thinking() and m.ahead.started == started
        assert not m.ahead.start(CHAT.key, owed, policy)
        await m.settle()  # the AI seats move; then the person is to act again
        await m.ahead.wait()
        moved = m.tables[CHAT.key]
        assert moved.state is not None and moved.state.to_act == 1
        # After the owed moves, on their result (unless the person may be burned first:
        # no line is worked out past a burn window).
        thinkable = not moved.state.window
        assert m.ahead.started == started + thinkable
        assert thought_on[seen:] == [moved.state] * thinkable
        thought += thinkable
    await m.drain()
    assert thought >= 2 and policy.thoughts.hits >= 1


# -- timers: a turn that timed out, a pause or window that closed ---------------------
@dataclass
class Timed:
    log: object = ()
    by_timer: int = 0  # the person's turns reached by a timer's step
    thought: int = 0  # ... which had the table think ahead
    worked: int = 0  # decisions worked out ahead after those timers' steps
    taken: int = 0  # AI turns after the person's play on those, taken as worked out


async def timed_hand(policy: ExpertPolicy, ahead: bool, turns: int) -> Timed:
    """A second person whose turns time out (托管 plays them; they come back before the
    next), a declaration pause and burn windows the timers close; the person plays normal's
    choice ``turns`` times."""
    clock, out = FakeClock(), Timed()
    m = await opened(
        policy, ahead, clock, burn_window_seconds=2.0, declare_window_seconds=3.0,
        settings={"turn_seconds": 15},
    )  # fmt: skip
    assert (await m.handle(Join(chat=CHAT, actor=OTHER, seat=4))).ok
    await m.handle(AddBots(chat=CHAT, actor=ME, count=4))
    await m.handle(Start(chat=CHAT, actor=ME))
    assert m.tables[CHAT.key].seat_of(ME.user_id) == 1
    played, by_timer = 0, False
    for _ in range(2000):
        await m.ahead.wait()  # the person thinks until the table has worked ahead
        cmd = my_guess(m)
        if cmd is not None:
            other = m.tables[CHAT.key].seats[3]
            if other is not None and other.autoplay:  # back, to time out again
                assert (await m.handle(SetAutoplay(chat=CHAT, actor=OTHER, on=False))).ok
                await m.ahead.wait()
            hits = policy.thoughts.hits
            assert (await m.handle(cmd)).ok
            out.taken += (policy.thoughts.hits - hits) * by_timer
            played += 1
            if played == turns:
                break
            continue
        started, known = m.ahead.started, len(policy.thoughts)
        clock.advance(1.0)
        await m.poll_timers()  # the only way on: nobody else acts
        await m.ahead.wait()
        st = m.tables[CHAT.key].state
        # (No line is worked out past a burn window: a person who may be burned first.)
        by_timer = my_guess(m) is not None and st is not None and not st.window
        out.by_timer += by_timer
        out.thought += by_timer and m.ahead.started > started
        out.worked += (len(policy.thoughts) - known) * by_timer
    await m.drain()
    out.log = m.tables[CHAT.key].log
    return out


async def test_a_turn_reached_by_a_timer_is_thought_ahead_of_the_same() -> None:
    thinking, plain = expert(), expert()
    ahead = await timed_hand(thinking, ahead=True, turns=6)
    without = await timed_hand(plain, ahead=False, turns=6)
    assert isinstance(ahead.log, tuple) and len(ahead.log) > 20
    assert ahead.log == without.log  # the same hand, decision for decision
    assert ahead.by_timer == without.by_timer >= 2
    assert ahead.thought == ahead.by_timer and without.thought == 0  # each was thought on
    assert ahead.worked >= 2 and ahead.taken >= 1 and without.taken == 0
    assert plain.thoughts.hits == 0


# -- a restart: the owed moves made on loading ------------------------------------------
async def test_a_restart_that_makes_the_owed_moves_thinks_ahead(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    await store.open()
    m = await opened(
        expert(), True, FakeClock(), store=store, burn_window_seconds=0, declare_window_seconds=0
    )
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    await m.ahead.wait()
    cmd = my_guess(m)
    assert cmd is not None
    m._ai_moves = _never  # type: ignore[method-assign,assignment]  # dies after the answer
    assert (await m.handle(cmd, ai_later=True)).ok
    played = len(m.tables[CHAT.key].log)
    await m.drain()
    await store.close()

    store = Store(path)
    await store.open()
    policy = expert()
    fresh = TableManager(store=store, clock=FakeClock(), seed_source=lambda: 11, policy=policy)
    await fresh.load()  # the AI seats make the owed moves; the person is to act
    t = fresh.tables[CHAT.key]
    assert len(t.log) > played and t.state is not None and t.state.to_act == 1
    assert fresh.ahead.started == 1
    await fresh.ahead.wait()
    assert len(policy.thoughts) >= 1  # worked out while the person thinks
    await fresh.drain()
    await store.close()


async def _never(*_: object) -> None:
    return None
