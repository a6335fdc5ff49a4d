"""The web table as a front end of the service: started and stopped with the chat bots
(bot.service), serving on ``GOUJI_WEB_HOST:GOUJI_WEB_PORT`` behind the public
``GOUJI_WEB_URL``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiohttp import web

from bot.frontend import FrontEnd
from bot.service import StartupError
from bot.table import TableManager

from .config import WebConfig
from .hub import POLL_SECONDS, Hub
from .server import WebTable

log = logging.getLogger(__name__)


class WebServer:
    front_end: FrontEnd | None = None  # served beside the chat bots: no platform of its own

    def __init__(
        self,
        manager: TableManager,
        config: WebConfig,
        *,
        wall: Callable[[], float] = time.time,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.config = config
        self.hub = Hub(manager, poll_seconds)
        self.table = WebTable(manager, config, self.hub, wall)
        self._runner: web.AppRunner | None = None
        self.port = config.port  # the port bound (config.port 0: any free one)

    async def start(self) -> None:
        # No access log: a page's URL holds its seat token.
        runner = web.AppRunner(self.table.app(), access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        self._runner = runner
        site = web.TCPSite(runner, self.config.host, self.config.port)
        try:
            await site.start()
        except OSError as err:
            raise StartupError(
                f"the web table cannot listen on {self.config.host}:{self.config.port}: {err}"
            ) from err
        for address in runner.addresses:
            self.port = int(address[1])
        self.hub.start()
        log.info("web table on port %d, announced at %s", self.port, self.config.base_url)

    async def stop(self) -> None:
        await self.hub.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
