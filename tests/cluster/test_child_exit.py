"""A worker killed with its drawing process running leaves a clean log (issue #37,
item 4): multiprocessing's resource tracker unlinks the pool's named semaphores the
worker could not, and its "leaked semaphore objects" warning — which read like a
defect at the end of every killed worker's log — is not printed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from bot.child import spawn_pool
    if __name__ == "__main__":
        pool = spawn_pool(1, 0, preload="os")
        print(pool.submit(os.getpid).result(), flush=True)
        time.sleep(60)
    """
)


def test_a_killed_worker_leaves_no_leaked_semaphore_warning(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "worker.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": ""},
    )
    try:
        assert proc.stdout is not None
        child = int(proc.stdout.readline())  # the pool runs: its semaphores exist
        proc.send_signal(signal.SIGKILL)
        # Read to the end: the tracker and the child hold the pipe until they are gone.
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert child != proc.pid
    assert "leaked" not in err, err
