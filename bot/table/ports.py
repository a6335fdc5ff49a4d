"""The table manager's two ports: where tables are kept (``Repository``) and where
their outputs go (``Publisher``).

``TableManager`` (``bot.table.manager``) runs every command and timer the same way —
lock, open a ``Unit`` of the table, one pure step of the core, ``Unit.commit``, publish —
and asks its repository and publisher for everything that depends on where the truth
lives. One process keeps its tables in memory and a SQLite file
(``bot.table.local``); several workers share PostgreSQL and send through the outbox
(``bot.cluster.shell``). Both implement these protocols; neither is a subclass of the
manager, and the manager reads nothing of them but what is declared here.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from ..store import PlayerStats, Store
from .cache import BoundedDict
from .core import Step
from .core.timers import warn_at
from .interactions import Interactions
from .memory import TableMemory
from .model import ChatRef, GroupSettings
from .outputs import DeadlineKind, Json, Out
from .record import Table

HandRow = tuple[int, dict[str, object]]  # a finished hand's short id and its stored record


class Access(enum.Enum):
    """How a unit of work opens its table."""

    READ = "read"  # to look (a query): no row lock, nothing committed but a restore
    COPY = "copy"  # a command: on a copy known current if the repository has one
    LOCKED = "locked"  # a command on what is stored, under the table's lock everywhere


class OutOfDate(Exception):
    """A ``Access.COPY`` commit found the table (or its group's settings) changed by
    another process since the copy: nothing was written; open it ``LOCKED`` again."""


@dataclass(frozen=True, slots=True)
class Due:
    """When a table next needs the clock, and for which of its deadlines."""

    kind: DeadlineKind
    at: float


def next_due(t: Table, warn_before: float) -> Due | None:
    """The one schedule rule of both repositories: a live table's running deadline, or
    the turn warning before it (``warn_at``) when one is due first."""
    d = t.run.deadline
    if d is None or d.at is None or not t.live():
        return None
    warned = warn_at(t, warn_before)
    return Due(d.kind, d.at if warned is None else warned)


@dataclass(frozen=True, slots=True)
class Commit:
    """What a step leaves to be kept: the table it replaces, the step, when the new
    table next needs the clock, and the group's new settings if it changed them."""

    before: Table | None
    step: Step
    due: Due | None
    settings: GroupSettings | None = None


class Unit(Protocol):
    """One table opened for one command or timer, under the manager's lock for it."""

    @property
    def table(self) -> Table | None: ...

    @property
    def restored(self) -> bool:
        """Rebuilt from a store that keeps no runtime: the core must ``resume`` it."""
        ...

    async def settings(self) -> GroupSettings:
        """The group's settings as this unit reads them (stored, or cached)."""
        ...

    async def commit(self, c: Commit) -> bool:
        """Keep the step's table (memory and store); True if anything was written.
        Raises ``OutOfDate`` (nothing written) for a copy that another process passed."""
        ...


# A timer's work on a unit (the repository opened it, under the table's lock wherever
# that lock is): the outputs to publish once the repository has committed it.
Tick = Callable[[Unit], Awaitable[tuple[Out, ...]]]
Fired = Callable[[str, tuple[Out, ...]], Awaitable[None]]


class Profile(Protocol):
    """Where a worker's command time goes (``bot.cluster.timings.Timings``)."""

    def add(self, phase: str, seconds: float) -> None: ...

    def phase(self, name: str) -> AbstractContextManager[None]: ...

    def summary(self) -> dict[str, dict[str, float]]: ...


class Repository(Protocol):
    memory: TableMemory  # the tables held, their adapter values, the per-table locks
    interactions: Interactions
    store: Store | None
    settings_cache: BoundedDict[str, GroupSettings]  # each group's, as last read

    @property
    def timings(self) -> Profile | None:
        """Where a worker's command time goes (None: not measured)."""
        ...

    @property
    def shared(self) -> bool:
        """Other processes commit these tables too (their outputs do not pass here)."""
        ...

    @property
    def durable(self) -> bool:
        """A table that leaves memory comes back from a store."""
        ...

    def open(self, chat: ChatRef, access: Access) -> AbstractAsyncContextManager[Unit]: ...

    def fresh(self, key: str) -> Table | None:
        """The held copy, when it is known current without reading or locking."""
        ...

    async def fire_due(self, tick: Tick, fired: Fired) -> None:
        """Open every table whose deadline is due and ``tick`` it; ``fired`` after each
        commit with what the tick says."""
        ...

    async def group_settings(self, chat: ChatRef) -> GroupSettings: ...

    def cache_settings(self, chat: ChatRef, settings: GroupSettings) -> None: ...

    async def set_meta(self, key: str, name: str, value: Json) -> bool:
        """Keep an adapter's value beside the table; False if the table must be read
        into memory first (then the caller does, and asks again)."""
        ...

    async def tables_of(self, user_id: str, platform: str | None) -> list[str]: ...

    async def live_keys(self) -> list[str]:
        """The live tables' keys as stored (``load`` reads each)."""
        ...

    async def loaded(self, keys: list[str]) -> None:
        """After ``load`` read them: start following the others' commits."""
        ...

    async def catch_up(self, prefix: str) -> int: ...

    def memory_keys(self, prefix: str) -> list[str]: ...

    def remembered(self, key: str) -> Mapping[str, Json]: ...

    async def leaderboard(self, group_key: str, limit: int) -> list[PlayerStats]: ...

    async def hands_from(self, group_key: str, number: int, limit: int) -> list[HandRow]: ...

    async def recent_hands(self, group_key: str, limit: int) -> list[HandRow]: ...


class Publisher(Protocol):
    @property
    def shows_thinking(self) -> bool:
        """A table edit that is never stored ("thinking…") may be published."""
        ...

    async def committed(self, key: str, outs: tuple[Out, ...]) -> None:
        """A commit's outputs (the outbox's one sender per chat sends them, or here)."""
        ...

    async def passing(self, out: Out) -> None:
        """An output that is no commit's (a seat thinking long)."""
        ...

    async def pump(self) -> None:
        """A timer pass: send what waits (another worker's, one that died)."""
        ...

    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool: ...

    async def drain(self) -> None: ...
