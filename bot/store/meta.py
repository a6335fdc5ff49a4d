"""Adapters' values kept with a table (its own rows: no table lock, no new version),
announced to the other workers at each commit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .backend import Dialect
from .base import TxQueries, dumps, loads

META_CHANNEL = "gouji_meta"  # NOTIFY: JSON [table key, name, value] at each commit
# NOTIFY payloads must stay under 8000 bytes; a larger value is announced without it.
META_PAYLOAD_MAX = 7000


def _meta_payload(table_key: str, name: str, value: Any) -> str:
    """The NOTIFY that carries an adapter's value to the other workers."""
    payload = dumps([table_key, name, value])
    if len(payload.encode()) > META_PAYLOAD_MAX:
        payload = dumps([table_key, name])  # listeners read it from the row
    return payload


class MetaQueries(TxQueries):
    """A table's adapter values inside one open transaction."""

    async def set_table_meta(self, table_key: str, name: str, value: Any) -> None:
        """Keep an adapter's value with a table (its own row: no table lock, no new table
        version) and tell the other workers at the commit."""
        raw = dumps(value)
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
            (key, name, dumps(value), _meta_payload(key, name, value))
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
        return {str(n): loads(v) for n, v in rows}
