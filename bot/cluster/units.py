"""The shared repository's units of work (``bot.table.ports.Unit``): a table read to
look at, a command on a current copy, a command in a locking transaction, a timer in the
transaction that claimed its deadline row. Each reads its group's settings the way its
kind must and commits through the repository (``bot.cluster.shell.SharedTables``)."""

from __future__ import annotations

from typing import Any, Protocol

from ..store import Seen, StoreTx
from ..table.model import ChatRef, GroupSettings
from ..table.ports import Commit
from ..table.record import Table


class Owner(Protocol):
    """What the units ask of their repository."""

    async def group_settings(self, chat: ChatRef) -> GroupSettings: ...

    def settings_of(self, chat: ChatRef, raw: dict[str, Any] | None) -> GroupSettings: ...

    async def timer_settings(self, tx: StoreTx, chat: ChatRef) -> GroupSettings: ...

    async def write_on_copy(self, chat: ChatRef, c: Commit, version: int, seen: Seen) -> bool: ...

    async def write_in(self, tx: StoreTx, chat: ChatRef, c: Commit) -> bool: ...

    async def write_timer(self, tx: StoreTx, c: Commit) -> None: ...


class ReadUnit:
    """A table read to look at (a query): there is nothing to resume or commit."""

    def __init__(self, tables: Owner, chat: ChatRef, t: Table | None) -> None:
        self._tables = tables
        self._chat = chat
        self.table = t
        self.restored = False

    async def settings(self) -> GroupSettings:
        return await self._tables.group_settings(self._chat)

    async def commit(self, c: Commit) -> bool:
        raise AssertionError("a table read to look at is not committed")


class CopyUnit:
    def __init__(self, tables: Owner, chat: ChatRef, t: Table, version: int, seen: Seen) -> None:
        self._tables = tables
        self._chat = chat
        self._version = version
        self._seen = seen
        self.table: Table | None = t
        self.restored = False

    async def settings(self) -> GroupSettings:
        return self._tables.settings_of(self._chat, self._seen[1])

    async def commit(self, c: Commit) -> bool:
        return await self._tables.write_on_copy(self._chat, c, self._version, self._seen)


class TxUnit:
    def __init__(
        self,
        tables: Owner,
        tx: StoreTx,
        chat: ChatRef,
        t: Table | None,
        raw: dict[str, Any] | None,
    ) -> None:
        self._tables = tables
        self._tx = tx
        self._chat = chat
        self._raw = raw
        self.table = t
        self.restored = False

    async def settings(self) -> GroupSettings:
        return self._tables.settings_of(self._chat, self._raw)

    async def commit(self, c: Commit) -> bool:
        return await self._tables.write_in(self._tx, self._chat, c)


class TimerUnit:
    def __init__(self, tables: Owner, tx: StoreTx, t: Table) -> None:
        self._tables = tables
        self._tx = tx
        self.table: Table | None = t
        self.restored = False

    async def settings(self) -> GroupSettings:
        assert self.table is not None
        return await self._tables.timer_settings(self._tx, self.table.chat)

    async def commit(self, c: Commit) -> bool:
        await self._tables.write_timer(self._tx, c)
        return True
