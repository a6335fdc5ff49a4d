"""Run the chat bots: Telegram and/or Discord in one event loop around one table manager."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from typing import Protocol

from .store import Store, default_store_target
from .table import TableManager

log = logging.getLogger(__name__)


class ChatBot(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


def build_bots(manager: TableManager) -> list[ChatBot]:
    """The adapters whose tokens are set in the environment."""
    bots: list[ChatBot] = []
    tg_token = os.environ.get("GOUJI_TELEGRAM_TOKEN")
    if tg_token:
        from adapters.telegram import TelegramBot

        bots.append(
            TelegramBot(
                manager,
                tg_token,
                api_url=os.environ.get("GOUJI_TELEGRAM_API_URL") or None,
                webhook_url=os.environ.get("GOUJI_TELEGRAM_WEBHOOK_URL") or None,
                webhook_port=int(os.environ.get("GOUJI_TELEGRAM_WEBHOOK_PORT", "8443")),
            )
        )
    dc_token = os.environ.get("GOUJI_DISCORD_TOKEN")
    if dc_token:
        from adapters.discord import DiscordBot

        guild = os.environ.get("GOUJI_DISCORD_GUILD_ID")
        bots.append(DiscordBot(manager, dc_token, guild_id=int(guild) if guild else None))
    return bots


async def run_bots() -> int:
    store = Store(default_store_target())
    await store.open()
    manager = TableManager(store=store)
    bots = build_bots(manager)
    if not bots:
        log.error("no GOUJI_TELEGRAM_TOKEN or GOUJI_DISCORD_TOKEN set")
        await store.close()
        return 2
    for bot in bots:
        await bot.start()
    restored = await manager.load()
    log.info("resumed %d live tables", restored)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    timers = asyncio.create_task(manager.run_timers())
    try:
        await stop.wait()
    finally:
        timers.cancel()
        for bot in reversed(bots):
            try:
                await bot.stop()
            except Exception:
                log.exception("stopping %s failed", type(bot).__name__)
        await store.close()
    return 0
