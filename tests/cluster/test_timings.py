"""The worker's profile: phases, and how late its event loop wakes (``/health``)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from bot.cluster.timings import Timings, watch_loop


async def test_a_blocked_event_loop_shows_as_loop_lag() -> None:
    timings = Timings()
    watch = asyncio.create_task(watch_loop(timings, tick=0.01))
    await asyncio.sleep(0.03)
    time.sleep(0.08)  # a step that holds the loop (what a command's awaits then wait for)
    await asyncio.sleep(0.03)
    watch.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watch
    lag = timings.summary()["loop_lag"]
    assert lag["n"] >= 2
    assert lag["max"] >= 60.0  # ms: the blocked 80 ms, less the tick it was sleeping anyway
