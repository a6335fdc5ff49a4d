"""start()/stop() without blocking: long polling, a webhook on 127.0.0.1, the command menu."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from adapters.main import build_bots
from adapters.telegram import TelegramBot
from adapters.telegram.app import api_urls
from bot.table import ChatRef, TableManager

from .harness import GROUP_ID, TOKEN, USERS, Harness


async def wait_for(check, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_polling_start_returns_and_serves_updates() -> None:
    h = await Harness(None).open()
    bot = h.bot
    bot.run_sender = True
    await bot.start()  # returns at once: polling runs in the background
    menus = [c.params for c in h.fake.calls if c.method == "setMyCommands"]
    assert [m.get("language_code") for m in menus] == [None, "zh", "en"]
    assert menus[0]["commands"][0] == {"command": "gouji", "description": "开桌 / 显示牌桌"}
    assert menus[2]["commands"][0]["description"] == "Open a table / show it"
    h.fake.opened.add(USERS[0]["id"])
    await h.fake.updates.put(h.fake.command(USERS[0], h.group, "/gouji"))
    await wait_for(lambda: any(c.method == "sendPhoto" for c in h.fake.sends_to(GROUP_ID)))
    assert h.manager.snapshot(ChatRef("tg", str(GROUP_ID)).key) is not None
    await asyncio.wait_for(bot.stop(), 5)
    assert not bot.app.running


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("shared_secret", [None, "s3cret-shared-by-all-workers"])
async def test_webhook_mode_on_loopback(shared_secret: str | None) -> None:
    h = await Harness(None).open()
    await h.bot.stop()
    port = free_port()
    bot = TelegramBot(
        h.manager,
        TOKEN,
        webhook_url="https://bot.example.invalid/gouji/hook",
        webhook_port=port,
        request=h.fake,
        listen="127.0.0.1",
        clock=h.clock,
        webhook_secret=shared_secret,
    )
    await bot.start()
    hooks = [c.params for c in h.fake.calls if c.method == "setWebhook"]
    assert hooks and hooks[-1]["url"] == "https://bot.example.invalid/gouji/hook"
    secret = hooks[-1]["secret_token"]
    assert secret == (shared_secret or bot.webhook_secret) and len(secret) >= 16
    h.fake.opened.add(USERS[0]["id"])
    update = h.fake.command(USERS[0], h.group, "/gouji")
    async with httpx.AsyncClient() as client:
        refused = await client.post(f"http://127.0.0.1:{port}/gouji/hook", json=update)
        assert refused.status_code == 403  # no secret, no update
        ok = await client.post(
            f"http://127.0.0.1:{port}/gouji/hook",
            json=update,
            headers={"X-Telegram-Bot-Api-Secret-Token": secret},
        )
        assert ok.status_code == 200
    await wait_for(lambda: h.manager.snapshot(ChatRef("tg", str(GROUP_ID)).key) is not None)
    await asyncio.wait_for(bot.stop(), 5)


def test_self_hosted_api_urls() -> None:
    assert api_urls("http://127.0.0.1:8081") == (
        "http://127.0.0.1:8081/bot",
        "http://127.0.0.1:8081/file/bot",
    )
    assert api_urls("http://127.0.0.1:8081/bot/")[0] == "http://127.0.0.1:8081/bot"


def test_service_builds_the_telegram_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("GOUJI_TELEGRAM_API_URL", "http://127.0.0.1:8081")
    monkeypatch.setenv("GOUJI_TELEGRAM_WEBHOOK_SECRET", "one-secret-for-every-worker")
    monkeypatch.delenv("GOUJI_DISCORD_TOKEN", raising=False)
    bots = build_bots(TableManager())
    assert len(bots) == 1 and isinstance(bots[0], TelegramBot)
    assert bots[0].app.bot.base_url == f"http://127.0.0.1:8081/bot{TOKEN}"
    assert bots[0].webhook_secret == "one-secret-for-every-worker"
