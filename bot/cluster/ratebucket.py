"""A bot-wide rate shared by every worker on one database: one row per platform, a
token bucket updated atomically by each call (GCRA, "virtual scheduling").

Telegram allows a bot about 30 calls a second in all, whichever process makes them.
Each worker asks the row for a permit right before a call: one statement takes a token
from the bucket (refilled at ``rate`` a second since its last update, up to ``burst``)
and returns what is left. Left at 0 or more, the call goes now; below 0 the permit is a
slot reserved ``-left / rate`` seconds ahead, and the worker waits that long. Every
permit is a slot of its own — the row's lock orders them — so however many workers
share the row, the calls together keep the rate, and adding a worker needs no
arithmetic: each takes what it needs when it needs it. A slot a worker reserved and did
not use (it died) is only a slot lost. The clock is each worker's wall clock (kept in
step by NTP; a skew of a few milliseconds shifts a slot by as much).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ..store import Store
from ..store.backend import Dialect

# One row a name: the tokens left (below 0: slots reserved ahead) and when counted.
_UPDATE = (
    "ON CONFLICT (name) DO UPDATE SET "
    "tokens = LEAST(?, b.tokens + GREATEST(0, excluded.at - b.at) * ?) - 1, "
    "at = GREATEST(b.at, excluded.at) RETURNING tokens"
)
_TAKE = "INSERT INTO rate_buckets AS b (name, tokens, at) VALUES (?, ? - 1, ?) " + _UPDATE
# On PostgreSQL the permit's commit does not wait for its WAL to reach the disk
# (``synchronous_commit`` off for this one transaction: the statement is its own). Every
# Bot API call of every worker takes a permit on this one row, so a flush each held the
# row — and the next permit — for the disk's time: a turn's few private edits went out
# one disk flush apart (issue #38: 40-200 ms between them). A database crash can lose
# the last permits' updates: a few calls then get slots a second time, once.
_TAKE_PG = (
    "INSERT INTO rate_buckets AS b (name, tokens, at) "
    "SELECT CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) - 1, CAST(? AS DOUBLE PRECISION) "
    "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS no_flush " + _UPDATE
)


class SharedRate:
    """``adapters.pacing.GlobalRate`` over the database: ``acquire`` returns when this
    worker's call may be made within the bot-wide ``rate`` (calls a second)."""

    def __init__(
        self,
        store: Store,
        name: str,
        rate: float,
        burst: float = 1.0,
        *,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a shared rate needs rate > 0 and burst >= 1")
        self.store = store
        self.name = name
        self.rate = rate
        self.burst = burst
        self.wall = wall
        self.sleep = sleep

    async def acquire(self) -> None:
        wait = await self.reserve()
        if wait > 0:
            await self.sleep(wait)

    async def reserve(self) -> float:
        """Take a permit; the seconds until its slot (0: now)."""
        sql = _TAKE_PG
        if self.store.dialect is Dialect.SQLITE:  # its scalar min() and max()
            sql = _TAKE.replace("LEAST", "MIN").replace("GREATEST", "MAX")
        async with self.store.statement() as tx:
            row = await tx.tx.fetchone(
                sql, self.name, self.burst, self.wall(), self.burst, self.rate
            )
        left = float(row[0]) if row is not None else 0.0
        return max(0.0, -left / self.rate)
