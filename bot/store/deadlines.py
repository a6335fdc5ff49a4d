"""Timers as rows: each table's one pending deadline, claimed by one worker at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import TxQueries


@dataclass(frozen=True, slots=True)
class Deadline:
    table_key: str
    kind: str
    due: float


class DeadlineQueries(TxQueries):
    """Deadline rows inside one open transaction."""

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
