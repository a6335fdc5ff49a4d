"""No silent waits on AI seats: the chat shows a seat that has been thinking for a while.

A step runs every AI seat's decision in a row (five ``expert`` seats after a player's move
take several seconds). When the level searches, the shell runs the step in a worker thread
(``asyncio.to_thread``) and watches it from the event loop: just before each AI turn the
core tells a ``Watch`` the table and the seat (``Env.watch``), and the ``Watch`` draws the
table's snapshot there and then, in the worker thread, where the table is not changing. When
one decision has lasted ``after`` seconds, the loop hands that snapshot, marked with the
thinking seat, to ``show`` — the manager keeps it as the table's snapshot until the step
ends and publishes a table change, so the next table edit (Telegram, Discord) shows the
table as it stands with a line "电脑3 思考中…". A line in an edit rather than Telegram's
``sendChatAction``: Telegram does not document chat actions as free of a group's 20
messages a minute.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TypeVar

from .core import Env, table_snapshot
from .outputs import Json, TableSnapshot
from .record import Table

R = TypeVar("R")
POLL_SECONDS = 0.1  # how often the loop looks at the running step
Shown = Callable[[TableSnapshot], Awaitable[None]]


class Watch:
    """What the step's thread is deciding now: the seat, since when, the table's snapshot."""

    def __init__(self, meta: Mapping[str, Json]) -> None:
        self._meta = dict(meta)
        self._lock = threading.Lock()
        self._now: tuple[int, float, TableSnapshot] | None = None
        self._shown: tuple[int, float] | None = None

    def __call__(self, t: Table, seat: int) -> None:
        """In the step's thread, before an AI seat's turn decision."""
        snap = table_snapshot(t, self._meta)
        with self._lock:
            self._now = (seat, time.monotonic(), snap)

    def due(self, after: float) -> TableSnapshot | None:
        """The snapshot to show if the current decision has lasted ``after`` seconds and
        has not been shown yet (marked with its seat), else None."""
        with self._lock:
            now = self._now
            if now is None:
                return None
            seat, since, snap = now
            if time.monotonic() - since < after or self._shown == (seat, since):
                return None
            self._shown = (seat, since)
        return replace(snap, thinking=seat)


async def run_watched(
    fn: Callable[..., R],
    args: tuple[object, ...],
    env: Env,
    meta: Mapping[str, Json],
    after: float,
    show: Shown,
) -> R:
    """``fn(*args, env)`` in a worker thread; ``show`` each AI decision that lasts longer
    than ``after`` seconds (once per decision)."""
    watch = Watch(meta)
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args, replace(env, watch=watch)))
    while True:
        done, _ = await asyncio.wait({task}, timeout=POLL_SECONDS)
        if done:
            return task.result()
        snap = watch.due(after)
        if snap is not None:
            await show(snap)
