"""Suite-wide settings.

- A missing text or a template that does not format fails the test.
- A test that fails before it closes its store leaves aiosqlite's worker thread (not a daemon)
  waiting for work, and the interpreter then waits for it forever: CI would hang instead of
  reporting the failure. At the very end of the run, such threads are told to stop.
- The `gouji` command sets the expert's shared search pool from the environment; a test
  that runs it must not leave the tests after it searching in processes (where a test's
  monkeypatch does not reach): after every test the pool searches in the test's thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from aiosqlite import core as aiosqlite_core

from bot.ai import search_pool
from bot.i18n import set_strict

set_strict(True)


@pytest.fixture(autouse=True)
def _search_in_the_test() -> Iterator[None]:
    yield
    search_pool.configure(1)


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
