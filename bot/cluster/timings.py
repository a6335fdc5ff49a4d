"""Where a worker's command time goes: the last few thousand durations of each phase
(waiting for this process's table lock, the database lock, reloading a table another
worker changed, the engine and AI step, writing, the commit), reported by the health
endpoint — how ``benchmarks/cluster.py`` profiles a cluster under load."""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from ..table.ports import Profile

KEEP = 4096


class Timings:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._samples: dict[str, deque[float]] = {}

    def add(self, phase: str, seconds: float) -> None:
        samples = self._samples.get(phase)
        if samples is None:
            samples = self._samples[phase] = deque(maxlen=self.keep)
        samples.append(seconds)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def summary(self) -> dict[str, dict[str, float]]:
        """Per phase: how many samples, and their median, 95th percentile and maximum in
        milliseconds."""
        out: dict[str, dict[str, float]] = {}
        for phase, samples in self._samples.items():
            ms = sorted(s * 1000 for s in samples)
            p95 = statistics.quantiles(ms, n=20)[-1] if len(ms) >= 20 else ms[-1]
            out[phase] = {
                "n": len(ms),
                "p50": round(statistics.median(ms), 2),
                "p95": round(p95, 2),
                "max": round(ms[-1], 2),
            }
        return out


async def watch_loop(timings: Profile, tick: float = 0.1) -> None:
    """Record how late this process's event loop wakes (phase ``loop_lag``) until
    cancelled: every await of a command, from a pooled connection to the next statement,
    waits that long at least, so a busy loop passes for a slow database."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(tick)
        timings.add("loop_lag", max(0.0, time.perf_counter() - start - tick))


class GcWatch:
    """Record each cyclic garbage collection's pause (phases ``gc0``, ``gc1``, ``gc2`` by
    generation) while installed: a pause holds the event loop like any busy callback,
    and a full collection over a worker's hundreds of live tables is a long one."""

    def __init__(self, timings: Profile) -> None:
        self.timings = timings
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.timings.add(f"gc{info['generation']}", time.perf_counter() - self._started)

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)
