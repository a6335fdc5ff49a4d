"""Two workers, one database (bot.cluster.shell): any worker serves any table, a timer
fires once whichever worker polls, every output is relayed once, and what a dead worker
committed but never sent goes out from another. Both back ends; PostgreSQL is the one
meant for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.cluster.shell import FOLLOW_READS, shared_manager
from bot.engine.actions import ActionKind
from bot.records.desk import SESSION_TTL, RecordDesk, Refused, StepSession
from bot.store import Store
from bot.table import (
    Act,
    Actor,
    AddBots,
    ChatRef,
    Command,
    FakeClock,
    GroupSettings,
    Join,
    Leave,
    OpenTable,
    Ready,
    Start,
    TableManager,
    TableStatus,
    apply_setting_changes,
)
from bot.table.outputs import HandFinished, MatchOver, Notice, Out, PrivateNote

CHAT = ChatRef("tg", "-100")
ME = Actor("u1", "甲")
YOU = Actor("u2", "乙")


class Recorder:
    def __init__(self) -> None:
        self.outs: list[Out] = []

    async def __call__(self, out: Out) -> None:
        self.outs.append(out)


Worker = tuple[TableManager, Recorder, Store]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def start_worker(target: str, name: str, clock: FakeClock) -> Worker:
    store = Store(target)
    await store.open()
    m = shared_manager(
        store,
        worker=name,
        clock=clock,
        seed_source=lambda: 77,
        burn_window_seconds=0,
        declare_window_seconds=0,
        between_hands_seconds=0,
        lease_seconds=5,
        inline_relay=True,
    )
    rec = Recorder()
    m.subscribe(rec)
    return m, rec, store


@pytest.fixture
async def workers(store_target: str, clock: FakeClock) -> AsyncIterator[list[Worker]]:
    made = [await start_worker(store_target, name, clock) for name in ("w1", "w2")]
    settings = apply_setting_changes(GroupSettings(), {"match_hands": 1, "turn_seconds": 30})
    await made[0][2].save_settings(CHAT.group_key, settings.to_json())
    try:
        yield made
    finally:
        for _, _, store in made:
            await store.close()


async def my_move(m: TableManager, who: Actor) -> Command | None:
    await m.refresh(CHAT.key)
    priv = m.private_snapshot(CHAT.key, who.user_id)
    if priv is None or priv.role is None:
        return None
    if priv.role == "pre_play":
        return Ready(chat=CHAT, actor=who)
    plays = [a for a in priv.legal if a.kind in (ActionKind.PLAY, ActionKind.RETURN_TRIBUTE)]
    action = min(plays, key=lambda a: sum(a.cards or ())) if plays else priv.legal[0]
    return Act(chat=CHAT, actor=who, action=action, version=priv.version)


async def test_any_worker_serves_any_table(workers: list[Worker], clock: FakeClock) -> None:
    (a, rec_a, store), (b, rec_b, _) = workers
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok  # b sees a's table
    assert (await a.handle(AddBots(chat=CHAT, actor=ME, count=4))).ok  # a sees b's seat
    assert (await b.handle(Start(chat=CHAT, actor=ME))).ok
    moves = 0
    for i in range(600):
        m = (a, b)[i % 2]  # one chat's updates land on both workers, alternately
        who = (ME, YOU)[(i // 2) % 2]
        await m.refresh(CHAT.key)
        t = m.tables.get(CHAT.key)
        if t is None or t.status is not TableStatus.PLAYING:
            break
        cmd = await my_move(m, who)
        if cmd is None:
            clock.advance(1)
            await m.poll_timers()
            continue
        reply = await m.handle(cmd)
        assert reply.ok or reply.key == "stale", reply
        moves += reply.ok
    assert moves > 5
    await a.refresh(CHAT.key)
    await b.refresh(CHAT.key)
    # the match is over: the store has it finished; each worker holds its last state
    # (the match's last messages are drawn from it) until ``finished_ttl``, as one
    # process does, and neither has it as a live table
    assert not a.tables[CHAT.key].live() and not b.tables[CHAT.key].live()
    assert a.snapshot(CHAT.key) == b.snapshot(CHAT.key)
    assert await a.current(CHAT) is None and await b.current(CHAT) is None
    clock.advance(a.finished_ttl + 1)
    assert a.evict() == 1 and b.evict() == 1  # then it leaves memory, with its versions
    assert CHAT.key not in a.tables and CHAT.key not in a.repository._versions
    assert await store.live_table(CHAT.key) is None
    (_hand,) = await store.finished_hands(CHAT.group_key)  # recorded once
    board = await b.leaderboard(CHAT.group_key)
    assert sorted((p.user_id, p.hands) for p in board) == [("u1", 1), ("u2", 1)]
    assert await a.tables_of("u1") == [] and await b.tables_of("u2", "tg") == []
    outs = rec_a.outs + rec_b.outs
    assert sum(isinstance(o, HandFinished) for o in outs) == 1  # relayed once
    assert sum(isinstance(o, MatchOver) for o in outs) == 1


async def test_a_stale_copy_is_reloaded_not_trusted(workers: list[Worker]) -> None:
    (a, _, _), (b, _, _) = workers
    await a.handle(OpenTable(chat=CHAT, actor=ME))
    await b.refresh(CHAT.key)
    assert (await a.handle(Join(chat=CHAT, actor=YOU))).ok  # b's copy is now old
    # b still believes seat 2 is free; its command must see the table as it is.
    again = await b.handle(Join(chat=CHAT, actor=YOU))
    assert not again.ok and again.key == "already_seated"
    t = b.tables[CHAT.key]
    assert [s.user_id if s else None for s in t.seats][:2] == ["u1", "u2"]


async def test_a_turn_timer_fires_once_whoever_polls(
    workers: list[Worker], clock: FakeClock
) -> None:
    (a, rec_a, _), (b, rec_b, _) = workers
    await a.handle(OpenTable(chat=CHAT, actor=ME))
    await a.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await b.handle(Start(chat=CHAT, actor=ME))
    for _ in range(20):  # to the human's turn: his 30 s timer runs
        cmd = await my_move(a, ME)
        if cmd is None or isinstance(cmd, Act):
            break
        await a.handle(cmd)
    rec_a.outs.clear()
    rec_b.outs.clear()
    for _ in range(12):  # well past the warning and the timeout, both workers polling
        clock.advance(5)
        await asyncio.gather(a.poll_timers(), b.poll_timers(), a.poll_timers())
    notes = [o for o in rec_a.outs + rec_b.outs if isinstance(o, Notice | PrivateNote)]
    timeouts = [o for o in notes if o.key == "autoplay_timeout"]
    warnings = [o for o in notes if o.key == "turn_warning"]
    # The human's turn timed out once: warned once, put on 托管 once, and 托管 then
    # played the hand out (so no further turn of his ever waited).
    assert len(warnings) == 1 and len(timeouts) == 1
    assert dict(timeouts[0].params)["seat"] == 1
    assert sum(isinstance(o, HandFinished) for o in rec_a.outs + rec_b.outs) == 1


async def test_what_a_dead_worker_committed_is_sent_by_another(
    workers: list[Worker], store_target: str, clock: FakeClock
) -> None:
    (a, rec_a, _), (b, rec_b, _) = workers

    async def dead(message: object) -> dict[str, object]:
        raise ConnectionError("worker gone")

    a.repository.relay.deliver = dead  # a commits its steps, then dies before sending
    with pytest.raises(ConnectionError):
        await a.handle(OpenTable(chat=CHAT, actor=ME))
    assert rec_a.outs == []
    clock.advance(2)
    await b.poll_timers()  # a's lease on the chat has not run out yet
    assert rec_b.outs == []
    clock.advance(5)
    await b.poll_timers()
    assert [type(o).__name__ for o in rec_b.outs] == ["TableChanged"]
    await b.poll_timers()
    assert len(rec_b.outs) == 1  # and only once


async def test_the_service_sends_through_the_outbox_on_both_back_ends(store: Store) -> None:
    """A worker of several on PostgreSQL; on SQLite the one process (``solo``: no other
    worker, yet its messages are in the outbox until sent: issue #38)."""
    from bot.cluster.shell import SharedTables
    from bot.service import make_manager
    from bot.table import TableManager

    manager = make_manager(store)
    shared = store.dialect == "postgres"
    assert manager.shared is shared
    assert isinstance(manager, TableManager)
    assert isinstance(manager.publisher, SharedTables)
    assert manager.publisher.solo is not shared
    assert manager.publisher.shows_thinking


async def test_other_workers_copies_follow_each_commit(workers: list[Worker]) -> None:
    """What an adapter reads before a command (a menu, a snapshot) is current on every
    worker, not only on the one that ran the last command (PostgreSQL's NOTIFY)."""
    (a, _, store), (b, _, _) = workers
    await a.handle(OpenTable(chat=CHAT, actor=ME))
    assert await b.load() == 1 and b.snapshot(CHAT.key) is not None  # read at start
    await a.load()
    assert (await a.handle(Join(chat=CHAT, actor=YOU))).ok
    if store.dialect != "postgres":
        return  # one process: no other worker to tell
    for _ in range(100):
        snap = b.snapshot(CHAT.key)
        if snap is not None and snap.seats[1] is not None:
            break
        await asyncio.sleep(0.02)
    snap = b.snapshot(CHAT.key)
    assert snap is not None and snap.seats[1] is not None and snap.seats[1].user_id == "u2"


async def test_a_burst_of_commits_is_followed_a_few_reads_at_a_time(
    workers: list[Worker],
) -> None:
    """Every commit elsewhere starts a reload here; a burst of them reads at most
    ``FOLLOW_READS`` tables at once (the bookkeeping's other connections stay the relay's),
    and every copy still ends up current."""
    (a, _, store), (b, _, _) = workers
    if store.dialect != "postgres":
        return  # one process: nothing to follow
    chats = [ChatRef("tg", str(-200 - i)) for i in range(3 * FOLLOW_READS)]
    for chat in chats:
        await a.handle(OpenTable(chat=chat, actor=ME))
    await b.load()
    reading = most = 0
    read = b.repository._refresh_behind

    async def counted(key: str) -> None:
        nonlocal reading, most
        reading += 1
        most = max(most, reading)
        try:
            await asyncio.sleep(0.2)  # a slow read: the burst piles up
            await read(key)
        finally:
            reading -= 1

    b.repository._refresh_behind = counted  # type: ignore[method-assign]
    for chat in chats:
        assert (await a.handle(Join(chat=chat, actor=YOU))).ok
    for _ in range(200):
        tables = b.repository
        if not any(tables._behind(chat.key) for chat in chats) and not tables._refreshing:
            break
        await asyncio.sleep(0.02)
    assert 1 <= most <= FOLLOW_READS
    for chat in chats:
        snap = b.snapshot(chat.key)
        assert snap is not None and snap.seats[1] is not None, chat


async def test_an_unreadable_message_is_skipped_not_blocking_the_chat(
    workers: list[Worker],
) -> None:
    (a, rec_a, store), _ = workers
    async with store.transaction() as tx:
        await tx.enqueue(CHAT.key, "bad", "Nope", {"kind": "from-the-future"}, 0.0)
    await a.handle(OpenTable(chat=CHAT, actor=ME))  # its messages queue behind the bad one
    assert [type(o).__name__ for o in rec_a.outs] == ["TableChanged"]
    async with store.transaction(readonly=True) as tx:
        assert await tx.unsent(CHAT.key) == []
        assert await tx.sent_result("bad") == {"worker": "w1", "skipped": "unreadable"}


async def test_an_adapters_value_is_shared_without_a_new_table_version(
    workers: list[Worker], store_target: str, clock: FakeClock
) -> None:
    """Message ids and the group budget's calls (``set_meta``) go to rows of their own:
    no table lock, no new version; every worker reads them (notified, or on load)."""
    (a, _, store), (b, _, _) = workers
    await a.handle(OpenTable(chat=CHAT, actor=ME))
    assert await b.load() == 1  # b reads the table and listens
    async with store.transaction(readonly=True) as tx:
        version = await tx.table_version(CHAT.key)
    await a.set_meta(CHAT.key, "tg_table", {"chat": -100, "message": 7, "hand": 0})
    async with store.transaction(readonly=True) as tx:
        assert await tx.table_version(CHAT.key) == version
    snap = a.snapshot(CHAT.key)
    assert snap is not None and dict(snap.meta)["tg_table"]["message"] == 7
    if store.dialect == "postgres":  # b hears of it
        for _ in range(100):
            seen = b.snapshot(CHAT.key)
            if seen is not None and "tg_table" in dict(seen.meta):
                break
            await asyncio.sleep(0.02)
        seen = b.snapshot(CHAT.key)
        assert seen is not None and dict(seen.meta)["tg_table"]["message"] == 7
    fresh, _, other = await start_worker(store_target, "w3", clock)
    try:
        await fresh.refresh(CHAT.key)
        loaded = fresh.snapshot(CHAT.key)
        assert loaded is not None and dict(loaded.meta)["tg_table"]["message"] == 7
    finally:
        await other.close()


async def test_who_sits_where_is_answered_by_the_store(
    workers: list[Worker], store_target: str, clock: FakeClock
) -> None:
    """``tables_of`` (a player's /start in private: which hands to show) knows the seats
    taken on any worker, also on a worker that never held the table."""
    (a, _, _), (b, _, _) = workers
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok
    fresh, _, other = await start_worker(store_target, "w3", clock)
    try:
        assert CHAT.key not in fresh.tables
        assert await fresh.tables_of("u1", "tg") == [CHAT.key]
        assert await fresh.tables_of("u2") == [CHAT.key]
        assert await fresh.tables_of("u2", "dc") == []
        assert (await b.handle(Leave(chat=CHAT, actor=YOU))).ok  # seen by a's next write
        assert await fresh.tables_of("u2") == []
        assert (await a.handle(Join(chat=CHAT, actor=YOU))).ok  # a's copy was stale
        assert await fresh.tables_of("u2") == [CHAT.key]
        assert await fresh.tables_of("nobody") == []
    finally:
        await other.close()


async def test_a_replay_stepper_opened_on_one_worker_steps_on_another(
    workers: list[Worker], clock: FakeClock
) -> None:
    (a, _, _), (b, _, _) = workers
    on_a, on_b = RecordDesk(a), RecordDesk(b)
    await on_a.remember("tg:-100:55", StepSession(CHAT.group_key, 3, 0, "u1", "en"))
    moved = await on_b.step("tg:-100:55", "u1", 0, 1)  # the press arrives at b
    assert isinstance(moved, StepSession) and (moved.number, moved.index) == (3, 1)
    assert moved.lang == "en" and moved.group == CHAT.group_key
    assert await on_a.step("tg:-100:55", "u1", 0, 1) == Refused("rec_stale")  # old view
    assert await on_a.step("tg:-100:55", "u2", 1, 2) == Refused("rec_not_yours")
    # Two presses on the same view at two workers at once: one moves it, one is stale.
    both = await asyncio.gather(
        on_a.step("tg:-100:55", "u1", 1, 2), on_b.step("tg:-100:55", "u1", 1, 0)
    )
    assert sorted(isinstance(r, StepSession) for r in both) == [False, True]
    session = await on_b.session("tg:-100:55")
    assert session is not None and session.index in (0, 2)
    # A day later the stepper is out of date everywhere, politely.
    clock.advance(SESSION_TTL + 1)
    assert await on_b.session("tg:-100:55") is None
    assert await on_a.step("tg:-100:55", "u1", session.index, 1) == Refused("rec_stale")


async def test_a_private_menu_sent_by_one_worker_is_answered_by_another(
    workers: list[Worker], clock: FakeClock
) -> None:
    (a, _, _), (b, _, _) = workers
    await a.interactions.keep("tg:menu:7:9", "tg_private_menu", {"chat": CHAT.key}, 60.0)
    kept = await b.interactions.get("tg:menu:7:9", "tg_private_menu")
    assert kept is not None and kept.value == {"chat": CHAT.key}
    assert await b.interactions.get("tg:menu:7:9", "stepper") is None  # another kind
    clock.advance(61)
    assert await b.interactions.get("tg:menu:7:9", "tg_private_menu") is None  # expired
    # Keeping a new one clears the expired ones from the store.
    await b.interactions.keep("tg:menu:7:10", "tg_private_menu", {"chat": CHAT.key}, 60.0)
    async with b.repository.db.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch("SELECT key FROM interactions")
    assert [r[0] for r in rows] == ["tg:menu:7:10"]
