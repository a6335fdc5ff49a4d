"""The live stream: Server-Sent Events, one per open page.

Each event is the whole view the page may see (its id is the table version), sent when
what the page would see changed — woken by the hub at once for a step on this worker,
by its poll for another worker's. A page that reconnects says the last version it saw
(``Last-Event-ID``, the browser's EventSource does it by itself) and gets the current
view at once if the table moved on meanwhile: a phone that slept catches up in one event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

from .auth import Seat
from .guard import add_headers
from .hub import Hub
from .views import Event

HEARTBEAT_SECONDS = 15.0  # a comment line keeps proxies from closing an idle stream
RETRY_MS = 1000  # how soon a browser reconnects after the stream broke

Events = Callable[[Seat], Event | None]


def _last_seen(request: web.Request) -> int:
    raw = request.headers.get("Last-Event-ID") or request.query.get("last", "")
    return int(raw) if raw.isdigit() and len(raw) < 12 else -1


async def stream_table(
    request: web.Request, hub: Hub, seat: Seat, event_of: Events
) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    add_headers(response)
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    await response.prepare(request)
    await response.write(f"retry: {RETRY_MS}\n\n".encode())
    last = _last_seen(request)
    shown: tuple[str, str | None, str] | None = None
    with hub.watching(seat.table):
        try:
            while True:
                woken = hub.waiter(seat.table)  # taken first: no change slips between
                event = event_of(seat)
                if event is not None and event.shown != shown:
                    # A page back from a reconnect already shows the version it names.
                    if event.version != last or shown is not None:
                        await response.write(
                            f"id: {event.version}\ndata: {event.text}\n\n".encode()
                        )
                    shown = event.shown
                try:
                    await asyncio.wait_for(woken.wait(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": ping\n\n")
        except ConnectionResetError:
            pass  # the page went away
    return response
