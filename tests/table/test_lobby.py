"""Lobby edge cases: joining, leaving, kicking, seats, bots, starting."""

from __future__ import annotations

from bot.table import (
    AddBots,
    Join,
    Kick,
    Leave,
    Notice,
    OpenTable,
    RemoveBot,
    Spectate,
    Start,
    SwapSeat,
    TableStatus,
)

from ..live import live
from .conftest import ADMIN, CHAT, PLAYERS, set_settings


async def test_open_join_and_auto_seating_alternates_teams(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    assert (await m.handle(Join(chat=CHAT, actor=PLAYERS[1]))).key == "no_table"
    r = await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    assert r.key == "table_opened"
    assert (await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[1]))).key == "table_shown"
    seats = [(await m.handle(Join(chat=CHAT, actor=p))).param("seat") for p in PLAYERS[1:6]]
    assert seats == [2, 3, 4, 5, 6]
    t = live(m, CHAT.key)
    assert [s.user_id for s in t.seats if s] == ["u1", "u2", "u3", "u4", "u5", "u6"]


async def test_double_join_and_seventh_player_are_refused(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    r = await m.handle(Join(chat=CHAT, actor=PLAYERS[0]))
    assert not r.ok and r.key == "already_seated" and r.param("seat") == 1
    for p in PLAYERS[1:6]:
        assert (await m.handle(Join(chat=CHAT, actor=p))).ok
    before = m.tables[CHAT.key].version
    r = await m.handle(Join(chat=CHAT, actor=PLAYERS[6]))
    assert not r.ok and r.key == "table_full"
    assert m.tables[CHAT.key].version == before


async def test_pick_a_seat_swap_and_leave(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    assert (await m.handle(Join(chat=CHAT, actor=PLAYERS[1], seat=4))).param("seat") == 4
    assert (await m.handle(Join(chat=CHAT, actor=PLAYERS[2], seat=4))).key == "seat_taken"
    assert (await m.handle(Join(chat=CHAT, actor=PLAYERS[2], seat=9))).key == "bad_seat"
    assert (await m.handle(SwapSeat(chat=CHAT, actor=PLAYERS[1], seat=1))).key == "seat_taken"
    assert (await m.handle(SwapSeat(chat=CHAT, actor=PLAYERS[1], seat=6))).ok
    t = live(m, CHAT.key)
    assert t.seat_of("u2") == 6 and t.seats[3] is None
    assert (await m.handle(Leave(chat=CHAT, actor=PLAYERS[1]))).ok
    assert t.seat_of("u2") is None
    assert (await m.handle(Leave(chat=CHAT, actor=PLAYERS[1]))).key == "not_seated"


async def test_kick_needs_creator_or_admin(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    await m.handle(Join(chat=CHAT, actor=PLAYERS[1]))
    await m.handle(Join(chat=CHAT, actor=PLAYERS[2]))
    r = await m.handle(Kick(chat=CHAT, actor=PLAYERS[1], seat=3))
    assert not r.ok and r.key == "not_creator_or_admin"
    assert m.tables[CHAT.key].seat_of("u3") == 3
    assert (await m.handle(Kick(chat=CHAT, actor=PLAYERS[0], seat=3))).key == "kicked"
    assert m.tables[CHAT.key].seat_of("u3") is None
    assert (await m.handle(Kick(chat=CHAT, actor=ADMIN, seat=2))).ok


async def test_bots_fill_and_start_rules(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    set_settings(m, ai_fill=False)
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    assert (await m.handle(AddBots(chat=CHAT, actor=PLAYERS[0], count=2))).key == "ai_not_allowed"
    r = await m.handle(Start(chat=CHAT, actor=PLAYERS[0]))
    assert not r.ok and r.key == "need_six" and r.param("missing") == 5
    set_settings(m, ai_fill=True)
    m.tables[CHAT.key].settings = m.settings_cache[CHAT.group_key]
    assert (await m.handle(AddBots(chat=CHAT, actor=PLAYERS[1], count=2))).key == "not_seated"
    assert (await m.handle(AddBots(chat=CHAT, actor=PLAYERS[0], count=2))).param("count") == 2
    assert (await m.handle(RemoveBot(chat=CHAT, actor=PLAYERS[0], seat=1))).key == "no_bot_there"
    assert (await m.handle(RemoveBot(chat=CHAT, actor=PLAYERS[0]))).param("seat") == 3
    assert (await m.handle(Start(chat=CHAT, actor=PLAYERS[0]))).ok
    t = live(m, CHAT.key)
    assert t.status is TableStatus.PLAYING and all(t.seats)
    assert sum(1 for s in t.seats if s and s.is_ai) == 5
    assert (await m.handle(Join(chat=CHAT, actor=PLAYERS[3]))).key == "match_in_progress"
    assert (await m.handle(Spectate(chat=CHAT, actor=PLAYERS[3]))).ok
    assert (await m.handle(Start(chat=CHAT, actor=PLAYERS[0]))).key == "already_started"


async def test_leaving_mid_hand_hands_the_seat_to_the_ai(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager()
    set_settings(m, turn_seconds=30)
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    await m.handle(Join(chat=CHAT, actor=PLAYERS[1]))
    await m.handle(AddBots(chat=CHAT, actor=PLAYERS[0], count=4))
    await m.handle(Start(chat=CHAT, actor=PLAYERS[0]))
    t = live(m, CHAT.key)
    assert (await m.handle(Leave(chat=CHAT, actor=PLAYERS[1]))).ok
    info = t.seats[1]
    assert info is not None and info.is_ai and info.name.endswith("·AI")
    assert t.status is TableStatus.PLAYING
    assert any(isinstance(o, Notice) and o.key == "seat_to_ai" for o in rec.outs)
    assert (await m.handle(Leave(chat=CHAT, actor=PLAYERS[0]))).ok
    assert t.status is TableStatus.FINISHED  # nobody human is left
