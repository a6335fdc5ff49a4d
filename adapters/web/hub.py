"""Which tables have open pages, and a wake-up for each when its table changes.

Two sources wake a table's pages: the manager's outputs (this worker ran the step: at
once), and a poll of every watched table every ``POLL_SECONDS`` through the manager's
public ``current`` — on one process a look at memory, on a cluster worker (PostgreSQL)
its copy when it has heard of every commit, else the store's row. So a page on any
worker shows a change another worker committed within about a poll interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Iterator

from bot.table import ChatRef, HandChanged, Out, TableChanged, TableManager

log = logging.getLogger(__name__)

POLL_SECONDS = 0.4  # several workers: another worker's commit shows within about this
# One process: every change comes with the manager's outputs; the poll is a safety net.
ALONE_POLL_SECONDS = 5.0


class Hub:
    def __init__(self, manager: TableManager, poll_seconds: float = POLL_SECONDS) -> None:
        self.manager = manager
        self.poll_seconds = poll_seconds
        self._events: dict[str, asyncio.Event] = {}
        self._pages: Counter[str] = Counter()  # open pages per table
        self._seen: dict[str, int] = {}  # the version each watched table was last polled at
        # Per watched table, a count of its wake-ups: what was laid out for one
        # generation is shared by all its pages (adapters/web/views.py).
        self._generation: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._due: set[str] = set()  # tables whose wake-up is scheduled

    def start(self) -> None:
        self.manager.subscribe(self.on_out)
        self._task = asyncio.get_running_loop().create_task(self._poll_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def on_out(self, out: Out) -> None:
        # One step publishes several outputs (the table, each player's hand): its pages
        # wake once, after the last of them.
        watched = isinstance(out, TableChanged | HandChanged) and out.table in self._pages
        if watched and out.table not in self._due:
            self._due.add(out.table)
            asyncio.get_running_loop().call_soon(self._wake, out.table)

    def _wake(self, key: str) -> None:
        self._due.discard(key)
        self.poke(key)

    def poke(self, key: str) -> None:
        """Wake every page of this table (each compares what it shows with what is)."""
        if key in self._generation:
            self._generation[key] += 1
        event = self._events.pop(key, None)
        if event is not None:
            event.set()

    def waiter(self, key: str) -> asyncio.Event:
        """An event set at the table's next change (one per change, shared by its pages)."""
        event = self._events.get(key)
        if event is None:
            event = self._events[key] = asyncio.Event()
        return event

    def generation(self, key: str) -> int | None:
        """The table's wake-up count while it has pages (None: no page watches it)."""
        return self._generation.get(key)

    @contextlib.contextmanager
    def watching(self, key: str) -> Iterator[None]:
        self._pages[key] += 1
        if self._pages[key] == 1:
            self._generation[key] = self._generation.get(key, 0) + 1
        try:
            yield
        finally:
            self._pages[key] -= 1
            if self._pages[key] <= 0:
                del self._pages[key]
                self._seen.pop(key, None)
                self._generation.pop(key, None)

    @property
    def pages(self) -> int:
        return sum(self._pages.values())

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.poll()
            except Exception:
                log.warning("polling the watched tables failed", exc_info=True)

    async def poll(self) -> None:
        """Read each watched table as the manager knows it now; wake its pages if newer."""
        for key in list(self._pages):
            snap = await self.manager.current(ChatRef.from_key(key))
            if snap is None:  # no live table (ended): as this worker last knew it
                snap = self.manager.snapshot(key)
            version = -1 if snap is None else snap.version
            if self._seen.get(key) != version:
                self._seen[key] = version
                self.poke(key)
