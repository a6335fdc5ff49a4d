"""A worker's child processes: the drawing processes (adapters/drawing.py) and the
expert's search processes (bot/ai/search_pool.py).

- They start with ``spawn``, not the platform's ``fork``: a forked child would inherit
  the worker's sockets (its health port, the webhook) and keep them open after the
  worker dies, so a restarted worker could not bind them again.
- They run at a lower CPU priority than the worker, so a button press is answered first.
- They leave Ctrl-C to the worker (it reaches the whole process group).
- They leave with the worker: a ``ProcessPoolExecutor``'s process outlives a SIGKILLed
  parent (it holds its own queue's ends, so it never sees the parent go).
- A pool's queues hold named semaphores, which multiprocessing's resource tracker (a
  process of its own) unlinks when the worker dies without closing them — after a
  SIGKILL, as it should. It then warns of "leaked semaphore objects", which in a killed
  worker's log read like a defect of ours: that one warning is silenced in the tracker.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

# The resource tracker's own warnings (it starts with this process's ``-W`` options):
# "There appear to be N leaked semaphore objects to clean up at shutdown", after it has
# cleaned them up for a worker that was killed.
TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


def spawn_pool(processes: int, nice: int, preload: str) -> ProcessPoolExecutor:
    """``processes`` children at ``nice`` (added to ours) that leave with this process
    and import the module ``preload`` before their first task."""
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)  # before the pool starts the tracker
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(nice, preload),
    )


def _start(nice: int, preload: str) -> None:
    # Ctrl-C at a terminal reaches the whole process group: the parent ends its own way
    # (the terminal game, a worker run by hand) and the child leaves with it. A child
    # that took the signal itself would print a traceback of its own, from an idle
    # pool's wait on its queue.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(nice)
    leave_with_parent()
    importlib.import_module(preload)


def leave_with_parent() -> None:
    """Wait on the parent's sentinel in a daemon thread and exit with it."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_leave_with, args=(parent,), daemon=True).start()


def _leave_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()
    os._exit(0)


def process_count(raw: str | None, default: int, maximum: int) -> int | None:
    """A count of child processes from the environment: unset or empty is ``default``;
    None for anything but a whole number from 0 to ``maximum`` (the caller says why)."""
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        return None
    return value if 0 <= value <= maximum else None
