"""A worker process that makes calls as fast as a shared rate lets it:
``python -m tests.store.rate_worker TARGET SECONDS RATE`` prints the wall-clock time of
each permit, one a line (tests/store/test_rate_bucket.py)."""

from __future__ import annotations

import asyncio
import sys
import time

from bot.cluster.ratebucket import SharedRate
from bot.store import Store


async def main(target: str, seconds: float, rate: float) -> None:
    store = Store(target)
    await store.open()
    shared = SharedRate(store, "telegram", rate)
    end = time.time() + seconds
    try:
        while time.time() < end:
            await shared.acquire()
            print(f"{time.time():.6f}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3])))
