"""Whole matches through the table manager, AI seats only, under every preset."""

from __future__ import annotations

import pytest

from bot.engine.rules import PRESET_NAMES, deck_size
from bot.table import AddBots, HandFinished, MatchOver, OpenTable, Start, TableStatus

from ..live import live
from .conftest import ADMIN, CHAT, set_settings


async def run_to_end(m, clock, limit: int = 400) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        t = live(m, CHAT.key)
        if t.status is TableStatus.FINISHED:
            return
        clock.advance(15)
        await m.poll_timers()
    raise AssertionError("match did not finish")


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_six_ai_seats_play_a_whole_match(make_manager, clock, preset: str) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=5)
    set_settings(m, preset=preset, match_hands=2)
    assert (await m.handle(OpenTable(chat=CHAT, actor=ADMIN, sit=False))).ok
    assert (await m.handle(AddBots(chat=CHAT, actor=ADMIN, count=6))).param("count") == 6
    assert (await m.handle(Start(chat=CHAT, actor=ADMIN))).ok
    await run_to_end(m, clock)
    t = live(m, CHAT.key)
    results = [o for o in rec.outs if isinstance(o, HandFinished)]
    assert t.match.hand_no == 2 and len(results) == 2
    assert sum(r.result.team_scores[0] for r in results) == t.match.totals[0]
    st = t.state
    assert st is not None
    if preset != "match" and not st.rules.positive_only:  # standard scoring is zero-sum
        assert t.match.totals[0] == -t.match.totals[1]
    assert st is not None and st.over
    assert sum(map(sum, st.hands)) + sum(st.played) + sum(st.discarded) + sum(
        st.set_aside
    ) == deck_size(st.rules)
    assert any(isinstance(o, MatchOver) for o in rec.outs)


async def test_matches_replay_identically_from_the_seed(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    logs = []
    for _ in range(2):
        m, _ = make_manager(seed=99)
        set_settings(m, match_hands=1)
        await m.handle(OpenTable(chat=CHAT, actor=ADMIN, sit=False))
        await m.handle(AddBots(chat=CHAT, actor=ADMIN, count=6))
        await m.handle(Start(chat=CHAT, actor=ADMIN))
        await run_to_end(m, clock)
        logs.append([(s, a) for s, a in m.tables[CHAT.key].log])
    assert logs[0] == logs[1] and len(logs[0]) > 30


async def test_point_streaks_carry_from_hand_to_hand(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=7)
    set_settings(m, preset="qingdao", point_streak=True, match_hands=3)
    assert (await m.handle(OpenTable(chat=CHAT, actor=ADMIN, sit=False))).ok
    await m.handle(AddBots(chat=CHAT, actor=ADMIN, count=6))
    assert (await m.handle(Start(chat=CHAT, actor=ADMIN))).ok
    await run_to_end(m, clock)
    t = live(m, CHAT.key)
    results = [o.result for o in rec.outs if isinstance(o, HandFinished)]
    st = t.state
    assert st is not None and len(results) == 3
    # The last hand was dealt with the streaks the hand before it returned ...
    assert st.streaks == results[1].streaks
    assert t.hand_streaks == results[2].streaks  # kept for a next match hand
    from bot.table.record import table_from_json

    assert table_from_json(t.to_json()).hand_streaks == t.hand_streaks  # survives a restart
    # ... and its 点贡 follows them: 1, 2 or 3 cards, none from an exempt seat.
    for tr in results[2].tributes:
        if tr.kind == "point":
            assert tr.count == st.streaks[tr.giver - 1] + 1
    assert any(results[i].streaks != (0,) * 6 for i in range(3))
