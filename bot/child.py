"""What every child process of a worker does first: leave when the worker goes.

A ``ProcessPoolExecutor``'s process outlives a SIGKILLed parent: it holds its own
queue's ends, so it never sees the parent go. The drawing processes (adapters/drawing.py)
and the search processes (bot/ai/search_pool.py) call ``leave_with_parent`` at start.
"""

from __future__ import annotations

import multiprocessing
import os
import threading


def leave_with_parent() -> None:
    """Wait on the parent's sentinel in a daemon thread and exit with it."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_leave_with, args=(parent,), daemon=True).start()


def _leave_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()
    os._exit(0)
