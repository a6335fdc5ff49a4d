"""``gouji --shards K/N`` and the worker's name."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.cluster import ShardsError, parse_shards


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
