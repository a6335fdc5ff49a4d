"""The worker's profile: phases, and how late its event loop wakes (``/health``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time

from bot.cluster.timings import GcWatch, Timings, watch_loop


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


def test_garbage_collections_show_as_pauses_by_generation() -> None:
    timings = Timings()
    watch = GcWatch(timings)
    watch.install()
    try:
        gc.collect(0)
        gc.collect()
    finally:
        watch.remove()
    summary = timings.summary()
    assert summary["gc0"]["n"] >= 1 and summary["gc2"]["n"] >= 1
    gc.collect()  # not recorded any more
    assert watch not in gc.callbacks
    assert timings.summary()["gc2"]["n"] == summary["gc2"]["n"]
