"""Start-up failures end the process quickly with one clear line (issue 9, item 5).

Each case runs ``gouji`` in a subprocess against a fake or closed endpoint on loopback:
no real network, no real token.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

DEADLINE = 20.0  # seconds the subprocess may take at most (the fix exits in about one)

# Runs gouji with discord.py's API base moved to a loopback address first.
DISCORD_AT = (
    "import sys, discord.http as h; h.Route.BASE = sys.argv[1] + '/api/v10'; "
    "from adapters.main import main; sys.exit(main(sys.argv[2:]))"
)


class _Unauthorized(BaseHTTPRequestHandler):
    """Answers every request the way Telegram and Discord answer a wrong token."""

    def _reply(self) -> None:
        if "Content-Length" in self.headers:
            self.rfile.read(int(self.headers["Content-Length"]))
        body = json.dumps(
            {"ok": False, "error_code": 401, "description": "Unauthorized"}
            if "/bot" in self.path
            else {"message": "401: Unauthorized", "code": 0}
        ).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _reply

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def fake_api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Unauthorized)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def closed_port() -> str:
    """A loopback address nothing listens on (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOUJI_")}
    env.update(GOUJI_DB=str(tmp_path / "gouji.sqlite3"), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        proc = subprocess.run(
            args, env=env, cwd=cwd, capture_output=True, text=True, timeout=DEADLINE
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"still running after {DEADLINE}s: {err.stderr!r}")
    return proc.returncode, proc.stderr, time.monotonic() - start


def _one_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_wrong_telegram_token(tmp_path: Path, fake_api: str) -> None:
    env = _env(tmp_path, GOUJI_TELEGRAM_TOKEN="123:wrong", GOUJI_TELEGRAM_API_URL=fake_api)
    code, err, took = _run([sys.executable, "-m", "adapters.main"], env, tmp_path)
    assert code != 0
    line = _one_line(err)
    assert "Telegram" in line and "GOUJI_TELEGRAM_TOKEN" in line
    assert "123:wrong" not in err  # the token is a secret: never echoed
    assert took < DEADLINE


def test_telegram_unreachable(tmp_path: Path, closed_port: str) -> None:
    env = _env(tmp_path, GOUJI_TELEGRAM_TOKEN="123:abc", GOUJI_TELEGRAM_API_URL=closed_port)
    code, err, _ = _run([sys.executable, "-m", "adapters.main"], env, tmp_path)
    assert code != 0
    assert "Telegram" in _one_line(err)


def test_wrong_discord_token(tmp_path: Path, fake_api: str) -> None:
    env = _env(tmp_path, GOUJI_DISCORD_TOKEN="wrong")
    code, err, _ = _run([sys.executable, "-c", DISCORD_AT, fake_api], env, tmp_path)
    assert code != 0
    line = _one_line(err)
    assert "Discord" in line and "GOUJI_DISCORD_TOKEN" in line
    assert "wrong" not in line


def test_discord_unreachable(tmp_path: Path, closed_port: str) -> None:
    env = _env(tmp_path, GOUJI_DISCORD_TOKEN="abc")
    code, err, _ = _run([sys.executable, "-c", DISCORD_AT, closed_port], env, tmp_path)
    assert code != 0
    assert "Discord" in _one_line(err)


def test_database_cannot_be_opened(tmp_path: Path, fake_api: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = _env(tmp_path, GOUJI_TELEGRAM_TOKEN="123:abc", GOUJI_TELEGRAM_API_URL=fake_api)
    env["GOUJI_DB"] = str(blocker / "gouji.sqlite3")
    code, err, _ = _run([sys.executable, "-m", "adapters.main"], env, tmp_path)
    assert code != 0
    line = _one_line(err)
    assert "database" in line and str(blocker) in line


def test_database_password_is_not_printed() -> None:
    from bot.service import safe_target

    url = "postgresql://gouji:s3cret@db.example:5432/gouji"
    assert safe_target(url) == "postgresql://gouji:***@db.example:5432/gouji"
    assert safe_target("/var/lib/gouji.sqlite3") == "/var/lib/gouji.sqlite3"
