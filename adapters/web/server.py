"""The web table's HTTP side: the page, its texts, a seat's state, its live stream and
its actions, on aiohttp inside the bot process (a front end like the chats: started and
stopped by bot.service with them).

Every request names a table (``t``) and carries a seat token (``s``): a Discord link's,
or the one a Telegram page got for its ``initData`` (``POST /api/session``). A request
without a valid token gets 401 and no table data; a spectator's token, or a user with no
seat at the table, sees the public table only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

from aiohttp import web

from bot.i18n.catalogue import Lang, is_lang
from bot.records.desk import RecordDesk
from bot.records.desk import Refused as NotShown
from bot.table import Actor, ChatRef, TableManager
from bot.table.describe import reply_text

from ..press import Verdict, seat_view
from ..press import press as judge
from .actions import Refused, Request, request_of
from .auth import AuthError, Seat, check_init_data, check_seat, sign_seat
from .config import WebConfig, replay_scope
from .guard import RateLimit, secure_headers
from .hub import Hub
from .pages import add_page_routes, texts_of
from .payload import JsonObj
from .replay import replay_json
from .stream import stream_table
from .views import Views, dumps

log = logging.getLogger(__name__)

MAX_BODY = 8 * 1024
SESSION_SECONDS = 12 * 3600  # a Telegram page's seat token (it asks again when reopened)


def _lang(request: web.Request) -> Lang:
    lang = request.query.get("lang", "zh")
    return lang if is_lang(lang) else "zh"


def _error_body(key: str, lang: Lang) -> str:
    return dumps({"ok": False, "error": key, "text": texts_of(lang).get(key, key)})


def _error(status: int, key: str, lang: Lang) -> web.Response:
    return web.Response(status=status, text=_error_body(key, lang), content_type="application/json")


def _unauthorized(lang: Lang) -> web.HTTPUnauthorized:
    """401 with a reason and nothing of any table."""
    return web.HTTPUnauthorized(
        text=_error_body("web_unauthorized", lang), content_type="application/json"
    )


class WebTable:
    """The routes and what they share: the manager, the settings, the live hub."""

    def __init__(
        self,
        manager: TableManager,
        config: WebConfig,
        hub: Hub,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.manager = manager
        self.config = config
        self.hub = hub
        self.wall = wall  # token expiries and initData ages: wall time, as Telegram's
        self.limit = RateLimit()
        self.views = Views(manager, hub)
        self.desk = RecordDesk(manager)  # finished hands, as /replay in the chats reads them

    def app(self) -> web.Application:
        app = web.Application(middlewares=[secure_headers], client_max_size=MAX_BODY)
        add_page_routes(app)
        app.router.add_post("/api/session", self.session)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/events", self.events)
        app.router.add_post("/api/act", self.act)
        app.router.add_get("/api/replay", self.replay)
        return app

    # -- who is asking ----------------------------------------------------------------
    def seat(self, params: Mapping[str, object], lang: Lang) -> Seat:
        table, token = params.get("t"), params.get("s")
        if not isinstance(table, str) or not isinstance(token, str):
            raise _unauthorized(lang)
        try:
            ChatRef.from_key(table)
            return check_seat(self.config.secret, table, token, self.wall())
        except (AuthError, ValueError):
            raise _unauthorized(lang) from None

    async def session(self, request: web.Request) -> web.Response:
        """A Telegram page's ``initData`` → a seat token for this table."""
        lang = _lang(request)
        body = await _json(request)
        table, init_data = body.get("t"), body.get("init_data")
        token = self.config.telegram_token
        if not isinstance(table, str) or not isinstance(init_data, str) or token is None:
            return _error(401, "web_unauthorized", lang)
        now = self.wall()
        try:
            ChatRef.from_key(table)
            user = check_init_data(init_data, token, now)
        except (AuthError, ValueError):
            return _error(401, "web_unauthorized", lang)
        expires = int(now + SESSION_SECONDS)
        return web.json_response(
            {"ok": True, "s": sign_seat(self.config.secret, Seat(table, user.user_id, expires))}
        )

    # -- what they see ----------------------------------------------------------------
    async def view(self, seat: Seat) -> JsonObj | None:
        """The table as this seat may see it, read as the manager knows it now (None: no
        such table): what ``GET /api/state`` answers and every event carries."""
        await self.manager.current(ChatRef.from_key(seat.table))
        return self.views.view(seat)

    async def state(self, request: web.Request) -> web.Response:
        seat = self.seat(request.query, _lang(request))
        view = await self.view(seat)
        if view is None:
            return _error(404, "web_no_table", _lang(request))
        return web.json_response(view)

    async def events(self, request: web.Request) -> web.StreamResponse:
        seat = self.seat(request.query, _lang(request))
        await self.manager.current(ChatRef.from_key(seat.table))
        try:
            return await stream_table(request, self.hub, seat, self.views.event)
        finally:
            if self.hub.generation(seat.table) is None:  # that was its last page
                self.views.forget(seat.table)

    # -- what they do -----------------------------------------------------------------
    async def act(self, request: web.Request) -> web.Response:
        body = await _json(request)
        lang = _lang(request)
        seat = self.seat(body, lang)
        if seat.spectator:
            return _error(403, "web_spectator", lang)
        if not self.limit.allow(seat.user_id):
            return _error(429, "web_too_fast", lang)
        chat = ChatRef.from_key(seat.table)
        await self.manager.current(chat)
        asked = request_of(body)
        version = asked.version if isinstance(asked, Request) else None
        priv = await seat_view(self.manager, chat, seat.user_id, version)
        if priv is None:
            return _error(403, "web_spectator", lang)
        if isinstance(asked, Refused):  # the page's own refusal (its catalogue's text)
            text = texts_of(priv.lang).get(asked.key) or asked.key
            return web.json_response({"ok": False, "error": asked.key, "text": text}, status=409)
        snap = self.manager.snapshot(seat.table)
        name = snap.name_of(priv.seat) if snap is not None else seat.user_id
        actor = Actor(seat.user_id, name)
        # The page shows every move as it comes: a tap is answered once it is made, and
        # the AI seats' answers follow on the stream (``ai_later``).
        pressed = await judge(self.manager, chat, actor, asked.control, asked.version, True)
        reply = pressed.reply
        if pressed.verdict is Verdict.NO_HAND or reply is None:
            return _error(403, "web_spectator", lang)
        body = {
            "ok": reply.ok,
            "error": None if reply.ok else reply.key,
            "text": reply_text(reply, priv.lang),
        }
        # A stale view or a double tap changed nothing: refused as the chats refuse it.
        return web.json_response(body, status=409 if pressed.verdict is Verdict.REFUSED else 200)

    async def replay(self, request: web.Request) -> web.Response:
        """A finished hand, every frame face up, for a replay link."""
        lang = _lang(request)
        table, number, token = (request.query.get(k, "") for k in ("t", "n", "s"))
        if not number.isdigit() or len(number) > 9:
            raise _unauthorized(lang)
        try:
            chat = ChatRef.from_key(table)
            check_seat(self.config.secret, replay_scope(table, int(number)), token, self.wall())
        except (AuthError, ValueError):
            raise _unauthorized(lang) from None
        opened = await self.desk.open(chat, int(number))
        if isinstance(opened, NotShown):
            return web.json_response({"ok": False, "text": opened.text(lang)}, status=404)
        return web.json_response(replay_json(opened, lang))


async def _json(request: web.Request) -> dict[str, object]:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise _bad_request() from None
    if not isinstance(body, dict):
        raise _bad_request()
    return body


def _bad_request() -> web.HTTPBadRequest:
    return web.HTTPBadRequest(
        text=_error_body("web_bad_request", "zh"), content_type="application/json"
    )
