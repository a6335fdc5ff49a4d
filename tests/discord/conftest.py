from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from adapters.discord import DiscordBot, images
from bot.table import ChatRef, FakeClock, GroupSettings, TableManager, apply_setting_changes

from .fake import APP_ID, BOT_USER, CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, FakeDiscord, Msg, Player

CHAT = ChatRef("dc", str(GUILD_ID), str(CHANNEL_ID))
ADMIN = Player(101, "管理员", admin=True)
ALICE = Player(102, "阿丽")
BOB = Player(103, "小波")
CAROL = Player(104, "卡萝")


def view_timers() -> list[asyncio.Task[Any]]:
    """discord.py gives every ephemeral view a 15-minute expiry task; it just sleeps."""
    return [
        t
        for t in asyncio.all_tasks()
        if not t.done() and "__timeout_task_impl" in t.get_coro().__qualname__  # type: ignore[union-attr]
    ]


def busy_tasks() -> list[asyncio.Task[Any]]:
    me = asyncio.current_task()
    sleeping = set(view_timers())
    return [t for t in asyncio.all_tasks() if t is not me and not t.done() and t not in sleeping]


class SteppingTiming:
    """The Discord sender's time in tests: a fake clock that a sleep moves forward at once,
    so every wait the channel budget asks for is kept in fake time and costs no real time."""

    def __init__(self) -> None:
        self.clock = FakeClock()

    def now(self) -> float:
        return self.clock.now()

    async def sleep(self, seconds: float) -> None:
        self.clock.advance(max(0.0, seconds))
        await asyncio.sleep(0)


class Harness:
    def __init__(self, fake: FakeDiscord, manager: TableManager, clock: FakeClock, bot: DiscordBot):
        self.fake = fake
        self.manager = manager
        self.clock = clock
        self.bot = bot

    async def settle(self) -> None:
        """Run until every task the interaction started (and what they started) is done."""
        for _ in range(200):
            await asyncio.sleep(0)
            pending = busy_tasks()
            if not pending:
                return
            await asyncio.wait(pending, timeout=10)
        raise AssertionError("tasks did not settle")

    async def send(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.bot.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return payload

    async def slash(self, player: Player, sub: str, **options: Any) -> dict[str, Any]:
        return await self.send(self.fake.slash(player, sub, **options))

    async def press(self, player: Player, message: Msg, custom_id: str) -> dict[str, Any]:
        return await self.send(self.fake.press(player, message, custom_id))

    async def choose(
        self, player: Player, message: Msg, custom_id: str, value: str
    ) -> dict[str, Any]:
        return await self.send(self.fake.choose(player, message, custom_id, value))

    async def tick(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.manager.poll_timers()
        await self.settle()

    def settings(self, **changes: Any) -> None:
        current = self.manager.settings_cache.get(CHAT.group_key) or GroupSettings()
        self.manager.settings_cache[CHAT.group_key] = apply_setting_changes(current, changes)

    def replies(self, payload: dict[str, Any]) -> list[str]:
        return self.fake.replies_to(payload)


def guild_payload() -> dict[str, Any]:
    def channel(cid: int, name: str) -> dict[str, Any]:
        return {
            "id": str(cid),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    return {
        "id": str(GUILD_ID),
        "name": "够级俱乐部",
        "owner_id": str(ADMIN.id),
        "unavailable": False,
        "roles": [],
        "emojis": [],
        "stickers": [],
        "features": [],
        "member_count": 5,
        "members": [],
        "channels": [channel(CHANNEL_ID, "gouji"), channel(OTHER_CHANNEL_ID, "other")],
        "threads": [],
        "preferred_locale": "zh-CN",
    }


@pytest.fixture(autouse=True)
def quick_images(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing is the render package's business (and its tests'); here a stand-in PNG keeps
    whole hands fast. Tests marked ``real_images`` draw for real."""
    if request.node.get_closest_marker("real_images"):
        return

    async def fixed_png(*drawing: Any) -> bytes:
        return b"\x89PNG fixed"

    monkeypatch.setattr(images, "_png", fixed_png)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeDiscord:
    fake = FakeDiscord()

    async def http_request(self: Any, route: Any, **kwargs: Any) -> Any:
        return await fake.http(route, **kwargs)

    async def webhook_request(self: Any, route: Any, session: Any = None, **kwargs: Any) -> Any:
        return await fake.webhook(route, session, **kwargs)

    monkeypatch.setattr(discord.http.HTTPClient, "request", http_request)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)
    return fake


@contextlib.asynccontextmanager
async def running_bot(manager: TableManager, **options: Any) -> AsyncIterator[DiscordBot]:
    """A bot as after login: application id known, guild cached, commands installed."""
    options = {"table_interval": 0, "private_interval": 0, "timing": SteppingTiming(), **options}
    bot = DiscordBot(manager, "not-a-token", **options)
    async with bot.client:
        state = bot.client._connection
        state.application_id = APP_ID
        state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
        state.parse_guild_create(guild_payload())  # type: ignore[arg-type]
        await bot.install()
        yield bot


@pytest.fixture
async def harness(fake: FakeDiscord) -> AsyncIterator[Harness]:
    clock = FakeClock()
    manager = TableManager(clock=clock, seed_source=lambda: 7)
    timing = SteppingTiming()
    fake.now = timing.now
    async with running_bot(manager, timing=timing) as bot:
        h = Harness(fake, manager, clock, bot)
        yield h
        await h.settle()
        for task in view_timers():
            task.cancel()
    # Every interaction was answered (once: the fake refuses a second answer).
    assert all(token.responded for token in fake.tokens.values())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_images: draw the images for real (slower)")
