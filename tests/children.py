"""Child processes in tests: whether one is alive, and that children leave with their
SIGKILLed parent (the drawing and the search processes)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has left; only its parent's reaping is missing


def assert_children_leave_with_a_killed_parent(tmp_path: Path, main: str) -> None:
    """Run a script whose ``__main__`` block is ``main`` (it starts children, prints
    their pids on one line, then sleeps), SIGKILL it, and check that every child is gone
    within seconds."""
    script = tmp_path / "worker.py"
    body = textwrap.indent(textwrap.dedent(main).strip(), "    ")
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n\nif __name__ == '__main__':\n{body}\n"
    )
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=script.parent
    )
    try:
        assert proc.stdout is not None
        children = [int(pid) for pid in proc.stdout.readline().split()]
        assert children and all(alive(pid) for pid in children)
    finally:
        proc.kill()
        proc.wait()
    end = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in children)
