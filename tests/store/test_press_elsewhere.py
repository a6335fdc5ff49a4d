"""A button press reaching a worker whose copy of the table is behind the keyboard: the
keyboard was made from a state another worker committed, and word of that commit (its
NOTIFY) has not reached this worker yet. The press proves the copy stale, so the worker
reads the table again and plays the press — it must not call a current button out of
date. Both back ends."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from telegram import Update

from adapters.telegram.callback import ActPress, BadPayload, decode
from bot.i18n import t
from bot.table import ChatRef, FakeClock, TableSnapshot
from tests.store.test_forum import Worker, close_workers, open_workers, tick
from tests.telegram.fakeapi import FakeTelegram, Message
from tests.telegram.harness import GROUP_ID, USERS

WANG = USERS[0]
CHAT = ChatRef("tg", str(GROUP_ID))
COMMANDS = ("x", "K", "g")  # pass, ready, a ready-made play: each a command


async def feed(worker: Worker, update: dict[str, Any]) -> None:
    await worker.bot.app.process_update(Update.de_json(update, worker.bot.app.bot))


def a_command(msg: Message) -> str | None:
    """A button of this keyboard that is a command, if it has one."""
    found: dict[str, str] = {}
    for _, data in msg.buttons():
        with contextlib.suppress(BadPayload):
            press = decode(data)
            if isinstance(press, ActPress) and press.op in COMMANDS:
                found.setdefault(press.op, data)
    return next((found[op] for op in COMMANDS if op in found), None)


async def press_on(worker: Worker, fake: FakeTelegram, msg: Message, data: str) -> str:
    before = len(fake.answers())
    await feed(worker, fake.press(WANG, msg, data))
    answers = fake.answers()
    assert len(answers) == before + 1, "every press is answered"
    return str(answers[-1].get("text", ""))


async def a_turn(
    workers: list[Worker], fake: FakeTelegram, clock: FakeClock
) -> tuple[Message, str]:
    """Wang's hand message once it offers a command (sent by whichever of these sends)."""
    for _ in range(60):
        await tick(workers, clock)
        with contextlib.suppress(LookupError):
            msg = fake.last_photo(WANG["id"], "hand.png")
            data = a_command(msg)
            if data is not None:
                return msg, data
    raise AssertionError("Wang was never offered a command")


async def cluster(store_target: str) -> tuple[FakeClock, FakeTelegram, list[Worker]]:
    """Two workers and one group where Wang may be written to in private."""
    clock = FakeClock()
    fake = FakeTelegram(clock)
    fake.add_group(GROUP_ID, "够级群")
    fake.opened.add(WANG["id"])
    return clock, fake, await open_workers(store_target, clock, fake)


async def test_a_button_newer_than_the_workers_copy_is_played_not_refused(
    store_target: str,
) -> None:
    clock, fake, workers = await cluster(store_target)
    w1, w2 = workers
    try:
        for text in ("/gouji", "/addbot 5", "/begin"):
            await feed(w1, fake.command(WANG, fake.chats[GROUP_ID], text))
        msg, data = await a_turn(workers, fake, clock)
        assert await w2.manager.current(CHAT) is not None  # w2 holds a copy: this state
        behind = w2.manager.snapshot(CHAT.key)
        assert behind is not None
        # From here w2 has heard of no commit (its NOTIFY is still on the way): it follows
        # none, and believes its copy current.
        manager = w2.manager

        async def no_follow(key: str) -> None:
            pass

        async def believed_current(chat: ChatRef) -> TableSnapshot | None:
            return manager.snapshot(chat.key)

        manager.repository._follow = no_follow  # type: ignore[method-assign]
        manager.current = believed_current  # type: ignore[method-assign]
        ok = {t(k, "zh") for k in ("ok", "ready", "held_for_burns")}
        assert await press_on(w1, fake, msg, data) in ok
        msg, data = await a_turn([w1], fake, clock)  # w1 sends (delivering reads tables)
        assert decode(data).version > behind.version  # type: ignore[union-attr]

        answer = await press_on(w2, fake, msg, data)

        assert answer in ok, answer  # not t("stale")
        now = w2.manager.snapshot(CHAT.key)
        assert now is not None and now.version > decode(data).version  # type: ignore[union-attr]
    finally:
        await close_workers(workers)


async def test_a_table_begun_on_another_worker_is_found_for_its_first_press(
    store_target: str,
) -> None:
    """A button names its table by a short id (its key and match); a worker finds an id it
    never made among its copies. A table begun elsewhere, whose commits this worker heard
    of but has not read yet (its follows queued), is read at once for such a press."""
    clock, fake, workers = await cluster(store_target)
    w1, w2 = workers
    try:
        if w2.store.dialect != "postgres":
            return  # one process: no commits to hear of
        await w2.manager.load()  # now listening

        async def queued(key: str) -> None:
            pass  # its turn among the follows never comes

        w2.manager.repository._follow = queued  # type: ignore[method-assign]
        for text in ("/gouji", "/addbot 5", "/begin"):
            await feed(w1, fake.command(WANG, fake.chats[GROUP_ID], text))
        msg, data = await a_turn([w1], fake, clock)
        for _ in range(100):
            if w2.manager.repository._behind(CHAT.key):
                break
            await asyncio.sleep(0.02)
        assert w2.manager.snapshot(CHAT.key) is None  # heard of, never read

        answer = await press_on(w2, fake, msg, data)

        assert answer in {t(k, "zh") for k in ("ok", "ready", "held_for_burns")}, answer
    finally:
        await close_workers(workers)
