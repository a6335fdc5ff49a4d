"""Drawing images away from the event loop, by default in a background process.

A hand or table picture costs 8-15 ms of CPU (benchmarks/render.py), and a busy worker
draws one or two for every command. Drawn in a thread of the worker's own process, the
pictures compete with the event loop for the interpreter lock and for the CPU: at 300
tables on two cores (benchmarks/cluster.py, Pillow images) the answers to button presses
waited behind them, p95 1.5 s against 42 ms with the drawing stubbed out. So a worker
draws in a process of its own, started at the lowest CPU priority (``nice`` 19): a press
is answered first and the picture follows when a core is free. Under load a picture comes
later; it never delays an answer.

``GOUJI_DRAW_PROCESSES`` sets how many drawing processes a worker starts (default 1; 0
draws in threads of the worker's own process, as the tests do).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.child import process_count, spawn_pool
from bot.service import StartupError

log = logging.getLogger(__name__)

DRAW_PROCESSES_ENV = "GOUJI_DRAW_PROCESSES"
DEFAULT_PROCESSES = 1
MAX_PROCESSES = 16
# The lowest priority: a drawing process gets a core only when no answer needs it.
BACKGROUND_NICE = 19

R = TypeVar("R")


def draw_processes(raw: str | None) -> int:
    """The environment's setting: unset or empty is the default."""
    value = process_count(raw, DEFAULT_PROCESSES, MAX_PROCESSES)
    if value is None:
        raise StartupError(
            f"{DRAW_PROCESSES_ENV} must be a whole number of drawing processes "
            f"from 0 to {MAX_PROCESSES}, not {raw!r}"
        )
    return value


class Drawer:
    """Runs a drawing function (module-level, its arguments picklable: it may run in
    another process) off the event loop and returns its result."""

    def __init__(self, processes: int = 0, nice: int = BACKGROUND_NICE) -> None:
        self.processes = processes
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None

    @classmethod
    def from_env(cls) -> Drawer:
        return cls(draw_processes(os.environ.get(DRAW_PROCESSES_ENV)))

    async def __call__(self, fn: Callable[..., R], *args: object) -> R:
        if self.processes == 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            # A drawing process died (killed, out of memory): start new ones and draw
            # once more; a second failure is the caller's error.
            log.warning("a drawing process died; starting a new one")
            self._drop()
            return await loop.run_in_executor(self._executor(), fn, *args)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Pillow and the fonts load before the first picture.
            self._pool = spawn_pool(self.processes, self.nice, preload="render")
        return self._pool

    def start(self) -> None:
        """Start the drawing processes now rather than at the first picture."""
        if self.processes:
            self._executor().submit(os.getpid)

    def _drop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the drawing processes (pictures still being drawn are dropped)."""
        self._drop()
