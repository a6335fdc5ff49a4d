"""Structured logs: one JSON object a line, with the worker, and the table and chat a line
is about (passed as ``extra={"table": key, "chat": key}``). Log lines carry ids, codes and
counts — never cards: the manager logs error codes, not hands."""

from __future__ import annotations

import json
import logging
import os
import time

LOG_FORMAT_ENV = "GOUJI_LOG_FORMAT"
CONTEXT_FIELDS = ("table", "chat", "user", "deadline")


class JsonFormatter(logging.Formatter):
    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "worker": self.worker,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure_logging(worker: str, level: int = logging.INFO) -> None:
    """JSON lines when ``GOUJI_LOG_FORMAT=json``, else the plain format; both name the
    worker."""
    handler = logging.StreamHandler()
    if os.environ.get(LOG_FORMAT_ENV) == "json":
        handler.setFormatter(JsonFormatter(worker))
    else:
        handler.setFormatter(
            logging.Formatter(f"%(asctime)s {worker} %(levelname)s %(name)s: %(message)s")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
