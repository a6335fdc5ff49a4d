"""A throwaway PostgreSQL server for tests and benchmarks: initdb + pg_ctl in a temporary
directory, listening on a free loopback port (run as the ``postgres`` user when we are
root, since the server refuses to run as root)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REQUIRE_ENV = "GOUJI_REQUIRE_PG"


def find_bindir() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, /usr/local/bin, or Debian's versioned dir."""
    candidates: list[Path] = []
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    candidates.append(Path("/usr/local/bin"))
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
    )
    candidates.extend(Path(p) for p in reversed(versions))
    for d in candidates:
        if (d / "initdb").exists() and (d / "pg_ctl").exists():
            return d
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    root: Path
    port: int
    bindir: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


def _run(args: list[str], as_user: str | None) -> None:
    kwargs: dict[str, object] = {}
    if as_user is not None:
        kwargs["user"] = as_user
        kwargs["group"] = pwd.getpwnam(as_user).pw_gid
    subprocess.run(
        args,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd="/",
        **kwargs,  # type: ignore[call-overload]
    )


@contextlib.contextmanager
def throwaway_server(fsync: bool = False) -> Iterator[PgServer]:
    """Start a server for the duration of the block, then stop it and delete its files."""
    bindir = find_bindir()
    if bindir is None:
        raise FileNotFoundError("no PostgreSQL server binaries (initdb, pg_ctl)")
    as_user = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="gouji-pg-"))
    if as_user is not None:
        info = pwd.getpwnam(as_user)
        os.chown(root, info.pw_uid, info.pw_gid)
    data = root / "data"
    port = free_port()
    _run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-instructions",
        ],
        as_user,
    )
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root} "
        f"-c fsync={'on' if fsync else 'off'} -c max_connections=200"
    )
    pg_ctl = str(bindir / "pg_ctl")
    _run([pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"], as_user)
    try:
        yield PgServer(root, port, bindir)
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _run([pg_ctl, "-D", str(data), "-m", "immediate", "stop"], as_user)
        shutil.rmtree(root, ignore_errors=True)
