"""Thick outputs through the outbox (issue 33, item 3): the snapshots are never written
to the outbox; the worker that delivers a message fills them in from its copy, and a
player's own view reaches only a sink that sees hands."""

from __future__ import annotations

from bot.table import AddBots, HandChanged, Join, OpenTable, Start, TableChanged
from bot.table.outputs import PrivateSnapshot, TableSnapshot

from .test_workers import CHAT, ME, YOU, Recorder, Worker, clock, workers

__all__ = ["clock", "workers"]


async def test_relayed_outputs_arrive_thick_and_hands_only_where_seen(
    workers: list[Worker],
) -> None:
    (a, public_a, _), (b, public_b, _) = workers
    hands = Recorder()
    a.subscribe(hands, hands=True)
    b.subscribe(hands, hands=True)
    assert (await a.handle(OpenTable(chat=CHAT, actor=ME))).ok
    assert (await b.handle(Join(chat=CHAT, actor=YOU))).ok
    assert (await a.handle(AddBots(chat=CHAT, actor=ME, count=4))).ok
    assert (await b.handle(Start(chat=CHAT, actor=ME))).ok
    await a.drain()
    await b.drain()
    changes = [o for o in hands.outs if isinstance(o, TableChanged)]
    assert changes and all(isinstance(o.snapshot, TableSnapshot) for o in changes)
    assert all(o.version == o.snapshot.version for o in changes if o.snapshot is not None)
    seen = [o for o in hands.outs if isinstance(o, HandChanged)]
    assert {o.user for o in seen} == {ME.user_id, YOU.user_id}
    for out in seen:
        assert isinstance(out.snapshot, PrivateSnapshot) and out.snapshot.user_id == out.user
    blind = [o for o in public_a.outs + public_b.outs if isinstance(o, HandChanged)]
    assert len(blind) == len(seen) and all(o.snapshot is None for o in blind)
