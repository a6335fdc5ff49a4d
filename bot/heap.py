"""The cyclic garbage collector in a long-running bot process.

A worker keeps hundreds of live tables in memory — engine states, logs, views: millions
of container objects — and CPython's default thresholds (700, 10, 10) made it scan all of
them again and again: in the 300-table cluster benchmark each worker ran a full
collection every ten seconds or so, each holding its event loop for 230-460 ms (every
press in flight waited that long), and 130 middle ones of 10-60 ms. Nearly all of the
process's garbage is freed by reference counting the moment it is dropped; the collector
is only for cycles, which a bot makes rarely (an exception with its traceback, a task and
its callbacks). So:

* what is loaded at start (modules, the live tables read back) is frozen out of the
  collector's scans (``gc.freeze``): it is kept or freed by reference counting alone;
* a young collection runs after ``YOUNG`` new container objects rather than 700, so the
  states a command makes and drops are mostly gone before any collection sees them and
  fewer of them are promoted to the old generation, whose full scan is the long pause;
* a full collection runs after ``OLD_AFTER`` middle ones rather than 10 (CPython also
  waits until the old generation grew by a quarter): every few minutes under load
  instead of every few seconds. Cycles wait for it; none holds much memory.
"""

from __future__ import annotations

import gc

YOUNG = 50_000
MIDDLE_AFTER = 20
OLD_AFTER = 100


def settle_heap() -> None:
    """Call once the process has loaded what it keeps (before serving)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE_AFTER, OLD_AFTER)
