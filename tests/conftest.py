"""Suite-wide settings.

- A missing text or a template that does not format fails the test.
- A test that fails before it closes its store leaves aiosqlite's worker thread (not a daemon)
  waiting for work, and the interpreter then waits for it forever: CI would hang instead of
  reporting the failure. At the very end of the run, such threads are told to stop.
"""

from __future__ import annotations

import threading

import pytest
from aiosqlite import core as aiosqlite_core

from bot.i18n import set_strict

set_strict(True)


def _stop_leaked_sqlite_workers() -> int:
    stopped = 0
    for thread in threading.enumerate():
        # aiosqlite starts Thread(target=_connection_worker_thread, args=(queue,)); the
        # worker leaves its loop when a call returns the stop sentinel.
        if getattr(thread, "_target", None) is not aiosqlite_core._connection_worker_thread:
            continue
        args = getattr(thread, "_args", ())
        if thread.is_alive() and args:
            args[0].put((None, lambda: aiosqlite_core._STOP_RUNNING_SENTINEL))
            stopped += 1
    return stopped


def pytest_unconfigure(config: pytest.Config) -> None:
    _stop_leaked_sqlite_workers()
