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
