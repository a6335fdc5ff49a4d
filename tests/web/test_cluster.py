"""Several workers (PostgreSQL): the page is served by one worker while the table is
played on another; the change reaches the page within a second (the hub's poll of the
manager's ``current``, which reads the store when this worker's copy is behind)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp

from adapters.web import WebConfig, WebServer
from adapters.web.auth import Seat, sign_seat
from bot.cluster.shell import shared_manager
from bot.store import Store
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    OpenTable,
    SetAutoplay,
    Start,
)
from tests.store.conftest import new_pg_database, pg_server  # noqa: F401  (the fixture)
from tests.store.pgserver import PgServer

from .test_api import next_event

CHAT = ChatRef("dc", "31337")
DORA = Actor("9001", "Dora")
SECRET = b"cluster-web"


async def test_a_page_on_another_worker_follows_the_table(pg_server: PgServer) -> None:  # noqa: F811
    target = await new_pg_database(pg_server)
    clock = FakeClock()
    stores = [Store(target), Store(target)]
    for s in stores:
        await s.open()
    a, b = (
        shared_manager(s, worker=f"w{i}", clock=clock, seed_source=lambda: 5)
        for i, s in enumerate(stores)
    )
    server = WebServer(b, WebConfig("http://127.0.0.1", "127.0.0.1", 0, SECRET))
    try:
        for m in (a, b):
            m.use_settings(CHAT, GroupSettings(turn_seconds=0))
            await m.load()
        for cmd in (
            OpenTable(chat=CHAT, actor=DORA),
            AddBots(chat=CHAT, actor=DORA, count=5),
            Start(chat=CHAT, actor=DORA),
        ):
            await a.handle(cmd)
        await server.start()
        token = sign_seat(SECRET, Seat(CHAT.key, DORA.user_id, int(time.time()) + 600))
        url = f"http://127.0.0.1:{server.port}/api/events"
        async with (
            aiohttp.ClientSession() as s,
            s.get(url, params={"t": CHAT.key, "s": token}) as r,
        ):
            first: dict[str, Any] = await asyncio.wait_for(next_event(r), 5)
            assert first["private"]["seat"] == 1 and len(first["private"]["hand"]) == 36
            for on in (True, False, True):
                # Played on worker A; the page is on worker B.
                await a.handle(SetAutoplay(chat=CHAT, actor=DORA, on=on))
                started = time.monotonic()
                while True:
                    ev = await asyncio.wait_for(next_event(r), 1.0)
                    if ev["private"]["autoplay"] is on:
                        break
                assert time.monotonic() - started < 1.0
    finally:
        await server.stop()
        for s in stores:
            await s.close()
