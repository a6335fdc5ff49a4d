"""This worker's name: in leases, logs and the health answer."""

from __future__ import annotations

import os
import socket

WORKER_ENV = "GOUJI_WORKER_ID"


def worker_id() -> str:
    """``$GOUJI_WORKER_ID``, else ``host-pid`` (unique among live workers either way)."""
    return os.environ.get(WORKER_ENV) or f"{socket.gethostname()}-{os.getpid()}"


class ShardsError(ValueError):
    """``--shards`` that is not ``K/N`` with 0 <= K < N."""


def parse_shards(text: str) -> tuple[int, int]:
    """``"K/N"``: this worker runs shard K of N of a sharded front end's bot (one that
    declares ``shards``: bot.frontend)."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise ShardsError(f"--shards wants K/N (e.g. 0/3), not {text!r}") from None
    if not 0 <= k < n:
        raise ShardsError(f"--shards {text}: K must be from 0 to N-1")
    return k, n
