"""Telegram's webhook, answered when the update's effect is committed.

PTB's own webhook server answers Telegram 200 as soon as an update is queued in memory:
a worker that died before it handled the update lost it for good, since Telegram never
sends an update twice once it got its 200. Here the update is handled first
(``Application.process_update``: the command runs, its step commits, the button press is
answered) and only then does Telegram get its 200. A worker killed before that gives
Telegram (or the load balancer in front of the workers) no answer, and the update is
delivered again, to whichever worker is up; a step the dead worker had committed already
is then refused as out of date, never played twice.

An update whose handling failed is answered 500, so it too comes again — unless what
failed was a Bot API call (Telegram refused a message or an answer): the command's step
had been committed by then, and handling the update again would change nothing.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from contextvars import ContextVar
from http import HTTPStatus

from aiohttp import web
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.service import StartupError

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1024 * 1024  # an update is a few KB; Telegram sends nothing near this
# Updates one worker handles at once; more wait for a slot (Telegram itself keeps at most
# ``max_connections`` open, but a load balancer in front of several workers may not).
CONCURRENCY = 64
# The update being handled in this task, and what failed while handling it: PTB reports
# a handler's exception to the error handlers, in the same task, and returns normally.
_FAILURES: ContextVar[list[BaseException] | None] = ContextVar("webhook_failures", default=None)


def retry_needed(failures: list[BaseException]) -> bool:
    """Whether Telegram should deliver the update again: something failed that was not
    the Bot API's answer (the database, a bug) — the step may not be committed."""
    return any(not isinstance(err, TelegramError) for err in failures)


class Webhook:
    """The HTTP side of webhook mode: one path, the secret token checked on every post
    (403 without it), the update handled to its commit before the 200."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        path: str,
        secret: str,
        listen: str,
        port: int,
    ) -> None:
        self.app = app
        self.path = "/" + path.strip("/")
        self.secret = secret.encode()
        self.listen = listen
        self.port = port  # the port bound (0 asked: any free one)
        self._slots = asyncio.Semaphore(CONCURRENCY)
        self._runner: web.AppRunner | None = None
        app.add_error_handler(self._failed)

    async def start(self) -> None:
        server = web.Application(client_max_size=MAX_BODY)
        server.router.add_post(self.path, self.post)
        # No access log: a request says nothing an operator needs, and one per press.
        runner = web.AppRunner(server, access_log=None, shutdown_timeout=5.0)
        await runner.setup()
        site = web.TCPSite(runner, self.listen, self.port)
        try:
            await site.start()
        except OSError as err:
            await runner.cleanup()
            raise StartupError(
                f"the Telegram webhook cannot listen on {self.listen}:{self.port}: {err}"
            ) from err
        self._runner = runner
        for address in runner.addresses:
            self.port = int(address[1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def post(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self.secret):
            return web.Response(status=HTTPStatus.FORBIDDEN)
        try:
            data = await request.json()
            update = Update.de_json(data, self.app.bot) if isinstance(data, dict) else None
        except (ValueError, TypeError, KeyError):
            update = None
        if update is None:
            # Not an update: nothing Telegram sends. Logged without the body (it may hold
            # a private button's data).
            log.warning("the webhook got a request that is not an update")
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        async with self._slots:
            failures = await self.handle(update)
        if retry_needed(failures):
            return web.Response(status=HTTPStatus.INTERNAL_SERVER_ERROR)
        return web.Response(status=HTTPStatus.OK)

    async def handle(self, update: Update) -> list[BaseException]:
        """Handle one update to its end; what failed on the way (logged already)."""
        failures: list[BaseException] = []
        token = _FAILURES.set(failures)
        try:
            await self.app.process_update(update)
        except Exception as err:  # PTB reports handlers' errors; this is its own
            log.error("processing update %s failed", update.update_id, exc_info=err)
            failures.append(err)
        finally:
            _FAILURES.reset(token)
        return failures

    async def _failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        failures = _FAILURES.get()
        if failures is not None and context.error is not None:
            failures.append(context.error)
