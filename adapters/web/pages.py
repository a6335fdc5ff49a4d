"""The page itself: HTML, CSS and JS shipped as package data (no build step, nothing
loaded from another site), and its texts from the gettext catalogue as JSON."""

from __future__ import annotations

from functools import cache
from importlib import resources

from aiohttp import web

from bot.i18n.catalogue import Lang, entries, is_lang

from .catalogue import DOMAIN

STATIC = {
    "app.js": "text/javascript",
    "app.css": "text/css",
}
# The CJK font the pictures are drawn with (render/, SIL OFL), last in the page's font
# list: a phone with Chinese fonts of its own never fetches it.
FONT_PACKAGE, FONT_FILE = "gouji_data", "NotoSansCJKsc-Bold-subset.otf"


@cache
def _asset(name: str) -> bytes:
    return (resources.files(__package__ or "adapters.web") / "static" / name).read_bytes()


@cache
def texts_of(lang: Lang) -> dict[str, str]:
    """Every text of the web domain in ``lang`` (key → template with ``{name}`` fields)."""
    return {key: e.strings[0] for (ctx, key), e in entries(DOMAIN, lang).items() if ctx is None}


async def index(request: web.Request) -> web.Response:
    return web.Response(body=_asset("index.html"), content_type="text/html", charset="utf-8")


async def asset(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    kind = STATIC.get(name)
    if kind is None:
        raise web.HTTPNotFound()
    headers = {"Cache-Control": "no-cache"}
    return web.Response(body=_asset(name), content_type=kind, charset="utf-8", headers=headers)


@cache
def _font() -> bytes:
    return (resources.files(FONT_PACKAGE) / "fonts" / FONT_FILE).read_bytes()


async def font(request: web.Request) -> web.Response:
    headers = {"Cache-Control": "public, max-age=604800"}
    return web.Response(body=_font(), content_type="font/otf", headers=headers)


async def texts(request: web.Request) -> web.Response:
    lang = request.query.get("lang", "zh")
    return web.json_response(texts_of(lang if is_lang(lang) else "zh"))


def add_page_routes(app: web.Application) -> None:
    app.router.add_get("/app", index)
    app.router.add_get("/replay", index)
    app.router.add_get("/static/cjk.otf", font)
    app.router.add_get("/static/{name}", asset)
    app.router.add_get("/api/texts", texts)
