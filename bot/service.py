"""Run the chat bots (the registered front ends whose token is set: bot.frontend) in one
event loop around one table manager.

A start-up failure (a wrong token, an unreachable API, a database that cannot be opened)
raises :class:`StartupError` with one line for the operator, after everything already
opened is closed again, so the process ends at once instead of hanging on a store thread
or an open HTTP session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from .cluster import HealthServer, worker_id
from .cluster.shell import shared_manager
from .cluster.timings import GcWatch, watch_loop
from .frontend import FrontEnd, StartFailure, tokens_wanted
from .gil import share_the_gil
from .heap import settle_heap
from .store import Store, default_store_target
from .store.backend import Dialect
from .table import TableManager

log = logging.getLogger(__name__)

HEALTH_PORT_ENV = "GOUJI_HEALTH_PORT"
# A bot that has not logged in by then will not: give up rather than hang.
START_TIMEOUT = 20.0
STOP_TIMEOUT = 5.0
_LOOP_WATCH: set[asyncio.Task[None]] = set()  # the loop-lag probes (strong references)


class StartupError(Exception):
    """The service could not start; ``str(err)`` is the one line to print."""


class ChatBot(Protocol):
    # Its platform's declaration (bot.frontend); None for a page served beside the bots.
    @property
    def front_end(self) -> FrontEnd | None: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


# The adapters are built by the composition root (``adapters/main.py``): bot/ never
# imports a platform.
BotFactory = Callable[[TableManager, "tuple[int, int] | None"], "list[ChatBot]"]


def make_manager(store: Store) -> TableManager:
    """On PostgreSQL, a worker among several (any worker serves any table); on SQLite, the
    one process. Both send through the outbox (bot.cluster.shell): a message a committed
    step owes is in the store until the platform answered, so a crash loses none."""
    return shared_manager(store, solo=store.dialect is Dialect.SQLITE)


def safe_target(target: str) -> str:
    """The store's file or URL with any password left out (it goes into an error line)."""
    parts = urlsplit(target)
    if parts.password is None:
        return target
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def start_failure(bot: ChatBot, err: BaseException) -> str:
    """One line saying why ``bot`` did not start. Never echoes the token."""
    if isinstance(err, StartupError):
        return str(err)  # the front end's own line (e.g. the web table's port is taken)
    front = bot.front_end
    platform = front.name if front else type(bot).__name__
    failure = front.classify(err) if front else None
    if failure is StartFailure.REJECTED_TOKEN or getattr(err, "status", None) == 401:
        variable = front.token_env if front else "its token"
        return f"{platform} rejected the bot token: check {variable}"
    if isinstance(err, TimeoutError):
        return f"cannot reach {platform}: no answer within {START_TIMEOUT:.0f} s"
    if failure is StartFailure.UNREACHABLE or isinstance(err, OSError) or _is_aiohttp(err):
        return f"cannot reach {platform}: {err}"
    return f"{platform} bot failed to start: {type(err).__name__}: {err}"


def _is_aiohttp(err: BaseException) -> bool:
    return type(err).__module__.startswith("aiohttp")


async def _stop_all(bots: list[ChatBot]) -> None:
    for bot in reversed(bots):
        try:
            await asyncio.wait_for(bot.stop(), STOP_TIMEOUT)
        except Exception:
            # Stopping is best effort; the reason the service ended is reported elsewhere.
            log.info("stopping %s failed", type(bot).__name__, exc_info=True)


async def open_store(target: str) -> Store:
    store = Store(target)
    try:
        await store.open()
    except Exception as err:
        with contextlib.suppress(Exception):
            await store.close()
        # aiosqlite queues the stop of its worker thread when a connect fails but does not
        # wait for it; let the thread finish while this loop still runs, or it reports
        # "Event loop is closed" on stderr as the process exits.
        await asyncio.sleep(0.1)
        raise StartupError(f"cannot open the database {safe_target(target)}: {err}") from err
    return store


async def run_bots(build_bots: BotFactory, shards: tuple[int, int] | None = None) -> int:
    store = await open_store(default_store_target())
    started: list[ChatBot] = []
    try:
        manager = make_manager(store)
        bots = build_bots(manager, shards)
        if not bots:
            raise StartupError(f"no {tokens_wanted()} set")
        for bot in bots:
            started.append(bot)  # a half-started bot is stopped too (sessions, threads)
            try:
                await asyncio.wait_for(bot.start(), START_TIMEOUT)
            except Exception as err:
                raise StartupError(start_failure(bot, err)) from err
        restored = await manager.load()
        log.info("resumed %d live tables", restored)
        settle_heap()  # what was loaded is kept; the collector's pauses kept short
        share_the_gil()  # the loop's writes do not wait out a thinking thread (bot/gil.py)
        health = await start_health(manager, store)
        try:
            await _serve(manager)
        finally:
            for watch in list(_LOOP_WATCH):
                watch.cancel()
            if health is not None:
                await health.stop()
    finally:
        await _stop_all(started)
        await store.close()
    return 0


async def start_health(manager: TableManager, store: Store) -> HealthServer | None:
    """``GET /health`` on ``$GOUJI_HEALTH_PORT`` (``$GOUJI_HEALTH_HOST``, default all
    interfaces), when set: this worker's name, its store, the tables in its memory; 503
    when the database does not answer."""
    port = os.environ.get(HEALTH_PORT_ENV)
    if not port:
        return None

    async def check() -> dict[str, Any]:
        await store.ping()
        facts: dict[str, Any] = {
            "store": store.dialect.value,
            "tables_in_memory": len(manager.tables),
        }
        timings = manager.timings  # a worker of several: its profile
        if timings is not None:
            facts["command_ms"] = timings.summary()
        return facts

    timings = manager.timings
    if timings is not None:
        # Held here (the loop keeps only weak references) until the bots stop.
        watch = asyncio.create_task(watch_loop(timings))
        _LOOP_WATCH.add(watch)
        watch.add_done_callback(_LOOP_WATCH.discard)
        gc_watch = GcWatch(timings)
        gc_watch.install()
        watch.add_done_callback(lambda _: gc_watch.remove())
    server = HealthServer(
        worker_id(), check, host=os.environ.get("GOUJI_HEALTH_HOST", "0.0.0.0"), port=int(port)
    )
    await server.start()
    log.info("health endpoint on port %d", server.port)
    return server


async def _serve(manager: TableManager) -> None:
    """Run the timers until SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    timers = asyncio.create_task(manager.run_timers())
    try:
        await stop.wait()
    finally:
        timers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timers
