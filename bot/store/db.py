"""The bot's database: group settings, live tables, finished hands, stats — and, for
several workers, table locks, deadline rows and the outbox.

``Store(target)`` is SQLite for a file path (the default) and PostgreSQL for a
``postgresql://`` URL; the queries below are one text for both back ends. Every step of
persistence is one transaction (``save_step``), so a crash at any instant leaves either
the whole step or none of it.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .backend import Backend, Dialect, Lane, Row, Tx
from .leases import lease_sql

DB_ENV = "GOUJI_DB"
DATABASE_URL_ENV = "GOUJI_DATABASE_URL"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
TABLES_CHANNEL = "gouji_tables"  # NOTIFY: "<version> <table key>" at each commit
META_CHANNEL = "gouji_meta"  # NOTIFY: JSON [table key, name, value] at each commit
# NOTIFY payloads must stay under 8000 bytes; a larger value is announced without it.
META_PAYLOAD_MAX = 7000

# (deal_no, idx, seat, action as JSON)
ActionRow = tuple[int, int, int, dict[str, Any]]
# (user_id, name, place, points) of each human at a finished hand
PlayerRow = tuple[str, str, int, int]
# (holder, token) of a chat's lease: a write fenced by it happens only while it is current
Fence = tuple[str, int]


@dataclass(frozen=True)
class Batch:
    """A relay's next claim: the messages just sent (outbox id, the platform's answer),
    the chats whose waiting messages to claim, how many at most, and whether to keep the
    lease even when none is waiting (more was asked for meanwhile)."""

    settled: Sequence[tuple[int, dict[str, Any]]]
    chats: Sequence[str]
    limit: int
    keep: bool
    # The lease's end when nothing is left to send: -1 lets it go now; a time ahead keeps
    # it idle until then (the relay's ``linger``), so this holder goes on sending the
    # chat's next messages and no other worker takes it over meanwhile.
    idle_until: float = -1.0
    # Messages this holder handed over and is still sending (table edits paced by the
    # group's budget): not claimed again.
    skip: Sequence[int] = ()


# An outbox message's end: sent, or dropped (its adapter shed it: never sent, never retried)
Done = Literal["sent", "dropped"]
# Still to send: neither state above (two terms, so the partial index on unsent rows,
# ``state <> 'sent'``, still serves the queries)
_WAITING = "state <> 'sent' AND state <> 'dropped'"
# Called with the name of each point inside a step's transaction (tests kill the process
# there to prove a crash loses nothing).
FaultHook = Callable[[str], None]


def default_db_path() -> str:
    """``$GOUJI_DB`` or ``gouji.sqlite3`` in the working directory."""
    return os.environ.get(DB_ENV, "gouji.sqlite3")


def default_store_target() -> str:
    """``$GOUJI_DATABASE_URL`` (PostgreSQL) if set, else the SQLite file."""
    return os.environ.get(DATABASE_URL_ENV) or default_db_path()


def is_postgres_url(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: str
    name: str
    hands: int
    firsts: int
    lasts: int
    points: int


@dataclass(frozen=True, slots=True)
class HandWrite:
    """A finished hand and what it adds to each human's stats."""

    group_key: str
    deal_no: int
    record: dict[str, Any]
    players: tuple[PlayerRow, ...]


@dataclass(frozen=True, slots=True)
class TableWrite:
    """Everything one step of a table changes, committed as one transaction."""

    table_key: str
    record: dict[str, Any]
    live: bool
    updated: float = 0.0
    new_actions: tuple[ActionRow, ...] = ()
    drop_all_actions: bool = False  # a new table at this chat: older logs are void
    drop_actions_before: int | None = None  # a new deal: earlier deals' logs are done
    hands: tuple[HandWrite, ...] = ()
    settings: tuple[str, dict[str, Any]] | None = None  # (group_key, settings)
    notify: bool = False  # tell the other workers the table's new version at the commit
    # The table's one deadline row after the step: (kind, due), due None for none; None
    # leaves the row as it is (one process keeps its timers in memory).
    deadline: tuple[str, float | None] | None = None
    # What the step causes to be sent, (kind, payload) in order, queued in the outbox of
    # the table's chat under ``outbox_key(table, new version, i)``, at ``queued``.
    messages: tuple[tuple[str, dict[str, Any]], ...] = ()
    queued: float = 0.0
    players: tuple[str, ...] | None = None  # the seated users, when they changed


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_key: str
    record: dict[str, Any]
    live: bool
    version: int


@dataclass(frozen=True, slots=True)
class ActionsSince:
    """A deal's logged actions from the ``start``-th on, read with the table's row."""

    deal_no: int
    start: int
    actions: tuple[tuple[int, dict[str, Any]], ...]


@dataclass(frozen=True, slots=True)
class Deadline:
    table_key: str
    kind: str
    due: float


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    id: int
    chat_key: str
    msg_key: str
    kind: str
    payload: dict[str, Any]
    attempts: int  # > 0: an earlier sender may have sent it before it died
    state: str
    created: float = 0.0  # when it was queued (wall-clock seconds)


def outbox_key(table_key: str, version: int, index: int) -> str:
    """A message's identity: the ``index``-th output of the step that wrote ``version``
    (a step is written once per version, so a repeated step does not queue twice)."""
    return f"{table_key}#{version}.{index}"


# An outbox message's columns, as ``_message`` reads them.
_MESSAGE = "id, chat_key, msg_key, kind, payload, attempts, state, created"

# Become (or stay) a chat's sender: see ``StoreTx.acquire_lease``; ``_acquiring`` gives
# its arguments.
_ACQUIRE = (
    "INSERT INTO chat_leases (chat_key, holder, until, token) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (chat_key) DO UPDATE SET holder = excluded.holder, "
    "until = excluded.until, token = CASE WHEN chat_leases.holder = excluded.holder "
    "AND chat_leases.until >= ? THEN chat_leases.token ELSE chat_leases.token + 1 END "
    "WHERE chat_leases.until < ? OR chat_leases.holder = excluded.holder "
    "RETURNING token"
)


def _acquiring(chat_key: str, holder: str, now: float, ttl: float) -> tuple[Any, ...]:
    return (chat_key, holder, float(now + ttl), float(now), float(now))


