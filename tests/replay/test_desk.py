"""The records desk: history, opening a record, stepper sessions, "why" answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine.replay import run_scenario
from bot.records.desk import Opened, RecordDesk, Refused, StepSession, parse_why_args
from bot.records.steps import FrameKind
from bot.store import Store
from bot.table import Actor, AddBots, FakeClock, Join, OpenTable, Start, TableManager

from .helpers import ADMIN, CHAT, finish_match


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[RecordDesk]:
    store = Store(tmp_path / "d.sqlite3")
    await store.open()
    m = TableManager(store=store, clock=FakeClock(), seed_source=lambda: 4242)
    await finish_match(m, 3)
    yield RecordDesk(m)
    await store.close()


async def test_history_lists_the_last_hands_newest_first(desk: RecordDesk) -> None:
    text = await desk.history(CHAT, "en")
    lines = text.splitlines()
    assert lines[0] == "This group's last 3 hands:"
    assert [line.split(" ")[0] for line in lines[1:4]] == ["#3", "#2", "#1"]
    assert "No finished hands" in (await desk.history(CHAT.__class__("test", "other"), "en"))


async def test_open_gives_summary_frames_and_a_file_the_referee_agrees_with(
    desk: RecordDesk,
) -> None:
    opened = await desk.open(CHAT, 2)
    assert isinstance(opened, Opened) and opened.number == 2
    assert opened.frames[0].kind is FrameKind.START and opened.frames[-1].kind is FrameKind.END
    summary = opened.summary("en")
    assert summary.startswith("Record #2") and "Places:" in summary and "Led by:" in summary
    scenario = json.loads(opened.file_bytes())
    final = run_scenario(scenario)[-1]["final"]
    assert final["finish_order"] == list(opened.record.places)
    latest = await desk.open(CHAT, None)
    assert isinstance(latest, Opened) and latest.number == 3


async def test_missing_and_in_play_hands_are_refused(desk: RecordDesk, tmp_path: Path) -> None:
    assert await desk.open(CHAT, 9) == Refused("rec_no_such_hand", (("number", 9),))
    assert await desk.open(CHAT, 0) == Refused("rec_no_such_hand", (("number", 0),))
    # A new match starts at the chat: its hand in play would be #4 and has no record.
    m = desk.manager
    await m.handle(OpenTable(chat=CHAT, actor=ADMIN, sit=False))
    await m.handle(AddBots(chat=CHAT, actor=ADMIN, count=5))
    assert (await m.handle(Join(chat=CHAT, actor=Actor("u1", "甲")))).ok
    assert (await m.handle(Start(chat=CHAT, actor=ADMIN))).ok
    refused = await desk.open(CHAT, 4)
    assert isinstance(refused, Refused) and refused.key == "rec_in_play"
    assert "still in play" in refused.text("en")


async def test_stepper_sessions_refuse_stale_and_foreign_presses(desk: RecordDesk) -> None:
    opened = await desk.open(CHAT, 1)
    assert isinstance(opened, Opened)
    await desk.remember("m1", StepSession(CHAT.group_key, 1, 0, "owner", "zh"))
    moved = await desk.step("m1", "owner", 0, 1)
    assert isinstance(moved, StepSession) and moved.index == 1
    assert await desk.step("m1", "owner", 0, 1) == Refused("rec_stale")  # an old view
    assert await desk.step("m1", "stranger", 1, 2) == Refused("rec_not_yours")
    assert await desk.step("unknown", "owner", 0, 1) == Refused("rec_stale")
    assert await desk.step("m1", "owner", 1, opened.last + 1) == Refused("rec_stale")


async def test_why_explains_tricks_tributes_and_refusals(desk: RecordDesk) -> None:
    opened = await desk.open(CHAT, 2)
    assert isinstance(opened, Opened)
    trick = next(f for f in opened.frames if f.kind is FrameKind.TRICK)
    text = await desk.why(CHAT, 2, trick.index, "en")
    assert text.startswith(f"Why trick {trick.trick} ended") and "(rules §" in text
    end = await desk.why(CHAT, 2, opened.last, "en")
    assert end.splitlines()[0] == "Owed to the next hand:"
    owed = opened.played.final.result.tributes  # type: ignore[union-attr]
    assert len(end.splitlines()) == 1 + max(1, len(owed))
    start = await desk.why(CHAT, 2, 0, "en")
    if opened.record.owed:
        assert "(rules §10)" in start
    # a seat that had passed could not come back into the trick (asked with a set that
    # beats the play on top, so the lock is the only reason: find such a trick)
    from bot.engine.cards import NOTATION
    from bot.engine.plays import Play, beats

    for frame in (f for f in opened.frames if f.kind is FrameKind.TRICK):
        state = frame.state
        top = state.top_play
        if top is None:
            continue
        size = top.size
        held_sets = [
            (seat, i)
            for seat in sorted(state.locked)
            for i, n in enumerate(state.hands[seat - 1][:12])
            if n >= size and beats(Play(i + 3, size), top, state.rules)
        ]
        if held_sets:
            seat, rank = held_sets[0]
            cards = NOTATION[rank] * size
            answer = await desk.why(CHAT, 2, frame.index, "en", seat=seat, cards=cards)
            assert "refused" in answer and "(rules §7)" in answer
            break
    else:
        raise AssertionError("no trick with a locked seat holding a beating set")
    # cards nobody holds are refused with the engine's code and its section
    answer = await desk.why(CHAT, 2, trick.index, "zh", seat=trick.winner, cards="BBBBBBBB")
    assert "被拒" in answer and "§4" in answer
    assert "0 到" in await desk.why(CHAT, 2, 999, "zh")


def test_why_arguments() -> None:
    assert parse_why_args(["3", "5"]) == (3, 5, None, None, False)
    assert parse_why_args(["3", "5", "2", "kk"]) == (3, 5, 2, "KK", False)
    assert parse_why_args(["3", "5", "2", "烧", "jjj"]) == (3, 5, 2, "JJJ", True)
    for bad in (["x", "1"], ["1"], ["1", "2", "7", "KK"], ["1", "2", "3", "x", "KK"]):
        assert parse_why_args(bad) is None
