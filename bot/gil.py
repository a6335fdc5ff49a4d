"""The event loop's share of the interpreter while a step thinks in a worker thread.

An AI seat's decision runs in a worker thread (``TableManager._core``): a step that plays
several searched endgame moves holds the GIL for hundreds of milliseconds of Python. The
event loop meanwhile writes to sockets — every open web page's stream, every chat call —
and each write is a system call that lets go of the GIL and must take it back. CPython
hands it back only when the thinking thread is asked to yield, after the switch interval
(5 ms by default): one write in every interval, so a loop with thirty writes to make
stalls for 150 ms (the convoy effect). Traced in ``benchmarks/web.py``: the loop's stalls
of 100-300 ms were all inside ``socket.send`` of a page's stream while a step thought.

A serving process asks the thinking thread to yield ten times as often. The thread's own
work slows by the cost of the extra hand-overs (a few per cent), and the loop's writes
wait 0.5 ms instead of 5. Nothing else runs Python threads at length, so a process
with no step in a thread is not affected.
"""

from __future__ import annotations

import sys

SWITCH_SECONDS = 0.0005  # CPython's default is 0.005


def share_the_gil() -> None:
    """Call once in a serving process, before it serves."""
    sys.setswitchinterval(SWITCH_SECONDS)
