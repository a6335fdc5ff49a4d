"""The real ``gouji`` entry point, with a pause at one point of one table step's commit:
``python -m tests.store.paused_worker`` (the tests' stub renderer, no drawing process).

Set by the test that starts it (nothing here is active in the bot itself):

* ``GOUJI_TEST_PAUSE_AT`` — a store fault point (``bot.store``): ``commit`` (the step is
  written, its transaction not committed) or ``committed`` (just after the commit);
* ``GOUJI_TEST_ARMED`` — a file: while it exists, the first table step to reach that
  point stops there (a transaction that wrote a table: the bookkeeping's own
  transactions — the outbox, the adapters' values — pass through);
* ``GOUJI_TEST_PAUSED`` — a file this process writes when it stops.

Stopped, the process blocks its event loop (nothing more is sent, answered or committed)
until the test SIGKILLs it: a worker that dies at exactly that instant.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

PAUSE_AT = "GOUJI_TEST_PAUSE_AT"
ARMED = "GOUJI_TEST_ARMED"
PAUSED = "GOUJI_TEST_PAUSED"


def pause_hook(point: str, armed: Path, paused: Path) -> object:
    """The store's fault hook: stop at ``point`` in a task that wrote a table."""
    writing: set[int] = set()

    def hook(at: str) -> None:
        if not armed.exists():
            return
        task = id(asyncio.current_task())
        if at == "table":
            writing.add(task)
        if at == point and task in writing:
            paused.write_text(point)
            time.sleep(3600)  # the loop is blocked: the test kills the process

    return hook


def install() -> None:
    from bot.store import Store

    point = os.environ.get(PAUSE_AT)
    if not point:
        return
    hook = pause_hook(point, Path(os.environ[ARMED]), Path(os.environ[PAUSED]))
    opened = Store.__init__

    def init(self: Store, target: str | Path) -> None:
        opened(self, target)
        self.fault_hook = hook  # type: ignore[assignment]

    Store.__init__ = init  # type: ignore[method-assign]


def main() -> int:
    import adapters.telegram.app as telegram_app
    from adapters.main import main as gouji
    from tests.telegram.harness import FakeRenderer

    telegram_app.PillowRenderer = FakeRenderer  # type: ignore[misc,assignment]
    install()
    return gouji([])


if __name__ == "__main__":
    sys.exit(main())
