"""The SQLite store: migrations, settings, live tables, finished hands, leaderboard."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store, default_db_path
from bot.store.migrations import MIGRATIONS


async def test_migrations_are_versioned_and_idempotent(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    store = Store(db)
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.migrate() == len(MIGRATIONS)  # running again changes nothing
    await store.close()
    again = Store(db)
    await again.open()
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_settings_tables_and_actions_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path / "b.sqlite3")
    await store.open()
    assert await store.load_settings("tg:1") is None
    await store.save_settings("tg:1", {"preset": "qingdao"})
    await store.save_settings("tg:1", {"preset": "match", "lang": "en"})
    assert await store.load_settings("tg:1") == {"preset": "match", "lang": "en"}
    await store.save_table("tg:1:", {"v": 1}, True, [(1, 0, 3, {"do": "pass"})])
    await store.save_table("tg:1:", {"v": 2}, True, [(1, 1, 4, {"do": "play", "cards": "55"})])
    await store.save_table("tg:2:", {"v": 9}, False)
    assert await store.live_tables() == [("tg:1:", {"v": 2})]
    assert await store.load_actions("tg:1:", 1) == [
        (3, {"do": "pass"}),
        (4, {"do": "play", "cards": "55"}),
    ]
    assert await store.load_actions("tg:1:", 2) == []
    await store.close()


async def test_finished_hands_and_leaderboard(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    await store.open()
    await store.record_hand("g", "g:", 1, {"places": [1]}, [("a", "甲", 1, 4), ("b", "乙", 6, -4)])
    await store.record_hand("g", "g:", 2, {"places": [2]}, [("a", "甲", 6, -4), ("b", "乙2", 1, 4)])
    await store.record_hand("g", "g:", 3, {"places": [3]}, [("a", "甲", 1, 4)])
    board = await store.leaderboard("g")
    assert [(p.user_id, p.hands, p.firsts, p.lasts, p.points) for p in board] == [
        ("a", 3, 2, 1, 4),
        ("b", 2, 1, 1, 0),
    ]
    assert board[1].name == "乙2"
    assert await store.leaderboard("other") == []
    assert len(await store.finished_hands("g")) == 3
    player = await store.player("g", "b")
    assert player is not None and player.points == 0
    await store.close()


def test_db_path_comes_from_the_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GOUJI_DB", "/tmp/x.sqlite3")
    assert default_db_path() == "/tmp/x.sqlite3"
    monkeypatch.delenv("GOUJI_DB")
    assert default_db_path() == "gouji.sqlite3"
