"""Thick outputs and per-platform sinks (issue 33, item 3): a ``TableChanged`` carries
the table's snapshot and version, a ``HandChanged`` the player's own view — but only to a
sink that sees hands; a sink subscribed for one front end sees no other's tables."""

from __future__ import annotations

from bot.cluster.wire import out_to_json
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    HandChanged,
    OpenTable,
    Out,
    Start,
    TableChanged,
    TableManager,
)
from bot.table.outputs import PrivateSnapshot, TableSnapshot

from .conftest import Recorder, set_settings

CHAT = ChatRef("test", "g1")
OTHER = ChatRef("other", "g2")
ME = Actor("u1", "甲")


class Only:
    """A front end owning the tables of one platform (as ``bot.frontend.FrontEnd``)."""

    def __init__(self, platform: str) -> None:
        self.prefix = platform + ":"

    def owns(self, table_key: str) -> bool:
        return table_key.startswith(self.prefix)


async def _play(m: TableManager, chat: ChatRef) -> None:
    set_settings(m, chat, turn_seconds=30)
    assert (await m.handle(OpenTable(chat=chat, actor=ME))).ok
    assert (await m.handle(AddBots(chat=chat, actor=ME, count=5))).ok
    assert (await m.handle(Start(chat=chat, actor=ME))).ok


def _manager() -> tuple[TableManager, Recorder, Recorder, Recorder]:
    m = TableManager(clock=FakeClock(), seed_source=lambda: 5)
    hands, public, mine = Recorder(), Recorder(), Recorder()
    m.subscribe(hands, hands=True)
    m.subscribe(public)
    m.subscribe(mine, Only("test"), hands=True)
    return m, hands, public, mine


def _of(outs: list[Out], kind: type) -> list[Out]:
    return [o for o in outs if isinstance(o, kind)]


async def test_a_table_change_carries_the_snapshot_and_its_version() -> None:
    m, _, public, _ = _manager()
    await _play(m, CHAT)
    changes = _of(public.outs, TableChanged)
    assert changes and all(isinstance(o, TableChanged) for o in changes)
    last = changes[-1]
    assert isinstance(last, TableChanged) and isinstance(last.snapshot, TableSnapshot)
    assert last.snapshot == m.snapshot(CHAT.key)
    assert last.version == last.snapshot.version > 0
    versions = [o.version for o in changes if isinstance(o, TableChanged)]
    assert versions == sorted(versions)  # each as the table stood when it was handed over


async def test_a_players_view_goes_only_to_the_sinks_that_see_hands() -> None:
    m, hands, public, _ = _manager()
    await _play(m, CHAT)
    seen = [o for o in _of(hands.outs, HandChanged) if isinstance(o, HandChanged)]
    assert seen
    for out in seen:
        assert isinstance(out.snapshot, PrivateSnapshot)
        assert out.snapshot.user_id == out.user and out.snapshot.seat == out.seat
        assert out.version > 0
        assert "snapshot" not in repr(out)  # a log line never shows the cards
    blind = [o for o in _of(public.outs, HandChanged) if isinstance(o, HandChanged)]
    assert len(blind) == len(seen) and all(o.snapshot is None for o in blind)
    assert all("snapshot" not in out_to_json(o) for o in seen)  # never in the outbox


async def test_a_sink_for_one_front_end_sees_only_its_tables() -> None:
    m, hands, _, mine = _manager()
    await _play(m, CHAT)
    await _play(m, OTHER)
    assert {o.table for o in hands.outs} == {CHAT.key, OTHER.key}
    assert {o.table for o in mine.outs} == {CHAT.key}
    assert len(mine.outs) == len([o for o in hands.outs if o.table == CHAT.key])
