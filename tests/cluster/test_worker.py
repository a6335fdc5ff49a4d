"""``gouji --shards K/N`` and the worker's name."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest

from adapters.main import main
from bot.cluster import ShardsError, parse_shards
from bot.service import start_health
from bot.store import Store
from bot.table import TableManager


def test_shards_parse_as_k_of_n() -> None:
    assert parse_shards("0/1") == (0, 1)
    assert parse_shards("2/3") == (2, 3)
    for bad in ("3/3", "-1/3", "1", "a/b", "1/2/3", ""):
        with pytest.raises(ShardsError):
            parse_shards(bad)


def test_a_bad_shards_value_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOUJI_DISCORD_TOKEN", "secret")
    assert main(["--shards", "4/3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gouji: --shards 4/3") and err.count("\n") == 1


async def test_the_service_serves_health_when_a_port_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    store = Store(tmp_path / "h.sqlite3")
    await store.open()
    manager = TableManager(store=store)
    monkeypatch.delenv("GOUJI_HEALTH_PORT", raising=False)
    assert await start_health(manager, store) is None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    monkeypatch.setenv("GOUJI_HEALTH_PORT", str(port))
    monkeypatch.setenv("GOUJI_HEALTH_HOST", "127.0.0.1")
    monkeypatch.setenv("GOUJI_WORKER_ID", "w-health")
    server = await start_health(manager, store)
    assert server is not None
    try:
        url = f"http://127.0.0.1:{port}/health"
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            body = await resp.json()
            assert resp.status == 200
        assert body["worker"] == "w-health" and body["store"] == "sqlite" and body["ok"]
        await store.close()  # the database is gone: the worker says so
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            assert resp.status == 503
    finally:
        await server.stop()


def test_the_bot_wide_call_rate_is_a_setting_for_several_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GOUJI_TELEGRAM_CALLS_PER_SECOND (default 30) is PTB's limiter's rate; the
    workers of a cluster share it through the database (tests/store/test_rate_bucket.py)."""
    from adapters.main import build_bots
    from adapters.telegram.app import telegram_rate

    assert telegram_rate(None) == telegram_rate(" ") == 30
    assert telegram_rate("10") == 10 and telegram_rate("7.5") == 7.5
    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("GOUJI_TELEGRAM_CALLS_PER_SECOND", "10")
    (bot,) = build_bots(TableManager())
    limiter = bot.app.bot.rate_limiter  # type: ignore[attr-defined]
    assert limiter._base_limiter.max_rate == 10  # PTB's bot-wide limiter


@pytest.mark.parametrize("bad", ["ten", "0", "0.5", "-3", "nan", "1e9"])
def test_a_bad_call_rate_is_one_line_and_nothing_starts(
    bad: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("GOUJI_TELEGRAM_CALLS_PER_SECOND", bad)
    monkeypatch.setenv("GOUJI_DB", str(tmp_path / "g.sqlite3"))
    monkeypatch.delenv("GOUJI_DATABASE_URL", raising=False)
    assert main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gouji: GOUJI_TELEGRAM_CALLS_PER_SECOND must be") and err.count("\n") == 1
    assert repr(bad) in err
