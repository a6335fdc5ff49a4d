"""A human seat at the table: turns, stale buttons, races, timers, 报户, settings, restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.engine.actions import Action, ActionKind
from bot.engine.rules import deck_size
from bot.store import Store
from bot.table import (
    Act,
    AddBots,
    AskCount,
    ChangeSettings,
    HandChanged,
    HandFinished,
    Notice,
    OpenTable,
    PrivateNote,
    Ready,
    SetAutoplay,
    Start,
    TableChanged,
    TableManager,
    TableStatus,
)

from ..live import live
from .conftest import ADMIN, CHAT, PLAYERS, Recorder, set_settings

ME = PLAYERS[0]


async def start_one_human(m: TableManager, **settings: object) -> None:
    set_settings(m, **{"turn_seconds": 30, "match_hands": 1, **settings})
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok


async def wait_for_my_turn(m: TableManager, clock) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        if priv is not None and priv.role == "turn":
            return
        table = m.tables.get(CHAT.key)
        if table is None or table.status is not TableStatus.PLAYING:
            # The hand is over: advancing the clock further would let the finished table
            # close, and whether that happens depends on how the AI seats played.
            raise AssertionError("the table is no longer playing")
        if priv is not None and priv.role == "pre_play":
            await m.handle(Ready(chat=CHAT, actor=ME))
            continue
        if priv is not None and priv.role == "return":
            await m.handle(Act(chat=CHAT, actor=ME, action=priv.legal[0]))
            continue
        clock.advance(4)  # burn windows and pauses only: never the 30 s turn timer
        await m.poll_timers()
    raise AssertionError("no turn came")


def cheapest(legal) -> Action:  # type: ignore[no-untyped-def]
    plays = [a for a in legal if a.kind is ActionKind.PLAY]
    if plays:
        return min(plays, key=lambda a: sum(a.cards or ()))
    return next(a for a in legal if a.kind is ActionKind.PASS)


async def test_human_plays_a_whole_hand_with_buttons(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=21)
    await start_one_human(m)
    t = live(m, CHAT.key)
    turns = 0
    while t.status is TableStatus.PLAYING and turns < 200:
        try:
            await wait_for_my_turn(m, clock)
        except AssertionError:
            break
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        assert priv is not None
        reply = await m.handle(
            Act(chat=CHAT, actor=ME, action=cheapest(priv.legal), version=priv.version)
        )
        assert reply.ok, reply
        turns += 1
    assert turns > 0
    assert any(isinstance(o, HandFinished) for o in rec.outs)
    assert t.status is TableStatus.FINISHED
    private = [o for o in rec.outs if isinstance(o, HandChanged | PrivateNote)]
    assert private and all(o.user == ME.user_id for o in private)


async def test_stale_and_duplicate_presses_never_apply_twice(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=22)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    t = live(m, CHAT.key)
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None
    action = cheapest(priv.legal)
    n_before = len(t.log)
    presses = [Act(chat=CHAT, actor=ME, action=action, version=priv.version) for _ in range(12)]
    replies = await asyncio.gather(*(m.handle(p) for p in presses))
    assert sum(r.ok for r in replies) == 1
    # The same press again from the keyboard that played is a double tap.
    assert {r.key for r in replies if not r.ok} == {"already_played"}
    assert [a for s, a in t.log[n_before:] if s == 1] == [action]
    old = await m.handle(Act(chat=CHAT, actor=ME, action=action, version=priv.version))
    assert not old.ok and old.key == "already_played"
    older = await m.handle(Act(chat=CHAT, actor=ME, action=action, version=priv.version - 1))
    assert not older.ok and older.key == "stale"


async def test_illegal_play_is_refused_with_engine_code(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=23)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    t = live(m, CHAT.key)
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and t.state is not None
    hand = t.state.hands[0]
    bad = tuple(hand[i] + 1 if i == 5 else 0 for i in range(15))  # one 8 more than held
    version = t.version
    r = await m.handle(
        Act(chat=CHAT, actor=ME, action=Action(ActionKind.PLAY, bad), version=version)
    )
    assert not r.ok and r.key == "cards_not_in_hand"
    assert t.version == version and t.state.hands[0] == hand
    other = PLAYERS[3]
    r = await m.handle(Act(chat=CHAT, actor=other, action=Action(ActionKind.PASS), version=version))
    assert r.key == "not_seated"


async def test_timeout_turns_on_autoplay_after_a_warning(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=24)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    t = live(m, CHAT.key)
    step = t.state.step if t.state else -1
    clock.advance(21)  # inside the last 10 s
    await m.poll_timers()
    assert any(isinstance(o, PrivateNote) and o.key == "turn_warning" for o in rec.outs)
    assert t.state is not None and t.state.step == step
    clock.advance(10)
    await m.poll_timers()
    info = t.seats[0]
    assert info is not None and info.autoplay
    assert any(isinstance(o, Notice) and o.key == "autoplay_timeout" for o in rec.outs)
    assert t.state.step > step or t.status is not TableStatus.PLAYING
    assert (await m.handle(SetAutoplay(chat=CHAT, actor=ME, on=False))).key == "autoplay_off"
    assert not t.seats[0].autoplay


async def test_count_question_is_answered_in_the_group(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=25)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    version = m.tables[CHAT.key].version
    r = await m.handle(AskCount(chat=CHAT, actor=ME, target=3))
    assert r.ok and r.param("answer") in ("exact", "not_enough")
    notes = [o for o in rec.outs if isinstance(o, Notice) and o.key == "count_answer"]
    assert notes and notes[-1].param("target") == 3
    assert m.tables[CHAT.key].version == version  # 报户 changes nothing
    set_settings(m, preset="dazhong")


async def test_count_refused_when_the_preset_has_none(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=26)
    await start_one_human(m, preset="match")
    r = await m.handle(AskCount(chat=CHAT, actor=ME, target=2))
    assert not r.ok and r.key == "count_refused"


async def test_settings_admin_only_validated_and_from_next_hand(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=27)
    await start_one_human(m, match_hands=2)
    t = live(m, CHAT.key)
    r = await m.handle(ChangeSettings(chat=CHAT, actor=ME, changes={"preset": "qingdao"}))
    assert not r.ok and r.key == "not_admin"
    assert m.settings_cache[CHAT.group_key].preset == "dagang"
    r = await m.handle(ChangeSettings(chat=CHAT, actor=ADMIN, changes={"kill_two_bigg": True}))
    assert not r.ok and r.key == "unknown_switch" and "kill_two_big" in r.param("allowed")
    r = await m.handle(ChangeSettings(chat=CHAT, actor=ADMIN, changes={"count_rule": "maybe"}))
    assert r.key == "bad_switch_value" and "ask_le10" in r.param("allowed")
    r = await m.handle(ChangeSettings(chat=CHAT, actor=ADMIN, changes={"turn_seconds": -5}))
    assert r.key == "bad_switch_value"
    r = await m.handle(
        ChangeSettings(chat=CHAT, actor=ADMIN, changes={"preset": "weifang", "rang": False})
    )
    assert r.ok
    assert t.rules is not None and t.rules.preset == "dagang"  # the hand in play keeps its rules
    assert m.settings_cache[CHAT.group_key].rules().count_rule == "always"
    info = t.seats[0]
    assert info is not None
    await m.handle(SetAutoplay(chat=CHAT, actor=ME, on=True))
    for _ in range(100):
        if t.match.hand_no == 2:
            break
        clock.advance(15)
        await m.poll_timers()
    assert t.rules.preset == "weifang" and not t.rules.rang


async def test_restart_mid_hand_resumes_and_conserves_cards(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "gouji.sqlite3"
    store = Store(db)
    await store.open()
    m = TableManager(store=store, clock=clock, seed_source=lambda: 31)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    for _ in range(3):
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        assert priv is not None
        await m.handle(Act(chat=CHAT, actor=ME, action=cheapest(priv.legal), version=priv.version))
        try:
            await wait_for_my_turn(m, clock)
        except AssertionError:
            break
    before = m.tables[CHAT.key]
    state_before, log_before = before.state, list(before.log)
    await store.close()

    store2 = Store(db)
    await store2.open()
    m2 = TableManager(store=store2, clock=clock, seed_source=lambda: 999)
    rec = Recorder()
    m2.subscribe(rec)
    assert await m2.load() == 1
    after = live(m2, CHAT.key)
    assert list(after.log) == log_before and after.state == state_before
    assert any(isinstance(o, TableChanged) for o in rec.outs)
    await m2.handle(SetAutoplay(chat=CHAT, actor=ME, on=True))
    for _ in range(200):
        if after.status is TableStatus.FINISHED:
            break
        clock.advance(15)
        await m2.poll_timers()
    assert after.status is TableStatus.FINISHED
    st = after.state
    assert st is not None and st.over
    assert sum(map(sum, st.hands)) + sum(st.played) + sum(st.discarded) == deck_size(st.rules)
    board = await store2.leaderboard(CHAT.group_key)
    assert [p.user_id for p in board] == [ME.user_id] and board[0].hands == 1
    assert len(await store2.finished_hands(CHAT.group_key)) == 1
    await store2.close()


async def test_a_new_table_in_the_same_chat_starts_a_clean_log(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    from bot.table import StopMatch

    db = tmp_path / "g.sqlite3"
    store = Store(db)
    await store.open()
    m = TableManager(store=store, clock=clock, seed_source=lambda: 41)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    assert (await m.handle(StopMatch(chat=CHAT, actor=ME))).ok
    await start_one_human(m)  # a fresh table, deal 1 again, fewer actions so far
    await store.close()
    store2 = Store(db)
    await store2.open()
    m2 = TableManager(store=store2, clock=clock)
    assert await m2.load() == 1
    assert m2.tables[CHAT.key].log == m.tables[CHAT.key].log
    await store2.close()


async def test_group_notices_never_carry_a_private_hand(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=51)
    await start_one_human(m, match_hands=2)
    t = live(m, CHAT.key)
    await m.handle(SetAutoplay(chat=CHAT, actor=ME, on=True))
    for _ in range(100):
        if t.status is TableStatus.FINISHED:
            break
        clock.advance(15)
        await m.poll_timers()
    notices = [o for o in rec.outs if isinstance(o, Notice)]
    assert any(o.key == "ev_tribute_given" for o in notices)  # hand 2 starts with tribute
    public_card_keys = {"ev_played", "ev_burned", "ev_trick_won"}  # cards on the table
    for o in notices:
        params = dict(o.params)
        if o.key not in public_card_keys:
            assert "cards" not in params, o
        assert "hand" not in params and "visible_to" not in params


async def test_adapter_meta_survives_a_restart(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "m.sqlite3"
    store = Store(db)
    await store.open()
    m = TableManager(store=store, clock=clock, seed_source=lambda: 61)
    await start_one_human(m)
    await m.set_meta(CHAT.key, "message_id", 4242)
    snap = m.snapshot(CHAT.key)
    assert snap is not None and dict(snap.meta) == {"message_id": 4242}
    await store.close()
    store2 = Store(db)
    await store2.open()
    m2 = TableManager(store=store2, clock=clock)
    await m2.load()
    snap2 = m2.snapshot(CHAT.key)
    assert snap2 is not None and dict(snap2.meta) == {"message_id": 4242}
    await store2.close()


async def test_a_hand_is_drawn_once_a_state_and_anew_after_each_change(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    """The private view is kept while the table is unchanged (a chat draws it several
    times a state), and never outlives a change: after a play, and after 托管 (which
    moves no card), it is drawn again."""
    m, _ = make_manager(seed=21)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    first = m.private_snapshot(CHAT.key, ME.user_id)
    assert first is not None and m.private_snapshot(CHAT.key, ME.user_id) is first
    assert (await m.handle(SetAutoplay(chat=CHAT, actor=ME, on=True))).ok
    after = m.private_snapshot(CHAT.key, ME.user_id)
    assert after is not None and after is not first
    assert after.autoplay and after.version > first.version
    m.memory.forget(CHAT.key)
    assert m.private_snapshot(CHAT.key, ME.user_id) is None  # nothing kept for a table gone


async def test_a_double_tap_after_a_restart_is_already_played(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "gouji.sqlite3"
    store = Store(db)
    await store.open()
    m = TableManager(store=store, clock=clock, seed_source=lambda: 31)
    await start_one_human(m)
    await wait_for_my_turn(m, clock)
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None
    tap = Act(chat=CHAT, actor=ME, action=cheapest(priv.legal), version=priv.version)
    assert (await m.handle(tap)).ok
    await store.close()

    store2 = Store(db)
    await store2.open()
    m2 = TableManager(store=store2, clock=clock, seed_source=lambda: 999)
    assert await m2.load() == 1
    version = m2.tables[CHAT.key].version
    again = await m2.handle(tap)
    assert not again.ok and again.key == "already_played"
    assert m2.tables[CHAT.key].version == version
    mine = m2.private_snapshot(CHAT.key, ME.user_id)
    assert mine is not None and mine.played == priv.version
    older = await m2.handle(Act(chat=CHAT, actor=ME, action=tap.action, version=priv.version - 1))
    assert older.key == "stale"
    await store2.close()
