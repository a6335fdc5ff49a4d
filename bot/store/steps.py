"""One step of a table, written as one transaction (``TableWrite``), and ``StoreTx``:
every concern's queries inside one open transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .backend import Dialect
from .base import dumps
from .deadlines import DeadlineQueries
from .hands import HandQueries, HandWrite
from .interactions import InteractionQueries
from .meta import MetaQueries
from .outbox import OutboxQueries, outbox_key
from .tables import ActionRow, TableQueries


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


class StoreTx(
    TableQueries, MetaQueries, InteractionQueries, HandQueries, DeadlineQueries, OutboxQueries
):
    """The store's queries inside one open transaction."""

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
            None if settings is None else dumps(settings),
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
        version = await self._write_each(w)
        self.fault("commit")  # written, not committed (the statement commits on its way out)
        return version

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
                "record": dumps(h.record),
                "players": [list(p) for p in h.players],
            }
            for h in w.hands
        ]
        kind, due = w.deadline if w.deadline is not None else ("", None)
        return (
            w.table_key,
            dumps(w.record),
            w.live,
            float(w.updated),
            w.notify,
            group,
            None if settings is None else dumps(settings),
            w.drop_all_actions,
            w.drop_actions_before,
            [d for d, _, _, _ in w.new_actions],
            [i for _, i, _, _ in w.new_actions],
            [s for _, _, s, _ in w.new_actions],
            [json.dumps(a) for _, _, _, a in w.new_actions],
            dumps(hands),
            w.deadline is not None,
            kind,
            None if due is None else float(due),
            [k for k, _ in w.messages],
            [dumps(p) for _, p in w.messages],
            float(w.queued),
        )
