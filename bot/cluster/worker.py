"""This worker's name: in leases, logs and the health answer."""

from __future__ import annotations

import os
import socket

WORKER_ENV = "GOUJI_WORKER_ID"


def worker_id() -> str:
    """``$GOUJI_WORKER_ID``, else ``host-pid`` (unique among live workers either way)."""
    return os.environ.get(WORKER_ENV) or f"{socket.gethostname()}-{os.getpid()}"
