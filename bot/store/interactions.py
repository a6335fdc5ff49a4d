"""The state behind interactive messages (menus, pickers), until they expire."""

from __future__ import annotations

from typing import Any

from .base import TxQueries, dumps, loads


class InteractionQueries(TxQueries):
    """Interactive messages' state inside one open transaction."""

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
            dumps(value),
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
        return (loads(row[0]), int(row[1])) if row else None

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
