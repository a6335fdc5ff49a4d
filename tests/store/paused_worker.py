"""The real ``gouji`` entry point, with a pause at one point of a step's way out.

The tests start it as ``python -m tests.store.paused_worker``; it draws with the tests'
stub renderer (no drawing process).

Set by the test that starts it (nothing here is active in the bot itself):

* ``GOUJI_TEST_PAUSE_AT`` — where to stop:

  - ``commit`` / ``committed``: a table step, written and not committed / just after
    its commit (a transaction that wrote a table: the bookkeeping's own transactions —
    the outbox, the adapters' values — pass through);
  - ``hand_commit`` / ``hand_committed``: the same, only in the step that finishes a
    hand (it records the hand: the last play, by a press or a timer);
  - ``draw``: while the result picture is drawn (after the step, its outbox rows handed
    to the Telegram adapter);
  - ``mark``: when the outbox relay marks the hand's result picture sent (the platform
    answered; the mark is not committed: the window in which a new message may be
    posted twice);

* ``GOUJI_TEST_ARMED`` — a file: the process stops only while it exists;
* ``GOUJI_TEST_PAUSED`` — a file this process writes (its worker id) when it stops.

Stopped, the process blocks (its event loop; or the drawing thread, the loop then
waiting for the picture), and nothing more of that step is sent, marked or committed
until the test SIGKILLs it: a worker that dies at exactly that instant.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAUSE_AT = "GOUJI_TEST_PAUSE_AT"
ARMED = "GOUJI_TEST_ARMED"
PAUSED = "GOUJI_TEST_PAUSED"
STEP_POINTS = {
    "commit": ("table", "commit"),
    "committed": ("table", "committed"),
    "hand_commit": ("hand", "commit"),
    "hand_committed": ("hand", "committed"),
}


class Pause:
    def __init__(self, armed: Path, paused: Path) -> None:
        self.armed = armed
        self.paused = paused

    def __call__(self) -> None:
        if self.armed.exists():
            self.paused.write_text(os.environ.get("GOUJI_WORKER_ID", "?"))
            time.sleep(3600)  # blocked: the test kills the process

    def step_hook(self, after: str, point: str) -> Callable[[str], None]:
        """The store's fault hook: stop at ``point`` in a task that passed ``after``."""
        passed: set[int] = set()

        def hook(at: str) -> None:
            if not self.armed.exists():
                return
            task = id(asyncio.current_task())
            if at == after:
                passed.add(task)
            if at == point and task in passed:
                self()

        return hook


def _on_step(pause: Pause, after: str, point: str) -> None:
    from bot.store import Store

    hook = pause.step_hook(after, point)
    opened = Store.__init__

    def init(self: Store, target: str | Path) -> None:
        opened(self, target)
        self.fault_hook = hook

    Store.__init__ = init  # type: ignore[method-assign]


def _on_mark(pause: Pause) -> None:
    from bot.cluster.relay import OutboxRelay

    marking = OutboxRelay._mark

    async def mark(self: OutboxRelay, settled: Any, *args: Any, **kwargs: Any) -> Any:
        if any(message.kind == "HandFinished" for message, _, _ in settled):
            pause()
        return await marking(self, settled, *args, **kwargs)

    OutboxRelay._mark = mark  # type: ignore[method-assign]


def _on_draw(pause: Pause) -> None:
    from tests.telegram.harness import FakeRenderer

    drawing = FakeRenderer.result

    def result(self: FakeRenderer, *args: Any) -> bytes:
        pause()  # in the drawing thread (GOUJI_DRAW_PROCESSES=0)
        return drawing(self, *args)

    FakeRenderer.result = result  # type: ignore[method-assign]


def install() -> None:
    where = os.environ.get(PAUSE_AT)
    if not where:
        return
    pause = Pause(Path(os.environ[ARMED]), Path(os.environ[PAUSED]))
    if where in STEP_POINTS:
        _on_step(pause, *STEP_POINTS[where])
    elif where == "mark":
        _on_mark(pause)
    elif where == "draw":
        _on_draw(pause)
    else:
        raise SystemExit(f"{PAUSE_AT}={where!r}: no such point")


def main() -> int:
    import adapters.telegram.app as telegram_app
    from adapters.main import main as gouji
    from tests.telegram.harness import FakeRenderer

    telegram_app.PillowRenderer = FakeRenderer  # type: ignore[misc,assignment]
    install()
    return gouji([])


if __name__ == "__main__":
    sys.exit(main())
