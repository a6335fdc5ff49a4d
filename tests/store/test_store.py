"""The store on both back ends: migrations, settings, live tables, finished hands,
leaderboard, and one transaction per step."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

import pytest

from bot.store import (
    HandWrite,
    Store,
    StoredTable,
    TableWrite,
    default_db_path,
    default_store_target,
    is_postgres_url,
    outbox_key,
)
from bot.store.backend import Dialect
from bot.store.migrations import POSTGRES, SQLITE


async def test_migrations_are_versioned_and_idempotent(store_target: str) -> None:
    store = Store(store_target)
    await store.open()
    assert await store.schema_version() == len(SQLITE) == len(POSTGRES)
    assert await store.migrate() == len(SQLITE)  # running again changes nothing
    await store.save_settings("g", {"a": 1})
    await store.close()
    again = Store(store_target)
    await again.open()
    assert await again.schema_version() == len(SQLITE)
    assert await again.load_settings("g") == {"a": 1}
    await again.close()


# The text of every released step, filled in per back end. A step already applied to a
# database must never change meaning; a new step is a new entry (and a new line here).
RELEASED = {
    "sqlite": [
        *("75b93c7abee3dc58", "e15ff710058f8d7f", "6fda03afb53a4665", "02829e95b8745b96"),
        "3db3956881335cf5",
        "2bc398feee5acbf1",
    ],
    "postgres": [
        *("51cdced06027ccf5", "73875ccbc26afd0a", "6fda03afb53a4665", "02829e95b8745b96"),
        "5444123f9570a37f",
        "56697a380c581148",
    ],
}


def test_released_migration_steps_never_change() -> None:
    def digests(steps: tuple[str, ...]) -> list[str]:
        return [hashlib.sha256(step.encode()).hexdigest()[:16] for step in steps]

    assert digests(SQLITE)[: len(RELEASED["sqlite"])] == RELEASED["sqlite"]
    assert digests(POSTGRES)[: len(RELEASED["postgres"])] == RELEASED["postgres"]
    # The same tables and indexes in step: the back ends differ only in the column types
    # and in PostgreSQL's functions (which save round trips SQLite does not make).
    for lite, pg in zip(SQLITE, POSTGRES, strict=True):
        for made in ("CREATE TABLE", "CREATE INDEX", "ALTER TABLE"):
            assert lite.count(made) == pg.count(made)
        assert "FUNCTION" not in lite


def test_the_target_picks_the_back_end(tmp_path: Path) -> None:
    assert Store(tmp_path / "x.sqlite3").dialect is Dialect.SQLITE
    assert Store("postgresql://u@127.0.0.1:1/db").dialect is Dialect.POSTGRES
    assert Store("postgres://u@127.0.0.1:1/db").dialect is Dialect.POSTGRES
    assert is_postgres_url("postgresql://x") and not is_postgres_url("/var/lib/pg.sqlite3")


async def test_a_version_1_sqlite_file_is_upgraded_in_place(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as conn:  # as the first release left it
        conn.executescript(SQLITE[0])
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO tables (table_key, record, live) VALUES ('k', '{\"v\": 1}', 1)")
    store = Store(db)
    await store.open()
    assert await store.schema_version() == len(SQLITE)
    assert await store.live_tables() == [("k", {"v": 1})]
    async with store.transaction() as tx:
        loaded = await tx.lock_table("k")
    assert loaded is not None and loaded.version == 0 and loaded.live
    await store.close()


async def test_settings_tables_and_actions_round_trip(store: Store) -> None:
    assert await store.load_settings("tg:1") is None
    await store.save_settings("tg:1", {"preset": "qingdao"})
    await store.save_settings("tg:1", {"preset": "match", "lang": "en"})
    assert await store.load_settings("tg:1") == {"preset": "match", "lang": "en"}
    assert await store.save_table("tg:1:", {"v": 1}, True, [(1, 0, 3, {"do": "pass"})]) == 1
    assert (
        await store.save_table("tg:1:", {"v": 2}, True, [(1, 1, 4, {"do": "play", "cards": "55"})])
        == 2
    )
    await store.save_table("tg:2:", {"v": 9}, False)
    assert await store.live_tables() == [("tg:1:", {"v": 2})]
    assert await store.live_table("tg:1:") == {"v": 2}
    assert await store.live_table("tg:2:") is None  # finished
    assert await store.live_table("tg:3:") is None  # never was
    assert await store.load_actions("tg:1:", 1) == [
        (3, {"do": "pass"}),
        (4, {"do": "play", "cards": "55"}),
    ]
    assert await store.load_actions("tg:1:", 2) == []
    await store.drop_actions("tg:1:", 1)
    assert len(await store.load_actions("tg:1:", 1)) == 2  # deal 1 is not before deal 1
    await store.drop_actions("tg:1:")
    assert await store.load_actions("tg:1:", 1) == []


async def test_finished_hands_and_leaderboard(store: Store) -> None:
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
    assert [h["places"] for h in await store.finished_hands("g")] == [[1], [2], [3]]
    player = await store.player("g", "b")
    assert player is not None and player.points == 0
    assert await store.player("g", "nobody") is None


def _step(deal: int, status: str, hand: bool, **kw: object) -> TableWrite:
    hands = (HandWrite("g", deal, {"deal_no": deal}, (("u", "名", 1, 3),)),) if hand else ()
    return TableWrite(
        "g:",
        {"status": status, "deal_no": deal},
        True,
        new_actions=((deal, 0, 1, {"do": "pass"}),),
        hands=hands,
        **kw,  # type: ignore[arg-type]
    )


class Crash(Exception):
    pass


@pytest.mark.parametrize(
    "point", ["settings", "drop_actions", "table", "actions", "hand", "commit"]
)
async def test_a_step_commits_whole_or_not_at_all(store: Store, point: str) -> None:
    """A failure at any point inside a step leaves the previous step, entire."""
    await store.save_step(_step(1, "playing", hand=False))

    def fail(at: str) -> None:
        if at == point:
            raise Crash(at)

    store.fault_hook = fail
    with pytest.raises(Crash):
        await store.save_step(
            _step(2, "between", hand=True, drop_actions_before=2, settings=("g", {"x": 1}))
        )
    store.fault_hook = None
    async with store.transaction(readonly=True) as tx:
        row = await tx.load_table("g:")
    assert row is not None and row.record == {"status": "playing", "deal_no": 1}
    assert row.version == 1
    assert await store.load_actions("g:", 1) == [(1, {"do": "pass"})]
    assert await store.load_actions("g:", 2) == []
    assert await store.finished_hands("g") == []
    assert await store.leaderboard("g") == []
    assert await store.load_settings("g") is None
    # ... and the store goes on working
    await store.save_step(_step(2, "between", hand=True, drop_actions_before=2))
    assert await store.load_actions("g:", 1) == []
    assert [p.hands for p in await store.leaderboard("g")] == [1]


async def test_a_new_table_drops_every_older_log(store: Store) -> None:
    await store.save_step(_step(3, "playing", hand=False))
    await store.save_step(_step(1, "playing", hand=False, drop_all_actions=True))
    assert await store.load_actions("g:", 3) == []
    assert await store.load_actions("g:", 1) == [(1, {"do": "pass"})]


async def test_a_step_writes_its_deadline_and_messages_with_it(store: Store) -> None:
    """Everything a command writes in one step (PostgreSQL: one statement): the row, the
    actions, a finished hand with the stats it adds, the deadline row, the messages under
    keys of the new version — the same on both back ends."""
    await store.save_step(_step(1, "playing", hand=False, deadline=("turn", 50.0)))
    messages = (("Notice", {"n": 1}), ("TableChanged", {"n": 2}))
    version = await store.save_step(
        _step(1, "between", hand=True, deadline=("", None), messages=messages, queued=7.0)
    )
    assert version == 2
    async with store.transaction(readonly=True) as tx:
        assert await tx.deadline("g:") is None
        waiting = await tx.unsent("g:")
    assert [(m.msg_key, m.kind, m.payload) for m in waiting] == [
        (outbox_key("g:", 2, 0), "Notice", {"n": 1}),
        (outbox_key("g:", 2, 1), "TableChanged", {"n": 2}),
    ]
    assert outbox_key("g:", 2, 1) == "g:#2.1"
    assert [(p.user_id, p.hands, p.firsts, p.points) for p in await store.leaderboard("g")] == [
        ("u", 1, 1, 3)
    ]
    assert [h["deal_no"] for h in await store.finished_hands("g")] == [1]
    # A step with no deadline to set leaves the row alone; the same step again (same
    # version) would not queue its messages twice.
    await store.save_step(_step(1, "between", hand=False, deadline=("warn", 9.5)))
    await store.save_step(_step(1, "between", hand=False))
    async with store.transaction(readonly=True) as tx:
        due = await tx.deadline("g:")
        assert due is not None and (due.kind, due.due) == ("warn", 9.5)
        assert await tx.table_version("g:") == 4


async def test_a_command_waiting_for_the_lock_reads_what_the_holder_committed(
    store: Store,
) -> None:
    """The read that follows the table's lock sees the commit of the transaction that held
    it (on PostgreSQL the lock and the read are one statement: the read must not use a
    snapshot taken before the lock was granted)."""
    await store.save_step(TableWrite("k", {"n": 1}, True))
    await store.save_settings("g", {"s": 1})
    holding = asyncio.Event()

    async def holder() -> None:
        async with store.transaction() as tx:
            await tx.lock_table_and_settings("k", "g")
            holding.set()
            if store.dialect is Dialect.POSTGRES:
                await _until_someone_waits(store)
            await tx.write(TableWrite("k", {"n": 2}, True, settings=("g", {"s": 2})))

    async def waiter() -> tuple[StoredTable | None, dict[str, object] | None]:
        await holding.wait()
        async with store.transaction() as tx:
            return await tx.lock_table_and_settings("k", "g")

    _, (row, settings) = await asyncio.gather(holder(), waiter())
    assert row is not None and (row.record, row.version) == ({"n": 2}, 2)
    assert settings == {"s": 2}


async def _until_someone_waits(store: Store) -> None:
    """Until another transaction waits for an advisory lock."""
    for _ in range(500):
        async with store.transaction(readonly=True) as tx:
            row = await tx.tx.fetchone(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )
        if row is not None and int(row[0]) > 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("nobody waited for the lock")


def test_the_database_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOUJI_DATABASE_URL", raising=False)
    monkeypatch.setenv("GOUJI_DB", "/tmp/x.sqlite3")
    assert default_db_path() == "/tmp/x.sqlite3"
    assert default_store_target() == "/tmp/x.sqlite3"
    monkeypatch.setenv("GOUJI_DATABASE_URL", "postgresql://bot@db/gouji")
    assert default_store_target() == "postgresql://bot@db/gouji"
    monkeypatch.delenv("GOUJI_DATABASE_URL")
    monkeypatch.delenv("GOUJI_DB")
    assert default_db_path() == "gouji.sqlite3"
    assert default_store_target() == "gouji.sqlite3"
