"""One process's tables: memory is the truth, a SQLite file (or none) the copy that
survives a restart; outputs go straight to the adapters.

``LocalRepository`` and ``LocalPublisher`` implement the manager's ports
(``bot.table.ports``) for the bots' single process, the terminal and the tests. Every
step is saved as one transaction (``Store.save_step``: the table row, its new actions,
finished hands and stats); a table that left memory is rebuilt from its row and its
deal's actions, and the manager ``resume``s it. Timers are a dict of due times."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from ..engine.errors import GoujiError
from ..store import PlayerStats, Store
from .cache import BoundedDict
from .clock import Clock
from .core import FinishedHand
from .interactions import Interactions
from .memory import TableMemory
from .model import ChatRef, GroupSettings, TableStatus
from .outputs import Json, Out
from .persist import LogSync, deal_start, replay, saved, step_write
from .ports import Access, Commit, Due, Fired, HandRow, Profile, Tick, Unit
from .record import Table, table_from_json
from .sinks import Sinks

log = logging.getLogger(__name__)


class LocalRepository:
    timings: Profile | None = None

    def __init__(self, store: Store | None, clock: Clock, settings_cache_size: int = 4096) -> None:
        self.store = store
        self.clock = clock
        self.memory = TableMemory(clock.now)
        self.memory.on_forget(self._forgotten)
        # Replay steppers' and private menus' state: in the store, so it survives a
        # restart and any worker answers their buttons.
        self.interactions = Interactions(store)
        self.settings_cache: BoundedDict[str, GroupSettings] = BoundedDict(settings_cache_size)
        self._sync: dict[str, LogSync] = {}
        self._due: dict[str, float] = {}  # tables with a running timer: when it fires/warns

    @property
    def shared(self) -> bool:
        return False

    @property
    def durable(self) -> bool:
        return self.store is not None  # without a store a table could not come back

    # -- units ------------------------------------------------------------------------
    def open(self, chat: ChatRef, access: Access) -> AbstractAsyncContextManager[Unit]:
        """The table (in memory, or rebuilt from the store if it left memory); every
        access is the same here: memory is the truth."""
        return _Opening(self, chat)

    async def unit(self, chat: ChatRef) -> _LocalUnit:
        key = chat.key
        t = self.memory.get(key)
        restored = False
        if t is None and self.store is not None:
            record = await self.store.live_table(key)
            if record is not None:
                t = await self._rebuild(key, record)
                restored = t is not None
        return _LocalUnit(self, chat, t, restored)

    async def _rebuild(self, key: str, record: dict[str, Any]) -> Table | None:
        assert self.store is not None
        t = table_from_json(dict(record))
        meta = record.get("meta")
        self.memory.set_meta_all(key, meta if isinstance(meta, dict) else {})
        sync = self._sync[key] = LogSync(t.deal_no, 0)
        if t.status is TableStatus.PLAYING and t.rules is not None:
            try:
                actions = await self.store.load_actions(key, t.deal_no)
                replay(t, deal_start(t), [], actions)
            except GoujiError as err:
                # A log that no longer replays (e.g. rules changed underneath): close the
                # table rather than invent a state.
                log.error("table %s could not be rebuilt: %s", key, err.code.value)
                t.status = TableStatus.FINISHED
                await self.store.save_table(key, self._record(t), False)
                self.memory.drop_meta(key)
                self._sync.pop(key, None)
                return None
            sync.saved = len(t.log)
        return t

    def fresh(self, key: str) -> Table | None:
        return None  # ask under the table's lock: a command may be under way

    async def keep(self, chat: ChatRef, c: Commit) -> bool:
        """A unit's commit: memory, the timer, and the store; True if it was stored."""
        t = c.step.table
        if t is None:
            await self._save_settings(chat, c.settings)
            return False
        key = chat.key
        if c.step.fresh:
            self._sync[key] = LogSync()
        self.memory.keep(key, c.before, t)
        self._schedule(key, c.due)
        if t is c.before and not c.step.finished:
            await self._save_settings(chat, c.settings)
            return False
        await self._persist(t, c.step.finished, c.settings)
        return True

    async def _save_settings(self, chat: ChatRef, settings: GroupSettings | None) -> None:
        if settings is not None and self.store is not None:
            await self.store.save_settings(chat.group_key, settings.to_json())

    def _record(self, t: Table) -> dict[str, Any]:
        return {**t.to_json(), "meta": self.memory.meta_view(t.key)}

    async def _persist(
        self,
        t: Table,
        finished: Iterable[FinishedHand],
        settings: GroupSettings | None = None,
    ) -> None:
        sync = self._sync.setdefault(t.key, LogSync())
        if self.store is not None:
            now = self.clock.now()
            await self.store.save_step(
                step_write(t, self._record(t), sync, finished, settings, now)
            )
        saved(sync, t)

    def _forgotten(self, key: str, t: Table | None) -> None:
        self._sync.pop(key, None)
        self._due.pop(key, None)

    # -- timers -----------------------------------------------------------------------
    def _schedule(self, key: str, due: Due | None) -> None:
        if due is None:
            self._due.pop(key, None)
        else:
            self._due[key] = due.at

    async def fire_due(self, tick: Tick, fired: Fired) -> None:
        now = self.clock.now()
        for key in [k for k, at in self._due.items() if at <= now]:
            async with self.memory.lock(key):
                t = self.memory.get(key)
                if t is None:
                    self._due.pop(key, None)
                    continue
                async with self.open(t.chat, Access.LOCKED) as unit:
                    outs = await tick(unit)
            await fired(key, outs)

    # -- settings, adapters' values, queries ------------------------------------------
    async def group_settings(self, chat: ChatRef) -> GroupSettings:
        cached = self.settings_cache.get(chat.group_key)
        if cached is not None:
            return cached
        settings = GroupSettings()
        if self.store is not None:
            raw = await self.store.load_settings(chat.group_key)
            if raw is not None:
                settings = GroupSettings.from_json(raw)
        self.settings_cache[chat.group_key] = settings
        return settings

    def cache_settings(self, chat: ChatRef, settings: GroupSettings) -> None:
        self.settings_cache[chat.group_key] = settings

    async def set_meta(self, key: str, name: str, value: Json) -> bool:
        async with self.memory.lock(key):
            t = self.memory.get(key)
            if t is None:
                return self.store is None  # else it is read from the store first
            self.memory.meta(key)[name] = value
            await self._persist(t, ())
            return True

    async def tables_of(self, user_id: str, platform: str | None) -> list[str]:
        keys = self.memory.tables_of(user_id)
        return [k for k in keys if platform is None or k.startswith(platform + ":")]

    async def live_keys(self) -> list[str]:
        if self.store is None:
            return []
        return [key for key, _ in await self.store.live_tables()]

    async def loaded(self, keys: list[str]) -> None:
        return None

    async def catch_up(self, prefix: str) -> int:
        return 0  # one process: memory is never behind

    def memory_keys(self, prefix: str) -> list[str]:
        tables = self.memory.tables
        return sorted(k for k, t in tables.items() if k.startswith(prefix) and t.live())

    def remembered(self, key: str) -> Mapping[str, Json]:
        return self.memory.meta_view(key)

    async def leaderboard(self, group_key: str, limit: int) -> list[PlayerStats]:
        return [] if self.store is None else await self.store.leaderboard(group_key, limit)

    async def hands_from(self, group_key: str, number: int, limit: int) -> list[HandRow]:
        if self.store is None:
            return []
        return await self.store.hands_from(group_key, number, limit)

    async def recent_hands(self, group_key: str, limit: int) -> list[HandRow]:
        return [] if self.store is None else await self.store.recent_hands(group_key, limit)


