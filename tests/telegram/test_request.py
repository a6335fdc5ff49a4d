"""The Bot API transport (``adapters.telegram.request.AiohttpRequest``) against a Bot API
stand-in on loopback: what PTB's methods send arrives as Telegram reads it, answers come
back as PTB's objects, and failures become PTB's errors."""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import Bot, Update
from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.ext import Application, MessageHandler, filters

from adapters.telegram import request as transport
from adapters.telegram.request import AiohttpRequest

TOKEN = "123:abc"
ME = {"id": 123, "is_bot": True, "first_name": "gouji", "username": "gouji_bot"}


class StandIn:
    """Answers getMe, sendMessage and sendPhoto as Telegram would; remembers what came."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []
        self.delay = 0.0
        self.updates: list[dict[str, Any]] = []  # what getUpdates brings, once each

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        fields: dict[str, Any] = {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.filename:  # type: ignore[union-attr]
                    raw = await part.read()  # type: ignore[union-attr]
                    ctype = part.headers.get("Content-Type")  # type: ignore[union-attr]
                    fields[part.name or ""] = (part.filename, raw, ctype)  # type: ignore[union-attr]
                else:
                    fields[part.name or ""] = await part.text()  # type: ignore[union-attr]
        else:
            fields = dict(await request.post())
        self.got.append((method, fields))
        await asyncio.sleep(self.delay)
        if method == "getMe":
            return web.json_response({"ok": True, "result": ME})
        if method in ("deleteWebhook", "setWebhook"):
            return web.json_response({"ok": True, "result": True})
        if method == "getUpdates":
            offset = int(fields.get("offset") or 0)
            due = [u for u in self.updates if u["update_id"] >= offset]
            if not due:
                await asyncio.sleep(0.05)  # a short long poll
            return web.json_response({"ok": True, "result": due})
        if method == "sendMessage" and fields.get("text") == "":
            return web.json_response(
                {
                    "ok": False,
                    "error_code": 400,
                    "description": "Bad Request: message text is empty",
                },
                status=400,
            )
        chat = json.loads(fields["chat_id"])
        message = {"message_id": 7, "date": 0, "chat": {"id": chat, "type": "private"}}
        if method == "sendMessage":
            message["text"] = fields["text"]
        return web.json_response({"ok": True, "result": message})


@pytest.fixture
async def stand_in() -> AsyncIterator[tuple[StandIn, str]]:
    fake = StandIn()
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield fake, f"http://127.0.0.1:{port}/bot"
    finally:
        await runner.cleanup()


async def test_a_call_with_parameters_arrives_as_a_form_and_answers_as_ptb_objects(
    stand_in: tuple[StandIn, str],
) -> None:
    fake, base = stand_in
    async with Bot(TOKEN, base_url=base, request=AiohttpRequest()) as bot:
        sent = await bot.send_message(chat_id=42, text="轮到你了 / your turn")
    assert sent.message_id == 7 and sent.text == "轮到你了 / your turn"
    method, fields = fake.got[-1]
    assert method == "sendMessage"
    assert fields["chat_id"] == "42" and fields["text"] == "轮到你了 / your turn"


async def test_a_picture_goes_as_multipart_with_its_name_and_type(
    stand_in: tuple[StandIn, str],
) -> None:
    fake, base = stand_in
    png = b"\x89PNG\r\n\x1a\n-not-really-a-picture"
    async with Bot(TOKEN, base_url=base, request=AiohttpRequest()) as bot:
        await bot.send_photo(chat_id=42, photo=png, filename="hand.png", caption="手牌")
    method, fields = fake.got[-1]
    assert method == "sendPhoto"
    assert fields["caption"] == "手牌"
    name, raw, ctype = next(v for v in fields.values() if isinstance(v, tuple))
    assert (name, raw) == ("hand.png", png)
    assert ctype == "image/png"


async def test_telegram_errors_and_transport_failures_become_ptb_errors(
    stand_in: tuple[StandIn, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, base = stand_in
    async with Bot(TOKEN, base_url=base, request=AiohttpRequest()) as bot:
        with pytest.raises(BadRequest, match="text is empty"):
            await bot.send_message(chat_id=42, text="")
        monkeypatch.setattr(transport, "READ", 0.2)
        fake.delay = 1.0
        with pytest.raises(TimedOut):
            await bot.send_message(chat_id=42, text="slow")
    closed = AiohttpRequest()
    gone = Bot(TOKEN, base_url="http://127.0.0.1:9/bot", request=closed)
    with pytest.raises(NetworkError):
        await gone.initialize()
    await closed.shutdown()


async def test_shut_down_and_used_again_opens_a_new_session(
    stand_in: tuple[StandIn, str],
) -> None:
    fake, base = stand_in
    req = AiohttpRequest()
    async with Bot(TOKEN, base_url=base, request=req) as bot:
        await bot.send_message(chat_id=1, text="a")
    async with Bot(TOKEN, base_url=base, request=req) as bot:  # PTB restarts a bot like this
        await bot.send_message(chat_id=1, text="b")
    assert [f["text"] for m, f in fake.got if m == "sendMessage"] == ["a", "b"]


async def test_the_proxy_in_the_environment_carries_the_calls(
    stand_in: tuple[StandIn, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """HTTP(S)_PROXY is honoured (PTB's httpx did; where Telegram is blocked it is the way
    out): a call to a host this machine cannot resolve arrives at the proxy."""
    fake, base = stand_in
    proxy = base.removesuffix("/bot")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, proxy)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    async with Bot(TOKEN, base_url="http://api.telegram.invalid/bot", request=AiohttpRequest()):
        pass  # getMe, through the proxy
    assert fake.got and fake.got[-1][0] == "getMe"


async def test_no_proxy_is_honoured_and_the_environment_read_once(
    stand_in: tuple[StandIn, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host in NO_PROXY is called directly, not through the proxy; and the environment
    is looked up once per origin, not on every call (aiohttp's ``trust_env`` read it, and
    ~/.netrc, twice a call in threads of their own)."""
    fake, base = stand_in
    for name in ("HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, "http://proxy.invalid:9")  # unreachable: a call through it fails
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")
    lookups: list[object] = []
    real = transport._env_proxy

    def counted(origin: Any) -> Any:
        lookups.append(origin)
        return real(origin)

    monkeypatch.setattr(transport, "_env_proxy", counted)
    async with Bot(TOKEN, base_url=base, request=AiohttpRequest()) as bot:
        for text in ("a", "b", "c"):
            await bot.send_message(chat_id=1, text=text)
    assert [f["text"] for m, f in fake.got if m == "sendMessage"] == ["a", "b", "c"]
    assert len(lookups) == 1


async def test_tls_is_verified_against_certifis_certificates() -> None:
    """The Bot API is reached over TLS that is checked, against certifi's certificate
    authorities (as PTB's httpx did), not whatever a slim image has."""
    req = AiohttpRequest()
    await req.initialize()
    try:
        tls = req._session.connector._ssl  # type: ignore[union-attr]
        assert isinstance(tls, ssl.SSLContext)
        assert tls.verify_mode is ssl.CERT_REQUIRED and tls.check_hostname
        assert tls.cert_store_stats()["x509_ca"] > 100  # certifi's bundle, loaded
    finally:
        await req.shutdown()


async def test_long_polling_runs_on_its_own_transport(stand_in: tuple[StandIn, str]) -> None:
    """``gouji`` with only a token polls: getUpdates waits on its own one-connection
    transport while the calls go on the other, and an update it brings is handled."""
    fake, base = stand_in
    fake.updates = [
        {
            "update_id": 1,
            "message": {
                "message_id": 3,
                "date": 0,
                "chat": {"id": 42, "type": "private"},
                "from": {"id": 42, "is_bot": False, "first_name": "王"},
                "text": "你好",
            },
        }
    ]
    seen: list[str] = []

    async def heard(update: Update, _: object) -> None:
        assert update.message is not None and update.message.text is not None
        seen.append(update.message.text)

    app = (
        Application.builder()
        .token(TOKEN)
        .base_url(base)
        .request(AiohttpRequest())
        .get_updates_request(AiohttpRequest(1))
        .build()
    )
    app.add_handler(MessageHandler(filters.TEXT, heard))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.05, timeout=1)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.05)
        await app.updater.stop()
        await app.stop()
    assert seen == ["你好"]
