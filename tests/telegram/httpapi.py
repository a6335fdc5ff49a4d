"""Telegram's Bot API on loopback HTTP, for bot processes the tests (and
benchmarks/cluster.py) start: the in-process fake of ``fakeapi`` (chats, messages,
buttons, errors) behind a small aiohttp server, which logs every call with its time and
tells a waiting driver when a button press was answered."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.store.pgserver import free_port

from .fakeapi import SENDS, ApiError, Call, FakeTelegram, Message

# Form fields that stay text (the rest of PTB's parameters arrive JSON-encoded).
TEXT_FIELDS = frozenset({"text", "caption", "callback_query_id", "url", "parse_mode"})


class WallClock:
    def now(self) -> float:
        return time.monotonic()


class IndexedFake(FakeTelegram):
    """The tests' fake with its lookups indexed by chat. The tests' ``last_photo`` sorts
    every message of every chat and ``sends_to`` scans every call: fine for one table,
    but 300 humans asking twice a second made this driver the slowest part of the
    cluster it measures (its own event loop stamps the answers)."""

    def __init__(self, clock: WallClock) -> None:
        super().__init__(clock)
        self._messages_of: dict[int, list[int]] = {}
        self._sends: Counter[int] = Counter()

    def log(self, call: Call) -> None:
        self.calls.append(call)
        if call.method in SENDS and call.chat_id is not None:
            self._sends[call.chat_id] += 1

    def sends_made(self, chat_id: int) -> int:
        return self._sends[chat_id]

    def _new_message(self, chat_id: int, params: dict[str, Any]) -> Message:
        msg = super()._new_message(chat_id, params)
        self._messages_of.setdefault(chat_id, []).append(msg.message_id)
        return msg

    def last_photo(self, chat_id: int, name: str) -> Message:
        for message_id in reversed(self._messages_of.get(chat_id, [])):
            msg = self.messages.get((chat_id, message_id))
            if msg is not None and msg.photo_name == name:
                return msg
        raise LookupError(f"no {name} in chat {chat_id}")


class BotApiServer:
    """``tests/telegram``'s fake behind HTTP, for worker processes; it also tells the
    driver when a button press was answered."""

    def __init__(self) -> None:
        self.fake = IndexedFake(WallClock())
        self.answered: dict[str, asyncio.Future[tuple[float, str]]] = {}
        # Called with every call the fake answered without error, before its answer leaves.
        self.observe: Callable[[Call], None] | None = None
        self.port = 0
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/{tail:.*}", self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        self.port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def handle(self, request: web.Request) -> web.Response:
        method = request.path.rsplit("/", 1)[-1]
        params, files = await _form(request)
        call = Call(self.fake.clock.now(), method, params, files, caller=_caller(request.path))
        self.fake.log(call)
        try:
            handler = getattr(self.fake, f"api_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            result = [] if method == "getUpdates" else handler(params, files)
        except ApiError as err:
            call.error = err.code
            return web.json_response(err.body(), status=err.code)
        if self.observe is not None:
            self.observe(call)
        if method == "answerCallbackQuery":
            waiter = self.answered.pop(str(params.get("callback_query_id")), None)
            if waiter is not None and not waiter.done():
                waiter.set_result((time.monotonic(), str(params.get("text") or "")))
        return web.json_response({"ok": True, "result": result})


def _caller(path: str) -> str:
    """The prefix before ``/bot<token>/<method>`` (a benchmark gives each worker its
    own: ``/w0``), or ""."""
    parts = path.split("/")
    return parts[1] if len(parts) > 3 else ""


async def _form(request: web.Request) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
    params: dict[str, Any] = {}
    files: dict[str, tuple[str, bytes]] = {}
    if request.content_type == "application/json":
        return dict(await request.json()), files
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = (value.filename, value.file.read())
        elif name in TEXT_FIELDS:
            params[name] = str(value)
        else:
            try:
                params[name] = json.loads(str(value))
            except ValueError:
                params[name] = str(value)
    return params, files
