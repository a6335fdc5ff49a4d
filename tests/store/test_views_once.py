"""A player's view is queued once per change, however many workers serve the table (issue
38). The worker that commits a step queues, in the same transaction, every player's view
the step changed; a worker that reads the table back from its row counts those views as
sent. Before, a worker knew only the views it had queued itself, so on several workers
every command queued each of the six players' views again — and the players' paced
private lanes held the next turn's keyboard behind those repeats."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.table import AddBots, FakeClock, HandChanged, Join, OpenTable, Start, TableStatus

from .conftest import new_pg_database
from .test_workers import CHAT, ME, YOU, Recorder, my_move, start_worker


async def second_target(request: pytest.FixtureRequest, store_target: str, tmp: Path) -> str:
    """A second fresh store of the same back end."""
    if store_target.endswith(".sqlite3"):
        return str(tmp / "other.sqlite3")
    return await new_pg_database(request.getfixturevalue("pg_server"))


async def views_queued(target: str, names: tuple[str, ...], turns: int) -> Counter[tuple[str, int]]:
    """The same script — open, join, four AI seats, start, ``turns`` commands of the two
    humans — sent to the workers in turn; which (player, table version) views were
    queued, and how often."""
    clock = FakeClock()
    made = [await start_worker(target, name, clock) for name in names]
    hands = Recorder()
    for m, _, _ in made:
        m.subscribe(hands, hands=True)
    managers = [m for m, _, _ in made]
    try:
        setup = [
            OpenTable(chat=CHAT, actor=ME),
            Join(chat=CHAT, actor=YOU),
            AddBots(chat=CHAT, actor=ME, count=4),
            Start(chat=CHAT, actor=ME),
        ]
        sent = 0
        for cmd in setup:
            assert (await managers[sent % len(managers)].handle(cmd)).ok
            sent += 1
        played = 0
        for i in range(400):
            m = managers[sent % len(managers)]
            await m.refresh(CHAT.key)
            t = m.tables.get(CHAT.key)
            if t is None or t.status is not TableStatus.PLAYING or played >= turns:
                break
            cmd = await my_move(m, (ME, YOU)[i % 2])
            if cmd is None:
                continue
            reply = await m.handle(cmd)
            assert reply.ok, reply
            sent += 1
            played += 1
        assert played == turns
        for m in managers:
            await m.drain()
    finally:
        for _, _, store in made:
            await store.close()
    return Counter(
        (o.user, o.snapshot.version)
        for o in hands.outs
        if isinstance(o, HandChanged) and o.snapshot is not None
    )


async def test_two_workers_queue_the_views_one_worker_queues(
    store_target: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    alone = await views_queued(store_target, ("w1",), turns=12)
    other = await second_target(request, store_target, tmp_path)
    shared = await views_queued(other, ("w1", "w2"), turns=12)
    assert sum(alone.values()) >= 12  # each human's turn changed his view
    assert max(alone.values()) == 1  # one view per player and version
    assert shared == alone
