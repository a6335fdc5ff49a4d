"""Several bot workers on one PostgreSQL database: who this worker is, the loops that
share timers and outgoing messages between workers, a health endpoint, JSON logs."""

from .health import HealthServer
from .logs import JsonFormatter, configure_logging
from .relay import OutboxRelay
from .timers import DeadlineRunner
from .worker import WORKER_ENV, ShardsError, parse_shards, worker_id

__all__ = [
    "WORKER_ENV",
    "DeadlineRunner",
    "HealthServer",
    "JsonFormatter",
    "OutboxRelay",
    "ShardsError",
    "configure_logging",
    "parse_shards",
    "worker_id",
]
