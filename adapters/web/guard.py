"""What every response carries and what every request must pass: the security headers
(a Content-Security-Policy without inline script) and the per-user action rate."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.table.cache import BoundedDict

from ..bounded import USERS

MAX_ACTIONS_PER_SECOND = 10
# Scripts and styles only from this origin (no inline script, no eval); the page is
# framed by Telegram's web client and Discord.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org "
    "https://discord.com https://*.discord.com"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # The page's URL holds a seat token: never send it on to another site.
    "Referrer-Policy": "no-referrer",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def secure_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as err:
        response = err
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    if isinstance(response, web.HTTPException):
        raise response
    return response


def add_headers(response: web.StreamResponse) -> None:
    """For a stream prepared inside a handler (the middleware sees it too late)."""
    for name, value in HEADERS.items():
        response.headers[name] = value
    response.headers["Cache-Control"] = "no-store"


class RateLimit:
    """At most ``limit`` actions in any second per user (a sliding window)."""

    def __init__(
        self,
        limit: int = MAX_ACTIONS_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.clock = clock
        self._recent: BoundedDict[str, deque[float]] = BoundedDict(USERS)

    def allow(self, user: str) -> bool:
        now = self.clock()
        recent = self._recent.get(user)
        if recent is None:
            recent = self._recent[user] = deque()
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if len(recent) >= self.limit:
            return False
        recent.append(now)
        return True
