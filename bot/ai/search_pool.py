"""Search processes: the expert's playouts spread over the machine's cores.

The expert plays a decision's deals in batches of ``MIN_DEALS`` (after each it may stop
early). A ``SearchPool`` of ``n`` processes splits each batch into ``n`` runs of
consecutive deals, one per process, and joins their rows in deal order. Deal ``d`` is
seeded ``seed + d`` wherever it runs, so a decision is the same for any number of
processes; only the time it takes differs. With two cores the expert does twice the
work (``expert.WORK_PER_PROCESS`` each) in the same time.

In a search process the playouts hold no lock the event loop needs: a worker thread
that waits on them leaves the interpreter to the loop. The processes start as every
child of a worker does (``bot.child``), at ``nice`` 5, so a button press is answered
before a playout runs.

``GOUJI_SEARCH_PROCESSES`` sets the processes of the ``gouji`` command (default: the
cores this process may use, at most 2; 0 or 1 searches in the deciding thread, which is
what a library caller or a test gets unless it calls ``configure``).
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..child import process_count, spawn_pool
from . import playouts
from .playouts import Batch, Row

log = logging.getLogger(__name__)

SEARCH_PROCESSES_ENV = "GOUJI_SEARCH_PROCESSES"
DEFAULT_MAX = 2  # the reference machine's cores: more would only slow the event loop
MAX_PROCESSES = 8
SEARCH_NICE = 5
MAX_BROKEN = 3  # pools broken in a row before searching in the calling thread


class SearchProcessesError(ValueError):
    """A ``GOUJI_SEARCH_PROCESSES`` value that is not a count of processes."""


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def search_processes(raw: str | None) -> int:
    """The environment's setting: unset or empty is the default."""
    value = process_count(raw, min(DEFAULT_MAX, usable_cores()), MAX_PROCESSES)
    if value is None:
        raise SearchProcessesError(
            f"{SEARCH_PROCESSES_ENV} must be a whole number of search processes "
            f"from 0 to {MAX_PROCESSES}, not {raw!r}"
        )
    return value


def split(batch: Batch, parts: int) -> list[Batch]:
    """``batch`` as up to ``parts`` batches of consecutive deals, in order."""
    n = min(parts, batch.deals)
    out: list[Batch] = []
    first = batch.first
    for k in range(n):
        count = batch.deals // n + (1 if k < batch.deals % n else 0)
        out.append(batch._replace(first=first, deals=count))
        first += count
    return out


class SearchPool:
    """Runs ``playouts.run`` on a batch, in ``processes`` search processes (or in the
    calling thread for 0 or 1)."""

    def __init__(self, processes: int = 1, nice: int = SEARCH_NICE) -> None:
        self.processes = processes
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()  # several tables' threads may search at once
        self._broken = 0  # pools broken in a row

    def run(self, batch: Batch) -> list[Row]:
        """The batch's rows in deal order (fewer than ``deals`` once the clock ran out)."""
        if self.processes <= 1 or batch.deals <= 1:
            return playouts.run(batch)
        parts = split(batch, self.processes)
        try:
            executor = self._executor()
            futures = [executor.submit(playouts.run, part) for part in parts]
            results = [f.result() for f in futures]
        except CancelledError:
            # Another thread's search found the pool broken, or ``configure`` replaced
            # it, and cancelled what was queued: this batch is played here.
            return playouts.run(batch)
        except BrokenProcessPool:
            # A search process died (killed, out of memory): this batch is played here,
            # and the next one starts new processes — unless they keep dying (a process
            # that cannot even start), when this pool searches in the calling thread
            # from then on, with one process's budget.
            self._drop()
            self._broken += 1
            if self._broken >= MAX_BROKEN:
                log.error("search processes keep dying; searching in this process instead")
                self.processes = 1
            else:
                log.warning("a search process died; starting new ones")
            return playouts.run(batch)
        self._broken = 0
        rows: list[Row] = []
        for part, got in zip(parts, results, strict=True):
            rows.extend(got)
            if len(got) < part.deals:
                break  # out of time: the deals after a missing one are not kept
        return rows

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = spawn_pool(self.processes, self.nice, preload=playouts.__name__)
            return self._pool

    def start(self) -> None:
        """Start the processes now rather than at the first search (a spawned process
        takes a few tenths of a second to load the engine)."""
        if self.processes > 1:
            for f in [self._executor().submit(os.getpid) for _ in range(self.processes)]:
                f.result()

    def _drop(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the processes (a batch still running is dropped)."""
        self._drop()


_shared = SearchPool(1)


def shared() -> SearchPool:
    """The pool every ``ExpertPolicy`` without its own uses."""
    return _shared


def configure(processes: int) -> SearchPool:
    """Set the shared pool's processes (a pool of another size is closed and replaced)."""
    global _shared
    if _shared.processes != processes:
        old, _shared = _shared, SearchPool(processes)
        old.close()
    return _shared
