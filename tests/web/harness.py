"""A group on the fake Bot API with one human and five AI seats, and the web table on a
loopback port beside the bot, on the same table manager."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp

from adapters.web import WebConfig, WebServer
from adapters.web.auth import Seat, sign_init_data, sign_seat
from bot.table import ChatRef, GroupSettings

from ..telegram.harness import GROUP_ID, TOKEN, USERS, Harness

SECRET = b"web-test-secret"
WANG = USERS[0]


def telegram_init_data(
    who: dict[str, Any], token: str = TOKEN, auth_date: float | None = None
) -> str:
    user = json.dumps({k: who[k] for k in ("id", "first_name", "language_code")})
    when = int(time.time() if auth_date is None else auth_date)
    return sign_init_data({"auth_date": str(when), "user": user, "query_id": "AAHdF6IQ"}, token)


class WebHarness:
    def __init__(self, seed: int = 7, turn_seconds: int = 0, db_dir: Path | None = None) -> None:
        self.h = Harness(db_dir, seed=seed)
        self.turn_seconds = turn_seconds
        self.server: WebServer
        self.config: WebConfig
        self.base = ""
        self._ticker: asyncio.Task[None] | None = None

    async def open(self) -> WebHarness:
        h = self.h
        await h.open()
        h.manager.use_settings(
            ChatRef("tg", str(GROUP_ID)), GroupSettings(turn_seconds=self.turn_seconds)
        )
        config = WebConfig("http://127.0.0.1:0", "127.0.0.1", 0, SECRET, TOKEN)
        self.server = WebServer(h.manager, config, poll_seconds=0.1)
        await self.server.start()
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.config = replace(config, base_url=self.base, port=self.server.port)
        h.bot.link_web(self.config.app_url, self.config.replay_url)
        return self

    async def seat_table(self) -> None:
        """老王 opens a table, five AI seats join, the hand starts."""
        h = self.h
        h.fake.opened.add(WANG["id"])
        await h.say(WANG, "/gouji")
        await h.say(WANG, "/addbot 5")
        await h.say(WANG, "/begin")
        await h.drain()

    def start_ticking(self, step: float = 0.5, every: float = 0.03) -> None:
        """Let the fake clock run (burn windows, the declaration pause) while a browser plays."""

        async def run() -> None:
            while True:
                await asyncio.sleep(every)
                await self.h.tick(step)

        self._ticker = asyncio.get_running_loop().create_task(run())

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        await self.server.stop()
        await self.h.close()

    # -- links ---------------------------------------------------------------------------
    @property
    def key(self) -> str:
        return self.h.key

    def telegram_url(self, who: dict[str, Any] = WANG) -> str:
        """The page as the Telegram client opens it: the Mini App URL plus the fragment."""
        fragment = (
            f"tgWebAppData={quote(telegram_init_data(who), safe='')}"
            "&tgWebAppVersion=7.10&tgWebAppPlatform=android"
        )
        return f"{self.config.app_url(self.key)}#{fragment}"

    def token(self, user_id: str, ttl: float = 3600) -> str:
        return sign_seat(SECRET, Seat(self.key, user_id, int(time.time() + ttl)))


@contextlib.asynccontextmanager
async def web_table(seed: int = 7, db_dir: Path | None = None) -> AsyncIterator[WebHarness]:
    """``db_dir``: keep the tables (and finished hands, for /replay) in SQLite there."""
    w = await WebHarness(seed, db_dir=db_dir).open()
    try:
        yield w
    finally:
        await w.close()


async def get_json(session: aiohttp.ClientSession, url: str, **params: str) -> tuple[int, Any]:
    async with session.get(url, params=params) as r:
        return r.status, await r.json(content_type=None)


async def post_json(
    session: aiohttp.ClientSession, url: str, body: dict[str, Any]
) -> tuple[int, Any]:
    async with session.post(url, json=body) as r:
        return r.status, await r.json(content_type=None)
