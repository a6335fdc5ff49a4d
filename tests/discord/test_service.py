"""The ``gouji`` service starts the Discord bot from the environment without blocking."""

from __future__ import annotations

import asyncio

import pytest

from adapters.discord import DiscordBot
from adapters.discord.app import GoujiClient
from adapters.main import build_bots
from bot.table import TableManager

from .fake import GUILD_ID


def test_the_token_in_the_environment_makes_a_discord_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOUJI_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("GOUJI_DISCORD_TOKEN", "secret")
    monkeypatch.setenv("GOUJI_DISCORD_GUILD_ID", str(GUILD_ID))
    (bot,) = build_bots(TableManager())
    assert isinstance(bot, DiscordBot) and bot.guild_id == GUILD_ID
    monkeypatch.delenv("GOUJI_DISCORD_TOKEN")
    assert build_bots(TableManager()) == []


async def test_start_returns_while_the_gateway_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    connected = asyncio.Event()
    logins: list[str] = []

    async def login(self: GoujiClient, token: str) -> None:
        logins.append(token)

    async def connect(self: GoujiClient, *, reconnect: bool = True) -> None:
        connected.set()
        await asyncio.Event().wait()  # a gateway session that never ends by itself

    monkeypatch.setattr(GoujiClient, "login", login)
    monkeypatch.setattr(GoujiClient, "connect", connect)
    bot = DiscordBot(TableManager(), "secret")
    await asyncio.wait_for(bot.start(), timeout=1)
    await asyncio.wait_for(connected.wait(), timeout=1)
    assert logins == ["secret"]
    await asyncio.wait_for(bot.stop(), timeout=5)
    assert bot.client.is_closed()


def test_a_worker_runs_one_shard_of_n(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOUJI_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("GOUJI_DISCORD_TOKEN", "secret")
    (bot,) = build_bots(TableManager(), shards=(1, 3))
    assert isinstance(bot, DiscordBot)
    assert bot.client.shard_id == 1 and bot.client.shard_count == 3
    (plain,) = build_bots(TableManager())
    assert isinstance(plain, DiscordBot) and plain.client.shard_id is None


async def test_only_shard_0_syncs_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []

    async def sync(self: object, **kw: object) -> list[object]:
        synced.append(1)
        return []

    monkeypatch.setattr("discord.app_commands.CommandTree.sync", sync)
    await DiscordBot(TableManager(), "secret", shard=(2, 3)).sync()
    assert synced == []
    await DiscordBot(TableManager(), "secret", shard=(0, 3)).sync()
    assert synced == [1]
