"""A turn warning that would reach the player after their turn was played is left
unsent (issue #37, item 3): it waits in the outbox behind the chat's earlier messages,
and with several workers that wait can outlast the turn. Both back ends."""

from __future__ import annotations

from bot.cluster.shell import shared_manager
from bot.cluster.wire import out_to_json
from bot.store import Store
from bot.table import AddBots, FakeClock, OpenTable, PrivateNote, Ready, Start, TableManager
from bot.table.outputs import params_of

from .test_workers import CHAT, ME, Recorder


async def _my_turn(m: TableManager, clock: FakeClock) -> int:
    """Wait (answering 准备好了) until I am to act; returns the engine step."""
    for _ in range(200):
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        if priv is not None and priv.role == "turn":
            st = m.tables[CHAT.key].run.state
            assert st is not None
            return st.step
        if priv is not None and priv.role == "pre_play":
            await m.handle(Ready(chat=CHAT, actor=ME))
            continue
        clock.advance(1)
        await m.poll_timers()
    raise AssertionError("no turn came")


async def test_a_warning_for_a_turn_already_played_is_not_sent(store: Store) -> None:
    clock = FakeClock()
    m = shared_manager(store, worker="w1", clock=clock, seed_source=lambda: 24)
    m.repository.inline_relay = True
    rec = Recorder()
    m.subscribe(rec)
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    step = await _my_turn(m, clock)
    for n, at in enumerate((step - 1, step)):  # an earlier turn's warning, then this one's
        note = PrivateNote(CHAT.key, ME.user_id, "turn_warning", params_of(step=at))
        async with store.transaction() as tx:
            await tx.enqueue(CHAT.key, f"{CHAT.key}#0.{n}", "PrivateNote", out_to_json(note), 0.0)
        await m.repository.relay.pump_chat(CHAT.key)
    warned = [o for o in rec.outs if isinstance(o, PrivateNote) and o.key == "turn_warning"]
    assert warned == [PrivateNote(CHAT.key, ME.user_id, "turn_warning", params_of(step=step))]
