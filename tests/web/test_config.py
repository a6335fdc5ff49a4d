"""The web table's settings: unset changes nothing, a plain-http public URL is refused
(Telegram opens Mini Apps over https only) except on loopback, and a bad one stops the
start with one line and exit code 1, like the other settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.web.config import WebConfig
from bot.service import StartupError

TG = {"GOUJI_TELEGRAM_TOKEN": "123:abc"}


def test_unset_means_no_web_table() -> None:
    assert WebConfig.from_env(TG) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://gouji.example.org",
        "https://x.org/gouji/",
        "http://127.0.0.1:8088",
        "http://localhost",
    ],
)
def test_allowed_urls(url: str) -> None:
    config = WebConfig.from_env({**TG, "GOUJI_WEB_URL": url})
    assert config is not None and not config.base_url.endswith("/")
    assert config.app_url("tg:-5:").startswith(config.base_url + "/app?t=tg%3A-5%3A")


@pytest.mark.parametrize(
    "url", ["http://gouji.example.org", "ftp://x", "gouji.example.org", "https://"]
)
def test_refused_urls(url: str) -> None:
    with pytest.raises(StartupError, match="GOUJI_WEB_URL"):
        WebConfig.from_env({**TG, "GOUJI_WEB_URL": url})


def test_bad_port() -> None:
    with pytest.raises(StartupError, match="GOUJI_WEB_PORT"):
        WebConfig.from_env({**TG, "GOUJI_WEB_URL": "https://x.org", "GOUJI_WEB_PORT": "http"})


def test_links_are_signed_with_the_shared_secret() -> None:
    a = WebConfig.from_env({**TG, "GOUJI_WEB_URL": "https://x.org", "GOUJI_WEB_SECRET": "k1"})
    b = WebConfig.from_env({**TG, "GOUJI_WEB_URL": "https://x.org", "GOUJI_WEB_SECRET": "k1"})
    c = WebConfig.from_env({**TG, "GOUJI_WEB_URL": "https://x.org"})
    assert a and b and c
    # Two workers with one secret make the same link; without one, the tokens decide.
    assert a.seat_url("dc:1:", "7", now=1e9) == b.seat_url("dc:1:", "7", now=1e9)
    assert a.seat_url("dc:1:", "7", now=1e9) != c.seat_url("dc:1:", "7", now=1e9)


def test_plain_http_stops_the_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOUJI_")}
    env.update(
        GOUJI_DB=str(tmp_path / "g.sqlite3"),
        GOUJI_TELEGRAM_TOKEN="123:abc",
        GOUJI_TELEGRAM_API_URL="http://127.0.0.1:9",
        GOUJI_WEB_URL="http://gouji.example.org",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "adapters.main"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 1 and len(lines) == 1, proc.stderr
    assert "GOUJI_WEB_URL" in lines[0] and "https" in lines[0]
