"""Replies that are not table outputs — an error text, a settings menu and its edits —
go through the outbox with several workers (bot.cluster.shell ``relay_reply``): the
chat's lease holder sends them behind the table's messages, within the one group budget,
and only once. Callback answers (toasts, alerts) stay immediate."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.cluster.shell import shared_manager
from bot.i18n import t
from bot.store import Store
from bot.table import ChatRef, FakeClock, TableManager
from tests.telegram.harness import GROUP_ID, USERS, Harness

CHAT = ChatRef("tg", "-100")


class ClusterHarness(Harness):
    """The Telegram test harness on a worker of a cluster (SQLite stands in for the
    shared database: the outbox and leases are the same)."""

    async def open(self) -> ClusterHarness:
        assert self.db_path is not None
        self.store = Store(self.db_path)
        await self.store.open()
        self.manager = shared_manager(
            self.store, worker="w1", clock=self.clock, seed_source=lambda: 7, lease_seconds=5
        )
        self.bot = self.new_bot()
        await self.bot.initialize()
        return self

    async def settle(self) -> None:
        """Let the relay hand the outbox over, the sender make the calls, the relay mark."""
        manager = self.manager
        assert isinstance(manager, TableManager)
        for _ in range(200):
            await asyncio.sleep(0.01)
            await self.bot.pump()
            if not manager.repository._sending and not self.bot.sender.pending():
                break
        await manager.drain()

    async def outbox(self) -> list[tuple[str, str]]:
        assert self.store is not None
        async with self.store.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch("SELECT kind, state FROM outbox ORDER BY id")
        return [(str(k), str(s)) for k, s in rows]


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[ClusterHarness]:
    harness = await ClusterHarness(tmp_path).open()
    try:
        yield harness
    finally:
        await harness.close()


def texts(h: Harness) -> list[str]:
    return [m.text for m in h.fake.in_chat(GROUP_ID) if m.text]


async def test_an_error_reply_goes_through_the_outbox(h: ClusterHarness) -> None:
    await h.say(USERS[0], "/join")  # no table here: a polite refusal
    assert texts(h) == []  # not straight to the sender: queued in the outbox first
    await h.settle()
    assert texts(h) == [t("no_table")]
    assert await h.outbox() == [("Reply", "sent")]


async def test_a_group_settings_menu_and_its_edits_go_through_the_outbox(
    h: ClusterHarness,
) -> None:
    # An anonymous admin (posting as the group) gets the menu in the group.
    await h.feed(h.fake.command(USERS[5], h.group, "/settings", sender_chat=h.group))
    await h.settle()
    (menu,) = [m for m in h.fake.in_chat(GROUP_ID) if m.buttons()]
    assert await h.outbox() == [("Reply", "sent")]
    h.fake.admins[GROUP_ID].add(USERS[0]["id"])
    answer = await h.press(USERS[0], menu, "s:P")  # the toast is immediate
    assert answer["text"] == ""
    await h.settle()
    assert await h.outbox() == [("Reply", "sent"), ("Reply", "sent")]
    edited = h.fake.in_chat(GROUP_ID)[-1]
    assert edited.message_id == menu.message_id and any(
        d == "s:p:qingdao" for _, d in edited.buttons()
    )


async def test_a_reply_waits_for_the_chats_sender(tmp_path: Path) -> None:
    """Worker w2 may not send to a chat whose lease w1 holds: its reply waits in the
    outbox, and goes out (once) when the lease is free."""
    clock = FakeClock()
    store = Store(tmp_path / "s.sqlite3")
    await store.open()
    try:
        w2 = shared_manager(store, worker="w2", clock=clock, lease_seconds=5)
        said: list[tuple[str, dict[str, Any]]] = []

        async def sink(chat_key: str, payload: dict[str, Any]) -> None:
            said.append((chat_key, payload))

        w2.subscribe_replies(sink)
        async with store.transaction() as tx:
            assert await tx.acquire_lease(CHAT.key, "w1", clock.now(), 5.0)
        assert w2.relay_reply(CHAT.key, {"say": "one"})
        assert w2.relay_reply(CHAT.key, {"say": "two"})
        await w2.drain()
        assert said == []  # w1 holds the chat
        clock.advance(6)
        await w2.poll_timers()
        await w2.drain()
        assert said == [(CHAT.key, {"say": "one"}), (CHAT.key, {"say": "two"})]  # in order
        await w2.poll_timers()
        await w2.drain()
        assert len(said) == 2
    finally:
        await store.close()


async def test_replay_posts_and_stepper_edits_go_through_the_outbox(tmp_path: Path) -> None:
    from tests.telegram.test_records import data_of, fake_image, played_hand

    played = await played_hand(tmp_path)  # one process plays a hand into the database
    await played.close()
    h = await ClusterHarness(tmp_path).open()  # a worker of a cluster on it
    try:
        h.bot.records.image = fake_image
        await h.say(USERS[0], "/replay 1")
        assert h.fake.in_chat(GROUP_ID) == []  # queued in the outbox, not sent here
        await h.settle()
        names = [m.document_name or m.photo_name for m in h.fake.in_chat(GROUP_ID)]
        assert names[1:] == ["gouji-1.json", "replay.png"]
        assert await h.outbox() == [("Reply", "sent")]
        stepper = h.fake.last_photo(GROUP_ID, "replay.png")
        assert stepper.photo == b"replay:1:0:zh"
        await h.press(USERS[0], stepper, data_of(stepper, "▶"))  # answered at once
        await h.settle()
        edited = h.fake.last_photo(GROUP_ID, "replay.png")
        assert edited.message_id == stepper.message_id and edited.photo == b"replay:1:1:zh"
        assert await h.outbox() == [("Reply", "sent"), ("Reply", "sent")]
    finally:
        await h.close()
