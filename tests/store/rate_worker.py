"""A worker process that makes calls as fast as a shared rate lets it:
``python -m tests.store.rate_worker TARGET SECONDS RATE`` prints, one permit a line, its
slot (the wall-clock time the bucket gave it) and when the worker woke for it
(tests/store/test_rate_bucket.py)."""

from __future__ import annotations

import asyncio
import sys
import time

from bot.cluster.ratebucket import SharedRate
from bot.store import Store


async def main(target: str, seconds: float, rate: float) -> None:
    store = Store(target)
    await store.open()
    asked = [0.0]  # the wall clock the bucket was asked at, for the permit's slot

    def wall() -> float:
        asked[0] = time.time()
        return asked[0]

    shared = SharedRate(store, "telegram", rate, wall=wall)
    end = time.time() + seconds
    try:
        while time.time() < end:
            wait = await shared.reserve()
            slot = asked[0] + wait
            if wait > 0:
                await asyncio.sleep(wait)
            print(f"{slot:.6f} {time.time():.6f}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3])))
