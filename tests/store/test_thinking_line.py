"""A worker of several shows an AI seat that thinks long, as one process does
(``bot.cluster.thinking``): the edit goes through the outbox and the chat's sender
renders the table as it stands, marked with the thinking seat."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.ai import NormalPolicy
from bot.cluster import receipts
from bot.cluster.shell import shared_manager
from bot.engine import Action
from bot.engine.views import SeatView
from bot.store import Store
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    OpenTable,
    Start,
    TableManager,
    apply_setting_changes,
)
from bot.table.outputs import Out, TableChanged, TableSnapshot

from .conftest import new_pg_database
from .pgserver import PgServer

CHAT = ChatRef("tg", "-7")
ME = Actor("admin", "管理员", is_admin=True)


class SlowSearch:
    """Normal's choices; its first ``slow`` searching decisions take ``seconds``."""

    def __init__(self, slow: int, seconds: float) -> None:
        self.inner = NormalPolicy()
        self.slow = slow
        self.seconds = seconds

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.inner.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: object, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if self.slow > 0:
            self.slow -= 1
            time.sleep(self.seconds)
        return self.inner.choose(view, legal, rng)


@pytest.fixture
async def store(pg_server: PgServer) -> AsyncIterator[Store]:
    """The shared database the workers run on (PostgreSQL)."""
    s = Store(await new_pg_database(pg_server))
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def _table(store: Store, policy: SlowSearch) -> tuple[TableManager, list[TableSnapshot]]:
    m = shared_manager(
        store, worker="w1", clock=FakeClock(), seed_source=lambda: 5, policy=policy,
        lease_seconds=30, inline_relay=True,
    )  # fmt: skip
    m.thinking_after = 0.3
    shown: list[TableSnapshot] = []

    async def adapter(out: Out) -> None:  # a well-behaved adapter: its call returns at once
        ack = receipts.expect()
        if isinstance(out, TableChanged) and out.table == CHAT.key:
            snap = m.snapshot(CHAT.key)
            assert snap is not None
            shown.append(snap)
        if ack is not None:
            ack()

    m.subscribe(adapter)
    settings = apply_setting_changes(GroupSettings(), {"match_hands": 1, "turn_seconds": 0})
    m.use_settings(CHAT, settings)
    assert (await m.handle(OpenTable(chat=CHAT, actor=ME, sit=False))).ok
    assert (await m.handle(AddBots(chat=CHAT, actor=ME, count=6))).ok
    return m, shown


async def _kinds(store: Store) -> list[tuple[str, str]]:
    async with store.transaction(readonly=True) as tx:
        rows = await tx.tx.fetch(
            "SELECT msg_key, state FROM outbox WHERE chat_key = ? ORDER BY id", CHAT.key
        )
    return [(str(k), str(s)) for k, s in rows]


async def test_a_worker_of_several_shows_a_seat_thinking_long(store: Store) -> None:
    m, shown = await _table(store, SlowSearch(slow=1, seconds=1.5))
    assert m.publisher.shows_thinking
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    await m.drain()
    thinking = [s for s in shown if s.thinking is not None]
    assert len(thinking) == 1  # the slow decision, once
    snap = thinking[0]
    assert snap.public is not None and snap.public.to_act == snap.thinking
    # It went through the outbox, sent by the chat's one sender, and is marked sent.
    rows = await _kinds(store)
    assert [s for k, s in rows if ".thinking-" in k] == ["sent"]
    # Queued before the step's own messages (the step had not committed yet).
    keys = [k for k, _ in rows]
    first_think = next(i for i, k in enumerate(keys) if ".thinking-" in k)
    assert any(i > first_think for i, _ in enumerate(keys))
    after = m.snapshot(CHAT.key)
    assert after is not None and after.thinking is None  # the step is over: the real table


async def test_sqlite_standing_in_shows_no_thinking_line(tmp_path: Path) -> None:
    # One file locked for the whole step: the edit could only come after it.
    s = Store(str(tmp_path / "store.sqlite3"))
    await s.open()
    try:
        m, shown = await _table(s, SlowSearch(slow=1, seconds=0.6))
        assert not m.publisher.shows_thinking
        assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
        assert shown and all(snap.thinking is None for snap in shown)
    finally:
        await s.close()


async def test_a_quick_seat_queues_no_thinking_edit(store: Store) -> None:
    m, shown = await _table(store, SlowSearch(slow=0, seconds=0.0))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    await m.drain()
    assert shown and all(s.thinking is None for s in shown)
    assert not [k for k, _ in await _kinds(store) if ".thinking-" in k]