def _settle_and_claim() -> str:
    """PostgreSQL's ``StoreTx.settle_and_claim`` in one statement: the lease's row locked
    (only this holder's, with this token), the settled messages marked sent, the next
    waiting ones claimed (not those just marked: one statement sees the table as it
    was), the lease kept or let go; one row per claimed message with the token (one with
    NULLs if none; none at all if the lease is lost)."""
    returned = _MESSAGE.replace("attempts", "attempts - 1")
    return (
        "WITH lease AS (SELECT token FROM chat_leases WHERE chat_key = ? AND holder = ? "
        "AND token = ? FOR UPDATE), marked AS (UPDATE outbox SET state = 'sent', sent = ?, "
        "result = m.result FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[])) AS m (id, "
        f"result) WHERE outbox.id = m.id AND {_WAITING} AND EXISTS (SELECT 1 FROM lease) "
        "RETURNING outbox.id), claimed AS (UPDATE outbox SET state = 'sending', "
        "attempts = attempts + 1 WHERE EXISTS (SELECT 1 FROM lease) AND id IN ("
        "SELECT id FROM outbox WHERE chat_key = ANY(CAST(? AS TEXT[])) "
        f"AND {_WAITING} AND NOT (id = ANY(CAST(? AS BIGINT[]))) ORDER BY id LIMIT ?) "
        f"RETURNING {returned}), kept AS (UPDATE chat_leases SET until = CASE WHEN ? OR "
        "EXISTS (SELECT 1 FROM claimed) THEN CAST(? AS DOUBLE PRECISION) "
        "ELSE CAST(? AS DOUBLE PRECISION) END WHERE chat_key = ? AND "
        "token = (SELECT token FROM lease) RETURNING token) "
        "SELECT kept.token, claimed.* FROM kept LEFT JOIN claimed ON true"
    )


_SETTLE_AND_CLAIM = _settle_and_claim()


def _message(r: Row) -> OutboxMessage:
    return OutboxMessage(
        int(r[0]), str(r[1]), str(r[2]), str(r[3]), _loads(r[4]), int(r[5]), str(r[6]), float(r[7])
    )


def _keys(chat_key: str | Sequence[str]) -> list[str]:
    return [chat_key] if isinstance(chat_key, str) else list(chat_key)


def _loads(raw: str) -> Any:
    return json.loads(raw)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _meta_payload(table_key: str, name: str, value: Any) -> str:
    """The NOTIFY that carries an adapter's value to the other workers."""
    payload = _dumps([table_key, name, value])
    if len(payload.encode()) > META_PAYLOAD_MAX:
        payload = _dumps([table_key, name])  # listeners read it from the row
    return payload


def _points_of(w: TableWrite) -> list[str]:
    """The fault points a step passes, in order (the crash tests kill a process at each)."""
    points = ["settings"] if w.settings is not None else []
    if w.drop_all_actions or w.drop_actions_before is not None:
        points.append("drop_actions")
    points.append("table")
    if w.new_actions:
        points.append("actions")
    return points + ["hand"] * len(w.hands)


# The parameter markers of ``gouji_write_step``'s call (``StoreTx._step_args``).
_STEP_ARGS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS JSONB), ?, ?, ?, ?, ?, ?"
# What a step was computed from besides the table: its group and that group's settings
# as stored (None: none stored), for ``StoreTx.write_if``.
Seen = tuple[str, dict[str, Any] | None]

# A table's row and its deal's actions from an index on, in one statement (``load_table_since``).
_TABLE_SINCE = (
    "SELECT t.record, t.live, t.version, a.idxs, a.seats, a.acts FROM tables t, LATERAL ("
    "SELECT array_agg(idx ORDER BY idx) AS idxs, array_agg(seat ORDER BY idx) AS seats, "
    "array_agg(action ORDER BY idx) AS acts FROM actions "
    "WHERE table_key = t.table_key AND deal_no = ? AND idx >= ?) a WHERE t.table_key = ?"
)


