"""Finished hands (the records replays and reviews read) and each player's stats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import TxQueries, dumps, loads

# (user_id, name, place, points) of each human at a finished hand
PlayerRow = tuple[str, str, int, int]


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


class HandQueries(TxQueries):
    """Finished hands and stats inside one open transaction."""

    async def record_hand(self, group_key: str, table_key: str, hand: HandWrite) -> None:
        await self.tx.execute(
            "INSERT INTO hands (group_key, table_key, deal_no, record) VALUES (?, ?, ?, ?)",
            group_key,
            table_key,
            hand.deal_no,
            dumps(hand.record),
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

    async def finished_hands(self, group_key: str) -> list[dict[str, Any]]:
        rows = await self.tx.fetch(
            "SELECT record FROM hands WHERE group_key = ? ORDER BY id", group_key
        )
        return [loads(r[0]) for r in rows]

    async def hands_from(
        self, group_key: str, number: int, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        """Finished hands of a group from its ``number``-th on (1-based, in play order)."""
        rows = await self.tx.fetch(
            "SELECT record FROM hands WHERE group_key = ? ORDER BY id LIMIT ? OFFSET ?",
            group_key,
            limit,
            number - 1,
        )
        return [(number + i, loads(r[0])) for i, r in enumerate(rows)]

    async def hand_count(self, group_key: str) -> int:
        row = await self.tx.fetchone("SELECT count(*) FROM hands WHERE group_key = ?", group_key)
        return int(row[0]) if row else 0

    _STATS = "SELECT user_id, name, hands, firsts, lasts, points FROM player_stats "

    async def stats(self, where: str, *args: Any) -> list[PlayerStats]:
        """Players' stats rows ``where`` (a clause of this module's callers, never user text)."""
        rows = await self.tx.fetch(self._STATS + where, *args)
        return [
            PlayerStats(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]
