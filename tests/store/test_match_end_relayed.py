"""The end of a match reaches the group and the players when the worker that ran the
match's last step is not the group's sender (issue #37, item 1).

The group's sender (here the worker that posted the table: it holds the chat's lease
idle and sends what the other worker commits) reloaded the table row the last step
wrote; the row was no longer live, so the worker forgot the table and the publisher,
finding no snapshot, posted nothing — no result picture, no final table edit, no final
hand update — while the outbox rows were marked sent. A finished table keeps its last
snapshot (and its last hand's final state) for the adapters. Both back ends; the
defect was PostgreSQL's (a worker there lingers on a chat's lease)."""

from __future__ import annotations

from bot.cluster.shell import shared_manager
from bot.engine.actions import ActionKind
from bot.table import (
    Act,
    Actor,
    AddBots,
    ChatRef,
    Command,
    GroupSettings,
    PrivateSnapshot,
    Ready,
    Start,
    TableSnapshot,
    TableStatus,
    apply_setting_changes,
)
from tests.store.group_workers import open_group_workers, say, until_photos
from tests.store.test_forum import Worker, close_workers, senders, tick, unsent
from tests.telegram.harness import GROUP_ID, USERS, FakeRenderer

CHAT = ChatRef("tg", str(GROUP_ID))
ME = Actor(str(USERS[0]["id"]), "老王")


async def _my_move(w: Worker) -> Command | None:
    m = w.manager
    await m.refresh(CHAT.key)
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    if priv is None or priv.role is None:
        return None
    if priv.role == "pre_play":
        return Ready(chat=CHAT, actor=ME)
    plays = [a for a in priv.legal if a.kind in (ActionKind.PLAY, ActionKind.RETURN_TRIBUTE)]
    action = min(plays, key=lambda a: sum(a.cards or ())) if plays else priv.legal[0]
    return Act(chat=CHAT, actor=ME, action=action, version=priv.version)


async def _play_out_on(
    w: Worker, workers: list[Worker]
) -> tuple[TableSnapshot, PrivateSnapshot | None]:
    """Every command of the match on ``w``, its timers fired by ``w`` alone; returns the
    last table and hand as the worker that ended the match saw them."""
    clock = w.fake.clock
    for _ in range(3000):
        snap = w.manager.snapshot(CHAT.key)
        if snap is not None and snap.status is TableStatus.FINISHED:
            return snap, w.manager.private_snapshot(CHAT.key, ME.user_id)
        cmd = await _my_move(w)
        if cmd is None:
            await tick(workers, clock, polling=[w])  # type: ignore[arg-type]
            continue
        reply = await w.manager.handle(cmd)
        assert reply.ok or reply.key == "stale", reply
        for _ in range(2):
            await tick(workers, clock, polling=[w])  # type: ignore[arg-type]
    raise AssertionError("the match never ended")


async def _until_sent(workers: list[Worker]) -> None:
    for second in range(300):
        await tick(workers, workers[0].fake.clock, second % 2)  # type: ignore[arg-type]
        busy = any(w.bot.sender.pending() or w.manager.repository.relay._busy for w in workers)
        if not busy and not await unsent(workers[0].store):
            return
    raise AssertionError("the outbox never emptied")


async def test_the_end_of_a_match_played_on_another_worker_reaches_everyone(
    store_target: str,
) -> None:
    fake, workers = await open_group_workers(store_target)
    w1, w2 = workers
    try:
        one_hand = apply_setting_changes(GroupSettings(), {"match_hands": 1})
        await w1.store.save_settings(CHAT.group_key, one_hand.to_json())
        # w1 posts the table, and holds the group's lease idle (the whole test long,
        # not the 480 s its lease gives: the match takes longer on the fake clock),
        # sending what w2 commits.
        for w in workers:
            await w.manager.load()  # as in production: PostgreSQL's workers hear commits
        w1.manager.repository.relay.linger = 1e6
        await say(w1, USERS[0], "/gouji")
        await until_photos(workers, fake, 1)
        assert (await w2.manager.handle(AddBots(chat=CHAT, actor=ME, count=5))).ok
        assert (await w2.manager.handle(Start(chat=CHAT, actor=ME))).ok
        final, priv = await _play_out_on(w2, workers)
        await _until_sent(workers)
        for w in workers:
            await w.manager.drain()

        renderer = FakeRenderer()
        group = fake.sends_to(GROUP_ID)
        results = [c for c in group if "result.png" in c.upload_names()]
        assert len(results) == 1  # the result picture, once
        table = fake.last_photo(GROUP_ID, "table.png")
        assert table.photo == renderer.table(final)  # the final table edit
        drawn = [c for c in group if renderer.table(final) in (f for _, f in c.files.values())]
        assert len(drawn) == 1  # ... made once
        assert priv is not None and priv.version == final.version
        hand = renderer.hand(priv, final.names)
        mine = int(ME.user_id)
        assert fake.last_photo(mine, "hand.png").photo == hand  # the final hand update
        assert sum(hand in (f for _, f in c.files.values()) for c in fake.sends_to(mine)) == 1
        # The worker that sent it drew the ended hand as the one that ended it did; so
        # does a worker that reads the finished table afresh (the hand is replayed from
        # how it was dealt: the table's own fields then hold the next hand's tributes).
        assert w1.manager.private_snapshot(CHAT.key, ME.user_id) == priv
        fresh = shared_manager(w1.store, worker="w3", clock=fake.clock)
        await fresh.refresh(CHAT.key)
        assert fresh.private_snapshot(CHAT.key, ME.user_id) == priv
        if w1.manager.repository._listening:  # PostgreSQL: w1 sent the end of the match
            assert set((await senders(w1.store))[-5:]) == {"w1"}
    finally:
        await close_workers(workers)