class StoreTx:
    """The store's queries inside one open transaction."""

    def __init__(self, tx: Tx, fault: FaultHook | None = None) -> None:
        self.tx = tx
        self._fault = fault

    def fault(self, point: str) -> None:
        if self._fault is not None:
            self._fault(point)

    # -- settings -----------------------------------------------------------------------
    async def load_settings(self, group_key: str) -> dict[str, Any] | None:
        row = await self.tx.fetchone(
            "SELECT settings FROM group_settings WHERE group_key = ?", group_key
        )
        return _loads(row[0]) if row else None

    async def save_settings(self, group_key: str, settings: dict[str, Any]) -> None:
        await self.tx.execute(
            "INSERT INTO group_settings (group_key, settings) VALUES (?, ?) "
            "ON CONFLICT (group_key) DO UPDATE SET settings = excluded.settings",
            group_key,
            _dumps(settings),
        )

    # -- tables and their action logs ---------------------------------------------------
    async def write(self, w: TableWrite) -> int:
        """One step of a table: settings, log housekeeping, the table row, new actions,
        finished hands with their stats, its deadline row and its messages — all in this
        transaction. Returns the row's new version.

        PostgreSQL does it in one statement (``gouji_write_step``, migration 5): one round
        trip instead of one per part; the fault points then all come after it, still
        inside the transaction. SQLite, with no round trips, runs the parts one by one."""
        if self.tx.dialect is Dialect.POSTGRES:
            version = await self._write_at_once(w)
            if w.players is not None:  # seats changed: rare (a join, a leave, the end)
                await self.set_players(w.table_key, w.players if w.live else ())
            for point in _points_of(w):
                self.fault(point)
            return version
        return await self._write_each(w)

    async def write_if(self, w: TableWrite, expected: int, seen: Seen) -> int | None:
        """``write``, only if the table is still at version ``expected`` and its group's
        settings are still ``seen`` — checked under the table's lock, in the same
        statement as the write on PostgreSQL (``gouji_write_step_if``, migration 7), so a
        worker may run a command on its current copy with no transaction open and commit
        it in one round trip; SQLite checks and writes part by part in its transaction.
        Returns the new version, or None (nothing written: another worker changed the
        table or the settings; run it again under the lock).

        A statement commits whole or not at all, so the fault points (where the crash
        tests kill a process before the commit, ``commit`` the last) all come before it."""
        if self.tx.dialect is not Dialect.POSTGRES:
            return await self._write_if_each(w, expected, seen)
        for point in [*_points_of(w), "commit"]:
            self.fault(point)
        group, settings = seen
        players = w.players if w.live else ()
        row = await self.tx.fetchone(
            "SELECT gouji_write_step_if(?, ?, ?, ?, ?, " + _STEP_ARGS + ")",
            expected,
            group,
            None if settings is None else _dumps(settings),
            w.players is not None,
            list(players or ()),
            *self._step_args(w),
        )
        assert row is not None
        return None if row[0] is None else int(row[0])

    async def _write_if_each(self, w: TableWrite, expected: int, seen: Seen) -> int | None:
        """SQLite's ``write_if``: the check and the parts one by one, in the caller's
        transaction under the table's lock (the file's write lock)."""
        row, settings = await self.lock_table_and_settings(w.table_key, seen[0])
        if (None if row is None else row.version) != expected or settings != seen[1]:
            return None
        return await self._write_each(w)

    async def _write_each(self, w: TableWrite) -> int:
        if w.settings is not None:
            await self.save_settings(*w.settings)
            self.fault("settings")
        if w.drop_all_actions:
            await self.drop_actions(w.table_key)
            self.fault("drop_actions")
        elif w.drop_actions_before is not None:
            await self.drop_actions(w.table_key, w.drop_actions_before)
            self.fault("drop_actions")
        version = await self.save_table(w.table_key, w.record, w.live, w.updated, w.notify)
        self.fault("table")
        if w.players is not None:
            await self.set_players(w.table_key, w.players if w.live else ())
        if w.new_actions:
            await self.append_actions(w.table_key, w.new_actions)
            self.fault("actions")
        for hand in w.hands:
            await self.record_hand(hand.group_key, w.table_key, hand)
            self.fault("hand")
        if w.deadline is not None:
            await self.set_deadline(w.table_key, *w.deadline)
        if w.messages:
            await self.enqueue_many(
                w.table_key,
                [
                    (outbox_key(w.table_key, version, i), kind, payload)
                    for i, (kind, payload) in enumerate(w.messages)
                ],
                w.queued,
            )
        return version

    async def _write_at_once(self, w: TableWrite) -> int:
        row = await self.tx.fetchone(
            "SELECT gouji_write_step(" + _STEP_ARGS + ")", *self._step_args(w)
        )
        assert row is not None
        return int(row[0])

    def _step_args(self, w: TableWrite) -> tuple[Any, ...]:
        """``gouji_write_step``'s arguments for ``w``."""
        group, settings = w.settings if w.settings is not None else (None, None)
        hands = [
            {
                "group": h.group_key,
                "deal": h.deal_no,
                "record": _dumps(h.record),
                "players": [list(p) for p in h.players],
            }
            for h in w.hands
        ]
        kind, due = w.deadline if w.deadline is not None else ("", None)
        return (
            w.table_key,
            _dumps(w.record),
            w.live,
            float(w.updated),
            w.notify,
            group,
            None if settings is None else _dumps(settings),
            w.drop_all_actions,
            w.drop_actions_before,
            [d for d, _, _, _ in w.new_actions],
            [i for _, i, _, _ in w.new_actions],
            [s for _, _, s, _ in w.new_actions],
            [json.dumps(a) for _, _, _, a in w.new_actions],
            _dumps(hands),
            w.deadline is not None,
            kind,
            None if due is None else float(due),
            [k for k, _ in w.messages],
            [_dumps(p) for _, p in w.messages],
            float(w.queued),
        )

    async def save_table(
        self,
        table_key: str,
        record: dict[str, Any],
        live: bool,
        updated: float = 0.0,
        notify: bool = False,
    ) -> int:
        """Write the table row; its version goes up by one with every write (1 when new),
        so a worker that holds an older copy sees it must reload. ``notify``: tell the
        other workers at the commit (``notify_table``, in the same statement)."""
        told = ""
        if notify and self.tx.dialect is Dialect.POSTGRES:
            told = f", pg_notify('{TABLES_CHANNEL}', tables.version || ' ' || tables.table_key)"
        row = await self.tx.fetchone(
            "INSERT INTO tables (table_key, record, live, version, updated) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT (table_key) DO UPDATE SET "
            "record = excluded.record, live = excluded.live, version = tables.version + 1, "
            "updated = excluded.updated RETURNING version" + told,
            table_key,
            _dumps(record),
            live,
            float(updated),
        )
        assert row is not None
        return int(row[0])

    async def append_actions(self, table_key: str, rows: Sequence[ActionRow]) -> None:
        await self.tx.executemany(
            "INSERT INTO actions (table_key, deal_no, idx, seat, action) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (table_key, deal_no, idx) DO UPDATE SET "
            "seat = excluded.seat, action = excluded.action",
            [(table_key, d, i, s, json.dumps(a)) for d, i, s, a in rows],
        )

    async def drop_actions(self, table_key: str, before_deal: int | None = None) -> None:
        """Forget logged actions of a table (all, or of deals before ``before_deal``)."""
        if before_deal is None:
            await self.tx.execute("DELETE FROM actions WHERE table_key = ?", table_key)
        else:
            await self.tx.execute(
                "DELETE FROM actions WHERE table_key = ? AND deal_no < ?", table_key, before_deal
            )

    async def lock_table(self, table_key: str) -> StoredTable | None:
        """Hold the table for the rest of this transaction, across processes, and read it.

        PostgreSQL: a transaction-level advisory lock on the key (it works before the row
        exists, so two workers cannot both create a table); SQLite: the file's write lock."""
        await self.tx.lock_key(table_key)
        return await self.load_table(table_key)

    async def lock_table_and_settings(
        self, table_key: str, group_key: str
    ) -> tuple[StoredTable | None, dict[str, Any] | None]:
        """``lock_table`` and ``load_settings`` (a command needs both; read after the
        lock, so both are as of its start). PostgreSQL takes the lock and reads in one
        round trip: a function whose read, a statement of its own, sees every commit made
        before the lock was granted."""
        if self.tx.dialect is Dialect.POSTGRES:
            # The lock and the read in one round trip (``gouji_lock_table``, migration 5).
            row = await self.tx.fetchone(
                "SELECT * FROM gouji_lock_table(?, ?)", table_key, group_key
            )
        else:
            row = await self._lock_and_read(table_key, group_key)
        assert row is not None
        table = (
            None
            if row[0] is None
            else StoredTable(table_key, _loads(row[0]), bool(row[1]), int(row[2]))
        )
        return table, None if row[3] is None else _loads(row[3])

    async def _lock_and_read(self, table_key: str, group_key: str) -> Row | None:
        await self.tx.lock_key(table_key)
        return await self.tx.fetchone(
            "SELECT t.record, t.live, t.version, s.settings "
            "FROM (SELECT CAST(? AS TEXT) AS k, CAST(? AS TEXT) AS g) q "
            "LEFT JOIN tables t ON t.table_key = q.k "
            "LEFT JOIN group_settings s ON s.group_key = q.g",
            table_key,
            group_key,
        )

    async def try_lock_table(self, table_key: str) -> bool:
        """The lock of ``lock_table`` if free now; never waits (timers use it, so they never
        wait on a table while holding a deadline row)."""
        return await self.tx.lock_key(table_key, wait=False)

    async def load_table(self, table_key: str) -> StoredTable | None:
        row = await self.tx.fetchone(
            "SELECT record, live, version FROM tables WHERE table_key = ?", table_key
        )
        if row is None:
            return None
        return StoredTable(table_key, _loads(row[0]), bool(row[1]), int(row[2]))

    async def load_table_since(
        self, table_key: str, deal_no: int, start: int
    ) -> tuple[StoredTable | None, ActionsSince | None]:
        """``load_table`` and the actions of deal ``deal_no`` from the ``start``-th on —
        what a copy holding that deal's first ``start`` actions lacks. On PostgreSQL one
        statement: one round trip where two were, and the row and its actions from one
        snapshot (two statements outside a transaction could read actions committed after
        the row). The actions are None when the row is at another deal (a new deal is
        read whole with ``load_actions``)."""
        if self.tx.dialect is Dialect.POSTGRES:
            row = await self.tx.fetchone(_TABLE_SINCE, deal_no, start, table_key)
            if row is None:
                return None, None
            idxs, seats, acts = row[3] or [], row[4] or [], row[5] or []
        else:
            row = await self.tx.fetchone(
                "SELECT record, live, version FROM tables WHERE table_key = ?", table_key
            )
            if row is None:
                return None, None
            logged = await self.tx.fetch(
                "SELECT idx, seat, action FROM actions WHERE table_key = ? AND deal_no = ? "
                "AND idx >= ? ORDER BY idx",
                table_key,
                deal_no,
                start,
            )
            idxs, seats, acts = ([r[i] for r in logged] for i in range(3))
        table = StoredTable(table_key, _loads(row[0]), bool(row[1]), int(row[2]))
        if table.record.get("deal_no") != deal_no or list(idxs) != list(
            range(start, start + len(idxs))
        ):
            return table, None
        return table, ActionsSince(
            deal_no, start, tuple((int(s), _loads(a)) for s, a in zip(seats, acts, strict=True))
        )

    async def notify_table(self, table_key: str, version: int) -> None:
        """Tell the other workers, at the commit, that this table is now at ``version``."""
        await self.tx.notify(TABLES_CHANNEL, f"{version} {table_key}")

    async def set_table_meta(self, table_key: str, name: str, value: Any) -> None:
        """Keep an adapter's value with a table (its own row: no table lock, no new table
        version) and tell the other workers at the commit."""
        raw = _dumps(value)
        await self.tx.execute(
            "INSERT INTO table_meta (table_key, name, value) VALUES (?, ?, ?) "
            "ON CONFLICT (table_key, name) DO UPDATE SET value = excluded.value",
            table_key,
            name,
            raw,
        )
        await self.tx.notify(META_CHANNEL, _meta_payload(table_key, name, value))

    async def set_table_meta_many(self, values: Sequence[tuple[str, str, Any]]) -> None:
        """``set_table_meta`` for many (table key, name, value): one statement on
        PostgreSQL (each value's NOTIFY in it), one per value on SQLite."""
        rows = [
            (key, name, _dumps(value), _meta_payload(key, name, value))
            for key, name, value in values
        ]
        if not rows:
            return
        if self.tx.dialect is not Dialect.POSTGRES:
            await self.tx.executemany(
                "INSERT INTO table_meta (table_key, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (table_key, name) DO UPDATE SET value = excluded.value",
                [row[:3] for row in rows],
            )
            return
        await self.tx.execute(
            "WITH v AS (SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
            "CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS v (k, n, value, told)), "
            "w AS (INSERT INTO table_meta (table_key, name, value) SELECT k, n, value FROM v "
            "ON CONFLICT (table_key, name) DO UPDATE SET value = excluded.value) "
            f"SELECT count(pg_notify('{META_CHANNEL}', told)) FROM v",
            *([row[i] for row in rows] for i in range(4)),
        )

    async def load_table_meta(self, table_key: str) -> dict[str, Any]:
        rows = await self.tx.fetch(
            "SELECT name, value FROM table_meta WHERE table_key = ?", table_key
        )
        return {str(n): _loads(v) for n, v in rows}

    async def table_version(self, table_key: str) -> int | None:
        row = await self.tx.fetchone("SELECT version FROM tables WHERE table_key = ?", table_key)
        return int(row[0]) if row else None

    async def live_tables(self) -> list[tuple[str, dict[str, Any]]]:
        rows = await self.tx.fetch(
            "SELECT table_key, record FROM tables WHERE live ORDER BY table_key"
        )
        return [(str(k), _loads(r)) for k, r in rows]

    async def load_actions(
        self, table_key: str, deal_no: int, start: int = 0
    ) -> list[tuple[int, dict[str, Any]]]:
        """The deal's logged actions, from the ``start``-th on (a worker that holds the
        first ones already reads only the rest)."""
        rows = await self.tx.fetch(
            "SELECT seat, action FROM actions WHERE table_key = ? AND deal_no = ? AND idx >= ? "
            "ORDER BY idx",
            table_key,
            deal_no,
            start,
        )
        return [(int(s), _loads(a)) for s, a in rows]

    # -- who sits where ------------------------------------------------------------------
    async def set_players(self, table_key: str, users: Sequence[str]) -> None:
        """The users seated at a live table (none: it ended)."""
        await self.tx.execute("DELETE FROM table_players WHERE table_key = ?", table_key)
        await self.add_players([(u, table_key) for u in users])

    async def add_players(self, pairs: Sequence[tuple[str, str]]) -> None:
        """(user, table) rows, kept if already there."""
        if pairs:
            await self.tx.executemany(
                "INSERT INTO table_players (user_id, table_key) VALUES (?, ?) "
                "ON CONFLICT (user_id, table_key) DO NOTHING",
                list(pairs),
            )

    async def tables_of(self, user_id: str, prefix: str = "") -> list[str]:
        """The live tables where this user has a seat (keys starting with ``prefix``)."""
        rows = await self.tx.fetch(
            "SELECT p.table_key FROM table_players p JOIN tables t ON t.table_key = p.table_key "
            "WHERE p.user_id = ? AND substr(p.table_key, 1, ?) = ? AND t.live "
            "ORDER BY p.table_key",
            user_id,
            len(prefix),
            prefix,
        )
        return [str(r[0]) for r in rows]

    # -- interactive messages' state ----------------------------------------------------
    async def keep_interaction(
        self, key: str, kind: str, value: dict[str, Any], expires: float, now: float
    ) -> None:
        """The state behind an interactive message, until ``expires`` (wall seconds);
        the expired ones go at the same time."""
        await self.tx.execute("DELETE FROM interactions WHERE expires < ?", float(now))
        await self.tx.execute(
            "INSERT INTO interactions (key, kind, value, step, expires) VALUES (?, ?, ?, 0, ?) "
            "ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, value = excluded.value, "
            "step = 0, expires = excluded.expires",
            key,
            kind,
            _dumps(value),
            float(expires),
        )

    async def interaction(
        self, key: str, kind: str, now: float
    ) -> tuple[dict[str, Any], int] | None:
        """(value, step) of an interactive message not yet expired."""
        row = await self.tx.fetchone(
            "SELECT value, step FROM interactions WHERE key = ? AND kind = ? AND expires >= ?",
            key,
            kind,
            float(now),
        )
        return (_loads(row[0]), int(row[1])) if row else None

    async def move_interaction(self, key: str, shown: int, to: int, now: float) -> bool:
        """Move an interactive message from step ``shown`` to ``to``; False if it is not
        at ``shown`` any more (another press, on any worker, moved it first) or expired."""
        rows = await self.tx.fetch(
            "UPDATE interactions SET step = ? WHERE key = ? AND step = ? AND expires >= ? "
            "RETURNING key",
            to,
            key,
            shown,
            float(now),
        )
        return bool(rows)

    # -- finished hands and stats -------------------------------------------------------
    async def record_hand(self, group_key: str, table_key: str, hand: HandWrite) -> None:
        await self.tx.execute(
            "INSERT INTO hands (group_key, table_key, deal_no, record) VALUES (?, ?, ?, ?)",
            group_key,
            table_key,
            hand.deal_no,
            _dumps(hand.record),
        )
        if not hand.players:
            return
        await self.tx.executemany(
            "INSERT INTO player_stats (group_key, user_id, name, hands, firsts, lasts, points) "
            "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT (group_key, user_id) DO UPDATE SET "
            "name = excluded.name, hands = player_stats.hands + 1, "
            "firsts = player_stats.firsts + excluded.firsts, "
            "lasts = player_stats.lasts + excluded.lasts, "
            "points = player_stats.points + excluded.points",
            [
                (group_key, uid, name, int(place == 1), int(place == 6), points)
                for uid, name, place, points in hand.players
            ],
        )

    # -- deadlines (timers as rows) -------------------------------------------------------
    async def set_deadline(self, table_key: str, kind: str, due: float | None) -> None:
        """The table's one pending deadline (``None``: none)."""
        if due is None:
            await self.tx.execute("DELETE FROM deadlines WHERE table_key = ?", table_key)
            return
        await self.tx.execute(
            "INSERT INTO deadlines (table_key, kind, due) VALUES (?, ?, ?) "
            "ON CONFLICT (table_key) DO UPDATE SET kind = excluded.kind, due = excluded.due",
            table_key,
            kind,
            float(due),
        )

    async def deadline(self, table_key: str) -> Deadline | None:
        row = await self.tx.fetchone(
            "SELECT kind, due FROM deadlines WHERE table_key = ?", table_key
        )
        return Deadline(table_key, str(row[0]), float(row[1])) if row else None

    async def claim_due(self, now: float, skip: Sequence[str] = ()) -> Deadline | None:
        """The earliest deadline due by ``now`` that no other transaction holds, locked for
        this one (``FOR UPDATE SKIP LOCKED``): fire it and replace or clear it before the
        commit, and no other worker can fire it too; die first, and it stays for the next."""
        if not self.tx.locks_rows:
            await self.tx.lock_key("")  # SQLite: the file's write lock, held to the commit
        exclude = ""
        args: list[Any] = [float(now)]
        if skip:
            exclude = f" AND table_key NOT IN ({', '.join('?' for _ in skip)})"
            args.extend(skip)
        row = await self.tx.fetchone(
            "SELECT table_key, kind, due FROM deadlines WHERE due <= ?"
            + exclude
            + " ORDER BY due, table_key LIMIT 1"
            + self.tx.for_update(skip_locked=True),
            *args,
        )
        return Deadline(str(row[0]), str(row[1]), float(row[2])) if row else None

    async def next_due(self) -> float | None:
        row = await self.tx.fetchone("SELECT min(due) FROM deadlines")
        return float(row[0]) if row and row[0] is not None else None

    # -- outbox -------------------------------------------------------------------------
    async def enqueue(
        self, chat_key: str, msg_key: str, kind: str, payload: dict[str, Any], now: float
    ) -> bool:
        """Add a message to send; False if one with this key is already queued (a retried
        step does not queue it twice)."""
        rows = await self.tx.fetch(
            "INSERT INTO outbox (chat_key, msg_key, kind, payload, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_key) DO NOTHING RETURNING id",
            chat_key,
            msg_key,
            kind,
            _dumps(payload),
            float(now),
        )
        return bool(rows)

    async def enqueue_many(
        self, chat_key: str, messages: Sequence[tuple[str, str, dict[str, Any]]], now: float
    ) -> None:
        """``enqueue`` for a step's messages (msg_key, kind, payload), in one statement."""
        await self.tx.executemany(
            "INSERT INTO outbox (chat_key, msg_key, kind, payload, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_key) DO NOTHING",
            [(chat_key, k, kind, _dumps(p), float(now)) for k, kind, p in messages],
        )

    async def acquire_lease(self, chat_key: str, holder: str, now: float, ttl: float) -> int | None:
        """Become (or stay) the one sender of a chat until ``now + ttl``. Returns the
        lease's fencing token, or None if another holder's lease has not run out. The
        token stays the same while one holder renews in time, and goes up whenever the
        lease changes hands or lapses, so a sender that finds another token than the one
        it started with knows someone else may have sent meanwhile."""
        rows = await self.tx.fetch(_ACQUIRE, *_acquiring(chat_key, holder, now, ttl))
        return int(rows[0][0]) if rows else None

    async def take_and_claim(
        self, chat_key: str, holder: str, now: float, ttl: float, chats: Sequence[str], limit: int
    ) -> tuple[int | None, list[OutboxMessage]]:
        """``acquire_lease`` and, only if it was taken, ``claim`` — the first claim of a
        relay's pump. On PostgreSQL one statement (the claim in a data-modifying WITH
        after the lease), so it commits by itself: one round trip where BEGIN, the two
        statements and COMMIT took four. Returns the token (None: another holder) and
        the messages."""
        if self.tx.dialect is not Dialect.POSTGRES:
            token = await self.acquire_lease(chat_key, holder, now, ttl)
            return token, ([] if token is None else await self.claim(chats, limit))
        returned = _MESSAGE.replace("attempts", "attempts - 1")
        rows = await self.tx.fetch(
            f"WITH lease AS ({_ACQUIRE}), claimed AS (UPDATE outbox SET state = 'sending', "
            "attempts = attempts + 1 WHERE EXISTS (SELECT 1 FROM lease) AND id IN ("
            "SELECT id FROM outbox WHERE chat_key = ANY(CAST(? AS TEXT[])) "
            f"AND {_WAITING} ORDER BY id LIMIT ?) RETURNING {returned}) "
            "SELECT lease.token, claimed.* FROM lease LEFT JOIN claimed ON true",
            *_acquiring(chat_key, holder, now, ttl),
            list(chats),
            limit,
        )
        if not rows:
            return None, []
        found = [_message(tuple(r)[1:]) for r in rows if r[1] is not None]
        return int(rows[0][0]), sorted(found, key=lambda m: m.id)

    async def settle_and_claim(
        self,
        chat_key: str,
        fence: Fence,
        now: float,
        ttl: float,
        batch: Batch,
    ) -> tuple[int | None, list[OutboxMessage]]:
        """A relay's later claim under the lease ``fence`` (holder, token): mark the
        messages ``batch.settled`` sent, claim the next waiting ones of ``batch.chats``,
        and keep the lease for ``ttl`` if any were claimed (or ``batch.keep``), else let it
        go. Returns the lease's token (None: the lease is no longer this holder's — then
        nothing was marked or claimed) and the messages. On PostgreSQL one statement with
        the lease's row locked first, committing by itself: one round trip where BEGIN,
        three statements and COMMIT took five. SQLite runs them in the open transaction,
        renewing before it claims (there a lapsed lease taken back gets the next token)."""
        if self.tx.dialect is not Dialect.POSTGRES:
            await self.mark_sent_many(batch.settled, now, fence)  # void if not ours
            token = await self.acquire_lease(chat_key, fence[0], now, ttl)
            if token is None:
                return None, []
            waiting = await self.claim(batch.chats, batch.limit, batch.skip)
            if not waiting and not batch.keep:
                await self.release_lease(chat_key, fence[0], batch.idle_until)
            return token, waiting
        ids = [i for i, _ in batch.settled]
        rows = await self.tx.fetch(
            _SETTLE_AND_CLAIM,
            chat_key,
            fence[0],
            fence[1],
            float(now),
            ids,
            [_dumps(r) for _, r in batch.settled],
            list(batch.chats),
            [*ids, *batch.skip],
            batch.limit,
            batch.keep,
            float(now + ttl),
            float(batch.idle_until),
            chat_key,
        )
        if not rows:
            return None, []
        found = [_message(tuple(r)[1:]) for r in rows if r[1] is not None]
        return int(rows[0][0]), sorted(found, key=lambda m: m.id)

    async def release_lease(self, chat_key: str, holder: str, until: float = -1.0) -> None:
        """Let the lease lapse now (or at ``until``: held idle till then). The row stays,
        so the next holder's token is higher."""
        await self.tx.execute(
            "UPDATE chat_leases SET until = ? WHERE chat_key = ? AND holder = ?",
            float(until),
            chat_key,
            holder,
        )

    async def holds_lease(self, chat_key: str, holder: str, now: float) -> bool:
        row = await self.tx.fetchone(
            "SELECT 1 FROM chat_leases WHERE chat_key = ? AND holder = ? AND until >= ?",
            chat_key,
            holder,
            float(now),
        )
        return row is not None

    async def chats_to_send(self, now: float, limit: int = 100) -> list[str]:
        """Chats with unsent messages and no sender holding their lease (``lease_key``)."""
        return [chat for chat, _ in await self.chats_waiting(now, None, limit)]

    async def chats_waiting(
        self, now: float, holder: str | None, limit: int = 100
    ) -> list[tuple[str, bool]]:
        """Chats with unsent messages whose lease (``lease_key``) no sender holds, or
        ``holder`` does, each with whether it is ``holder``'s; the free ones first."""
        lease = lease_sql("o.chat_key", self.tx.dialect)
        rows = await self.tx.fetch(
            "SELECT o.chat_key, l.holder FROM outbox o "
            f"LEFT JOIN chat_leases l ON l.chat_key = {lease} AND l.until >= ? "
            f"WHERE {_WAITING.replace('state', 'o.state')} "
            "AND (l.holder IS NULL OR l.holder = ?) "
            "GROUP BY o.chat_key, l.holder ORDER BY l.holder IS NOT NULL, o.chat_key LIMIT ?",
            float(now),
            holder,
            limit,
        )
        return [(str(r[0]), r[1] is not None) for r in rows]

    async def unsent(self, chat_key: str | Sequence[str], limit: int = 50) -> list[OutboxMessage]:
        """A chat's unsent messages (or several chats', e.g. a forum's topics), oldest
        first."""
        keys = _keys(chat_key)
        if not keys:
            return []
        rows = await self.tx.fetch(
            f"SELECT {_MESSAGE} FROM outbox WHERE chat_key IN ({', '.join('?' * len(keys))}) "
            f"AND {_WAITING} ORDER BY id LIMIT ?",
            *keys,
            limit,
        )
        return [_message(r) for r in rows]

    async def claim(
        self, chat_key: str | Sequence[str], limit: int = 50, skip: Sequence[int] = ()
    ) -> list[OutboxMessage]:
        """``unsent`` with an attempt noted on each message (``mark_sending_many``) in the
        same statement: one round trip for the two. Each message comes back as it was
        before (its earlier attempts), oldest first. ``skip``: ids not to claim (handed
        over already and still being sent)."""
        keys = _keys(chat_key)
        if not keys:
            return []
        returned = _MESSAGE.replace("attempts", "attempts - 1")
        skipped = f" AND id NOT IN ({', '.join('?' * len(skip))})" if skip else ""
        rows = await self.tx.fetch(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id IN ("
            f"SELECT id FROM outbox WHERE chat_key IN ({', '.join('?' * len(keys))}) "
            f"AND {_WAITING}{skipped} ORDER BY id LIMIT ?) RETURNING {returned}",
            *keys,
            *skip,
            limit,
        )
        return sorted((_message(r) for r in rows), key=lambda m: m.id)

    async def mark_sending(self, message_id: int) -> None:
        """Note an attempt before the API call (committed first): a sender that finds it
        after a crash knows the message may already be out."""
        await self.tx.execute(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?",
            message_id,
        )

    async def mark_sending_many(self, message_ids: Sequence[int]) -> None:
        """``mark_sending`` for a batch, in one statement."""
        await self.tx.executemany(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?",
            [(i,) for i in message_ids],
        )

    def _fence(self) -> str:
        """Marks are fenced: only the sender whose token is still the lease's may mark."""
        lease = lease_sql("outbox.chat_key", self.tx.dialect)
        return (
            f" AND EXISTS (SELECT 1 FROM chat_leases l WHERE l.chat_key = {lease} "
            "AND l.holder = ? AND l.token = ?)"
        )

    async def mark_sent(
        self,
        message_id: int,
        now: float,
        result: dict[str, Any],
        fence: Fence | None = None,
    ) -> bool:
        """Record the platform's answer (e.g. the new message id); False if it was already
        marked (a retry that was recognised) or ``fence`` (holder, token) is no longer
        the chat's lease."""
        args: list[Any] = [float(now), _dumps(result), message_id]
        if fence is not None:
            args.extend(fence)
        rows = await self.tx.fetch(
            f"UPDATE outbox SET state = 'sent', sent = ?, result = ? WHERE id = ? AND {_WAITING}"
            + ("" if fence is None else self._fence())
            + " RETURNING id",
            *args,
        )
        return bool(rows)

    async def mark_sent_many(
        self,
        sent: Sequence[tuple[int, dict[str, Any]]],
        now: float,
        fence: Fence | None = None,
        state: Done = "sent",
    ) -> None:
        """``mark_sent`` for messages whose calls returned together, in one statement;
        ``state="dropped"``: messages done with but not sent (their adapter shed them)."""
        if not sent:
            return
        tail = () if fence is None else tuple(fence)
        await self.tx.executemany(
            f"UPDATE outbox SET state = '{state}', sent = ?, result = ? WHERE id = ? "
            f"AND {_WAITING}" + ("" if fence is None else self._fence()),
            [(float(now), _dumps(result), message_id, *tail) for message_id, result in sent],
        )

    async def mark_done_many(
        self,
        done: Sequence[tuple[int, dict[str, Any], Done]],
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """``mark_sent_many`` for messages each with its own end state (sent, or dropped:
        shed by its adapter), in one statement — so it needs no transaction of its own
        (``Store.statement``)."""
        if not done:
            return
        tail = () if fence is None else tuple(fence)
        await self.tx.executemany(
            f"UPDATE outbox SET state = ?, sent = ?, result = ? WHERE id = ? AND {_WAITING}"
            + ("" if fence is None else self._fence()),
            [(state, float(now), _dumps(r), i, *tail) for i, r, state in done],
        )

    async def sent_result(self, msg_key: str) -> dict[str, Any] | None:
        row = await self.tx.fetchone(
            "SELECT result FROM outbox WHERE msg_key = ? AND state = 'sent'", msg_key
        )
        return _loads(row[0]) if row and row[0] is not None else None

    async def sends_since(self, chat_key: str, since: float) -> int:
        """Messages sent to a chat since a time, by any worker: the group budget."""
        row = await self.tx.fetchone(
            "SELECT count(*) FROM outbox WHERE chat_key = ? AND state = 'sent' AND sent >= ?",
            chat_key,
            float(since),
        )
        return int(row[0]) if row else 0

    async def prune_outbox(self, sent_before: float) -> None:
        await self.tx.execute(
            "DELETE FROM outbox WHERE state IN ('sent', 'dropped') AND sent < ?",
            float(sent_before),
        )


class Store:
    """Async access to the database; each public write is one transaction."""

    def __init__(self, target: str | Path) -> None:
        self.target = str(target)
        self.backend: Backend
        if is_postgres_url(self.target):
            from .postgres import PostgresBackend

            self.backend = PostgresBackend(self.target)
        else:
            from .sqlite import SqliteBackend

            self.backend = SqliteBackend(self.target)
        self.lane = Lane.COMMANDS
        self._hook: list[FaultHook | None] = [None]  # one for this store and its lanes

    @property
    def fault_hook(self) -> FaultHook | None:
        return self._hook[0]

    @fault_hook.setter
    def fault_hook(self, hook: FaultHook | None) -> None:
        self._hook[0] = hook

    def background(self) -> Store:
        """This store for bookkeeping (the outbox relay, adapters' values): the same
        database and back end, but on PostgreSQL through a pool of its own, so however
        much of it waits, it never holds a connection a command needs."""
        return self._on(Lane.BACKGROUND)

    def receipts(self) -> Store:
        """This store for marking a new message sent: a pool of its own on PostgreSQL, so
        the commit that closes the double-post window never queues for a connection."""
        return self._on(Lane.RECEIPTS)

    def _on(self, lane: Lane) -> Store:
        view = copy.copy(self)
        view.lane = lane
        return view

    @property
    def dialect(self) -> Dialect:
        return self.backend.dialect

    async def open(self) -> None:
        await self.backend.open()
        await self.migrate()

    async def close(self) -> None:
        await self.backend.close()

    async def migrate(self) -> int:
        return await self.backend.migrate()

    async def listen_tables(self, callback: Callable[[str, int], None]) -> bool:
        """Call ``callback(table_key, version)`` whenever any worker commits a table;
        False on SQLite (one process: nobody else writes)."""

        def heard(payload: str) -> None:
            version, _, key = payload.partition(" ")
            callback(key, int(version))

        return await self.backend.listen(TABLES_CHANNEL, heard)

    async def listen_meta(self, callback: Callable[[str, str, Any, bool], None]) -> bool:
        """Call ``callback(table_key, name, value, has_value)`` whenever any worker commits
        a table's adapter value (``has_value`` False: too large for the notification,
        read it from the store). False on SQLite."""

        def heard(payload: str) -> None:
            raw = _loads(payload)
            callback(str(raw[0]), str(raw[1]), raw[2] if len(raw) > 2 else None, len(raw) > 2)

        return await self.backend.listen(META_CHANNEL, heard)

    async def ping(self) -> None:
        """A round trip to the database (the health check); raises if it does not answer."""
        async with self.transaction(readonly=True) as tx:
            await tx.tx.fetch("SELECT 1")

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    @asynccontextmanager
    async def transaction(self, readonly: bool = False) -> AsyncIterator[StoreTx]:
        async with self.backend.transaction(readonly, self.lane) as tx:
            yield StoreTx(tx, self.fault_hook)
            if not readonly:
                self._fault("commit")
        if not readonly:
            self._fault("committed")

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[StoreTx]:
        """A transaction of one write statement (atomic by itself: asyncpg's
        ``executemany`` too): on PostgreSQL without BEGIN and COMMIT — one round trip
        where a transaction takes three. The block must run exactly one statement on
        PostgreSQL (SQLite runs it as a transaction, so there a method may take two)."""
        async with self.backend.transaction(False, self.lane, single=True) as tx:
            yield StoreTx(tx, self.fault_hook)
        self._fault("committed")

    def _fault(self, point: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(point)

    # -- one step of a table --------------------------------------------------------------
    async def save_step(self, write: TableWrite) -> int:
        """Commit one step of a table (see ``StoreTx.write``) as one transaction; returns
        the table row's new version."""
        async with self.transaction() as tx:
            return await tx.write(write)

    # -- single operations, each its own transaction ---------------------------------------
    async def load_settings(self, group_key: str) -> dict[str, Any] | None:
        async with self.transaction(readonly=True) as tx:
            return await tx.load_settings(group_key)

    async def save_settings(self, group_key: str, settings: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.save_settings(group_key, settings)

    async def save_table(
        self,
        table_key: str,
        record: dict[str, Any],
        live: bool,
        new_actions: Sequence[ActionRow] = (),
        updated: float = 0.0,
    ) -> int:
        """Save the table record and append actions (deal_no, idx, seat, action) together."""
        return await self.save_step(
            TableWrite(table_key, record, live, updated, tuple(new_actions))
        )

    async def live_tables(self) -> list[tuple[str, dict[str, Any]]]:
        async with self.transaction(readonly=True) as tx:
            return await tx.live_tables()

    async def live_table(self, table_key: str) -> dict[str, Any] | None:
        """One live table's record (a table that left memory comes back on demand)."""
        async with self.transaction(readonly=True) as tx:
            row = await tx.load_table(table_key)
        return row.record if row is not None and row.live else None

    async def load_actions(self, table_key: str, deal_no: int) -> list[tuple[int, dict[str, Any]]]:
        async with self.transaction(readonly=True) as tx:
            return await tx.load_actions(table_key, deal_no)

    async def drop_actions(self, table_key: str, before_deal: int | None = None) -> None:
        async with self.transaction() as tx:
            await tx.drop_actions(table_key, before_deal)

    async def record_hand(
        self,
        group_key: str,
        table_key: str,
        deal_no: int,
        record: dict[str, Any],
        players: Sequence[PlayerRow],
    ) -> None:
        """Store a finished hand and add to each human's stats: (user_id, name, place, points)."""
        async with self.transaction() as tx:
            await tx.record_hand(
                group_key, table_key, HandWrite(group_key, deal_no, record, tuple(players))
            )

    async def finished_hands(self, group_key: str) -> list[dict[str, Any]]:
        async with self.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch(
                "SELECT record FROM hands WHERE group_key = ? ORDER BY id", group_key
            )
        return [_loads(r[0]) for r in rows]

    async def hands_from(
        self, group_key: str, number: int, limit: int = 1
    ) -> list[tuple[int, dict[str, Any]]]:
        """Finished hands of a group from its ``number``-th on (1-based, in play order): the
        number is the hand's short id in the group (bot.records)."""
        if number < 1 or limit < 1:
            return []
        async with self.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch(
                "SELECT record FROM hands WHERE group_key = ? ORDER BY id LIMIT ? OFFSET ?",
                group_key,
                limit,
                number - 1,
            )
        return [(number + i, _loads(r[0])) for i, r in enumerate(rows)]

    async def recent_hands(
        self, group_key: str, limit: int = 10
    ) -> list[tuple[int, dict[str, Any]]]:
        """The group's last ``limit`` finished hands with their short ids, newest first."""
        async with self.transaction(readonly=True) as tx:
            row = await tx.tx.fetchone("SELECT count(*) FROM hands WHERE group_key = ?", group_key)
        total = int(row[0]) if row else 0
        first = max(1, total - limit + 1)
        return list(reversed(await self.hands_from(group_key, first, limit)))

    _STATS = "SELECT user_id, name, hands, firsts, lasts, points FROM player_stats "

    async def leaderboard(self, group_key: str, limit: int = 10) -> list[PlayerStats]:
        """The group's players by points (then 头科 count, then fewer hands)."""
        return await self._stats(
            "WHERE group_key = ? ORDER BY points DESC, firsts DESC, hands ASC, name LIMIT ?",
            group_key,
            limit,
        )

    async def player(self, group_key: str, user_id: str) -> PlayerStats | None:
        rows = await self._stats("WHERE group_key = ? AND user_id = ?", group_key, user_id)
        return rows[0] if rows else None

    async def _stats(self, where: str, *args: Any) -> list[PlayerStats]:
        async with self.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch(self._STATS + where, *args)
        return [
            PlayerStats(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]
