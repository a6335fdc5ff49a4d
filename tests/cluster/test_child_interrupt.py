"""Ctrl-C at a terminal reaches the whole process group: the terminal game (or a worker
run by hand) ends its own way, and the search and drawing processes leave with it
instead of printing a KeyboardInterrupt traceback each (``bot.child``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from bot.child import spawn_pool
    def slow_pid(_):
        time.sleep(0.3)  # the two tasks run at once: both children have started
        return os.getpid()
    if __name__ == "__main__":
        pool = spawn_pool(2, 0, preload="os")
        try:
            print(*sorted(set(pool.map(slow_pid, range(2)))), flush=True)
            time.sleep(60)  # the pool idle, its children waiting on their queue
        except KeyboardInterrupt:
            print("stopped", flush=True)
            sys.exit(0)
    """
)


def test_ctrl_c_leaves_the_children_quiet(tmp_path: Path) -> None:
    script = tmp_path / "worker.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job is
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this checkout's bot.child
    )
    try:
        assert proc.stdout is not None
        children = [int(x) for x in proc.stdout.readline().split()]
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at the terminal does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert len(children) == 2 and proc.pid not in children
    assert out.strip() == "stopped" and proc.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
