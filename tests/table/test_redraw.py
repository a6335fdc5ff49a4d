"""The table is redrawn whenever what it shows changes: every deadline that fires and
changes the turn line (whose turn, its deadline, the burn window, the declaration pause)
sends TableChanged — a burn window that closes with nobody burning included."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import HeuristicPolicy
from bot.engine.rules import PRESET_NAMES
from bot.table import Actor, AddBots, ChatRef, FakeClock, Join, OpenTable, Start, TableChanged
from bot.table.core.context import Config, Env
from bot.table.core.step import tick_table
from bot.table.core.views import table_snapshot
from bot.table.record import Table

from .conftest import Recorder, set_settings

CHAT = ChatRef("test", "redraw")
POLICY = HeuristicPolicy()


def turn_line(t: Table) -> tuple[Any, ...]:
    """What the table message's turn line is drawn from."""
    snap = table_snapshot(t, {})
    to_act = snap.public.to_act if snap.public is not None else None
    return (snap.status, to_act, snap.window_open, snap.declare_open, snap.deadline)


async def a_table(seed: int, humans: int, preset: str) -> Table:
    from bot.table import TableManager

    clock = FakeClock()
    m = TableManager(clock=clock, seed_source=lambda: seed)
    m.subscribe(Recorder())
    set_settings(m, CHAT, preset=preset, turn_seconds=20, match_hands=2)
    people = [Actor(f"p{i}", f"人{i}") for i in range(humans)]
    await m.handle(OpenTable(chat=CHAT, actor=people[0]))
    for p in people[1:]:
        await m.handle(Join(chat=CHAT, actor=p))
    await m.handle(AddBots(chat=CHAT, actor=people[0], count=6 - humans))
    assert (await m.handle(Start(chat=CHAT, actor=people[0]))).ok
    return m.tables[CHAT.key]


def fire_all(t: Table, limit: int = 400) -> tuple[int, int]:
    """Let every deadline run out (nobody presses anything); check each firing. Returns
    (firings that changed the turn line, of them burn windows that closed empty)."""
    settings_ = t.settings
    config = Config(burn_window_seconds=3, declare_window_seconds=12, between_hands_seconds=12)
    changed = empty_burns = 0
    for _ in range(limit):
        d = t.run.deadline
        if d is None or d.at is None:
            break
        before, burn = turn_line(t), t.run.window
        result = tick_table(t, Env(d.at + 0.01, settings_, config, POLICY))
        assert result.table is not None
        after = result.table
        if turn_line(after) != before:
            changed += 1
            assert any(isinstance(o, TableChanged) for o in result.outs), (before, turn_line(after))
            assert after.version > t.version, "a redraw comes with a new version"
            if burn is not None and burn.declared == () and burn.queued is None:
                empty_burns += 1
        t = after
    return changed, empty_burns


async def test_a_burn_window_that_closes_empty_redraws_the_table() -> None:
    empties = 0
    for seed in range(1, 6):
        _, e = fire_all(await a_table(seed, 3, "qingdao"))
        empties += e
    assert empties > 0, "the hands chosen open burn windows that nobody uses"


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(1, 10_000),
    humans=st.integers(1, 6),
    preset=st.sampled_from(PRESET_NAMES),
)
def test_every_deadline_that_changes_the_turn_line_redraws(
    seed: int, humans: int, preset: str
) -> None:
    fire_all(asyncio.run(a_table(seed, humans, preset)))
