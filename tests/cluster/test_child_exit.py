"""The children of ``bot.child`` leave a clean log however their parent ends.

- A worker killed with its drawing process running (issue #37, item 4): multiprocessing's
  resource tracker unlinks the pool's named semaphores the worker could not, and its
  "leaked semaphore objects" warning — which read like a defect at the end of every
  killed worker's log — is not printed.
- Ctrl-C at a terminal reaches the whole process group: the terminal game (or a worker
  run by hand) ends its own way, and the search and drawing processes leave with it
  instead of printing a KeyboardInterrupt traceback each.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KILLED = textwrap.dedent(
    """
    import os, sys, time
    from bot.child import spawn_pool
    if __name__ == "__main__":
        pool = spawn_pool(1, 0, preload="os")
        print(pool.submit(os.getpid).result(), flush=True)
        time.sleep(60)
    """
)

INTERRUPTED = textwrap.dedent(
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


def _worker(tmp_path: Path, script: str) -> subprocess.Popen[str]:
    """``script`` as a worker of this checkout, in a process group of its own (as a
    terminal's job is), once its pool answered: the pids it printed come first."""
    path = tmp_path / "worker.py"
    path.write_text(script)
    return subprocess.Popen(
        [sys.executable, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "", "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )


def _pids(proc: subprocess.Popen[str]) -> list[int]:
    assert proc.stdout is not None
    return [int(x) for x in proc.stdout.readline().split()]


def test_a_killed_worker_leaves_no_leaked_semaphore_warning(tmp_path: Path) -> None:
    proc = _worker(tmp_path, KILLED)
    try:
        children = _pids(proc)  # the pool runs: its semaphores exist
        proc.send_signal(signal.SIGKILL)
        # Read to the end: the tracker and the child hold the pipe until they are gone.
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert children and proc.pid not in children
    assert "leaked" not in err, err


def test_ctrl_c_leaves_the_children_quiet(tmp_path: Path) -> None:
    proc = _worker(tmp_path, INTERRUPTED)
    try:
        children = _pids(proc)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at the terminal does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert len(children) == 2 and proc.pid not in children
    assert out.strip() == "stopped" and proc.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
