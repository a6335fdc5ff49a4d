"""The live stream: Server-Sent Events, one per open page.

Each event is the whole view the page may see (its id is the table version), sent when
what the page would see changed — woken by the hub at once for a step on this worker,
by its poll for another worker's. A page that reconnects says the last version it saw
(``Last-Event-ID``, the browser's EventSource does it by itself) and gets the current
view at once if the table moved on meanwhile: a phone that slept catches up in one event.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from .auth import Seat
from .guard import add_headers
from .hub import Hub
from .payload import JsonObj

HEARTBEAT_SECONDS = 15.0  # a comment line keeps proxies from closing an idle stream
RETRY_MS = 1000  # how soon a browser reconnects after the stream broke

View = Callable[[Seat, bool], Awaitable[JsonObj | None]]


def _last_seen(request: web.Request) -> int:
    raw = request.headers.get("Last-Event-ID") or request.query.get("last", "")
    return int(raw) if raw.isdigit() and len(raw) < 12 else -1


def signature(view: JsonObj | None) -> str:
    """What a page shows, less the countdown (which the page runs by itself)."""
    if view is None:
        return ""
    public = {k: v for k, v in view["public"].items() if k != "deadline"}
    deadline = view["public"].get("deadline")
    return json.dumps([public, view["private"], deadline and deadline["kind"]], sort_keys=True)


async def stream_table(
    request: web.Request, hub: Hub, seat: Seat, view: View
) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    add_headers(response)
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    await response.prepare(request)
    await response.write(f"retry: {RETRY_MS}\n\n".encode())
    last = _last_seen(request)
    shown = ""
    with hub.watching(seat.table):
        try:
            while True:
                woken = hub.waiter(seat.table)  # taken first: no change slips between
                current = await view(seat, False)
                sig = signature(current)
                if current is not None and sig != shown:
                    version = current["public"]["version"]
                    if version != last or shown:
                        data = json.dumps(current, ensure_ascii=False, separators=(",", ":"))
                        await response.write(f"id: {version}\ndata: {data}\n\n".encode())
                    shown = sig
                try:
                    await asyncio.wait_for(woken.wait(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": ping\n\n")
        except ConnectionResetError:
            pass  # the page went away
    return response
