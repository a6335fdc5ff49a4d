"""A health endpoint per worker: ``GET /health`` answers 200 with what the worker is and
holds, or 503 when its database does not answer (a load balancer then stops sending it
updates)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

# Returns facts to report (tables in memory, …); raises if the worker is not healthy.
Check = Callable[[], Awaitable[dict[str, Any]]]


class HealthServer:
    def __init__(self, worker: str, check: Check, host: str = "127.0.0.1", port: int = 0) -> None:
        self.worker = worker
        self.check = check
        self.host = host
        self.port = port
        self.started = time.monotonic()
        self._runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.Response:
        body: dict[str, Any] = {
            "worker": self.worker,
            "uptime_s": round(time.monotonic() - self.started, 1),
        }
        try:
            body.update(await self.check())
        except Exception as err:  # the check's failure is the answer, not a crash
            log.warning("health check failed: %s", type(err).__name__)
            body.update(ok=False, error=type(err).__name__)
            return web.json_response(body, status=503)
        body["ok"] = True
        return web.json_response(body)

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        app = web.Application()
        app.router.add_get("/health", self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = int(self._runner.addresses[0][1])
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