class _Opening:
    """``LocalRepository.open``: nothing to close (a class, not a generator: every
    command passes here)."""

    __slots__ = ("_chat", "_repo")

    def __init__(self, repo: LocalRepository, chat: ChatRef) -> None:
        self._repo = repo
        self._chat = chat

    async def __aenter__(self) -> Unit:
        return await self._repo.unit(self._chat)

    async def __aexit__(self, *exc: object) -> None:
        return None


class _LocalUnit:
    def __init__(
        self, repo: LocalRepository, chat: ChatRef, t: Table | None, restored: bool
    ) -> None:
        self._repo = repo
        self._chat = chat
        self._table = t
        self._restored = restored

    @property
    def table(self) -> Table | None:
        return self._table

    @property
    def restored(self) -> bool:
        return self._restored

    async def settings(self) -> GroupSettings:
        return await self._repo.group_settings(self._chat)

    async def commit(self, c: Commit) -> bool:
        return await self._repo.keep(self._chat, c)


class LocalPublisher:
    """Outputs straight to the adapters: one process is every chat's one sender."""

    def __init__(self, sinks: Sinks) -> None:
        self.sinks = sinks

    @property
    def shows_thinking(self) -> bool:
        return True

    async def committed(self, key: str, outs: tuple[Out, ...]) -> None:
        await self.sinks.deliver(outs)

    async def passing(self, out: Out) -> None:
        await self.sinks.deliver((out,))

    async def pump(self) -> None:
        return None

    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool:
        return False  # the adapter sends the reply itself

    async def drain(self) -> None:
        return None
