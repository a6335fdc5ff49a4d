"""The cyclic garbage collector in a long-running bot process.

A worker keeps hundreds of live tables in memory — engine states, logs, views: a great
many container objects — and with CPython's default thresholds (700, 10, 10) its
collector scanned them again and again: in the 300-table cluster benchmark each worker
ran a full collection every ten seconds or so, each holding its event loop for 230-460
ms (wall time on a saturated machine; every press in flight waited that long), and
some 130 middle ones of 10-60 ms, about 6 s of pauses a worker in a 150 s run. Nearly
all of the process's garbage is freed by reference counting the moment it is dropped;
the collector is only for cycles, which a bot makes rarely (an exception with its
traceback, a task and its callbacks). So:

* what is loaded at start (modules, the live tables read back) is frozen out of the
  collector's scans (``gc.freeze``): it is kept or freed by reference counting alone;
* a young collection runs after ``YOUNG`` new container objects rather than 700: the
  states a command makes live seconds, until the table's next command, so most of them
  are gone before any collection sees them and are never promoted to the old
  generation, whose full scan was the long pause;
* a full collection waits for ``OLD_AFTER`` middle ones rather than 10 (CPython also
  waits until the old generation grew by a quarter).

Measured the same way after: a young collection every 20 s or so (50-260 ms each, the
live tables' newest states being what it scans) and no middle or full one in the run —
under 1 s of pauses a worker.
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
