"""The table manager's shell for several workers on one database (PostgreSQL).

``SharedTables`` is the ``TableManager``'s repository and publisher
(``bot.table.ports``) when several workers share the store: the store is the truth and
memory only a cache. A command runs in one transaction: take the table's lock across
processes, reload the table if another worker changed it since this one last saw it (the
row version), run the step, write the table, its new actions, finished hands, its
deadline row and the messages the step causes (the outbox) — commit. When this worker
has heard every commit and its copy is as new as the newest it heard of, the step runs
on the copy and the write is one statement that takes the same lock and checks the row
version (and the group's settings) before it writes — or writes nothing, and the command
runs as above (``Access.COPY``, then ``OutOfDate``): one round trip instead of four, and
no lock held while the step runs. The messages then leave through the outbox relay, one
sender per chat; the timers are deadline rows that any worker may fire, each once. The
one process on a SQLite file runs here too (``solo``), so a crash loses no owed message.

What a table's runtime holds beyond its record (deadline, open burn window, last result)
is saved beside it (``bot.cluster.runtime``), so another worker continues exactly.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from ..engine.errors import GoujiError
from ..store import (
    ActionsSince,
    OutboxMessage,
    PlayerStats,
    Seen,
    Store,
    StoredTable,
    StoreTx,
    TableWrite,
    lease_key,
    outbox_version,
)
from ..store import Deadline as DeadlineRow
from ..store.backend import Dialect
from ..table.cache import BoundedDict
from ..table.clock import Clock, WallClock
from ..table.codes import NoteCode
from ..table.interactions import Interactions
from ..table.manager import TableManager
from ..table.memory import TableMemory
from ..table.model import ChatRef, GroupSettings
from ..table.outputs import Json, Out, PrivateNote, param
from ..table.persist import LogSync, step_write
from ..table.ports import Access, Commit, Due, Fired, HandRow, OutOfDate, Tick, Unit
from ..table.record import Table
from ..table.sinks import Sinks
from .metawriter import MetaWriter
from .rebuild import Dealing, rebuild
from .relay import OutboxRelay
from .runtime import Dealt, runtime_to_json
from .thinking import queue_thinking
from .timers import DeadlineRunner
from .timings import Timings
from .units import CopyUnit, ReadUnit, TimerUnit, TxUnit
from .values import AdapterValues
from .wire import WireError, out_from_json, out_to_json
from .worker import worker_id

log = logging.getLogger(__name__)


# The outbox kind of an adapter's reply (``relay_reply``), beside the table outputs' kinds.
REPLY = "Reply"
# Reloads of other workers' commits reading at once, of the bookkeeping's 10 connections
# (``bot.store.postgres.POOL_SIZES``): the relay keeps the rest.
FOLLOW_READS = 4
# How long a chat's lease is held idle after its messages are out (``load``), as a share
# of the lease: longer than a table's usual gap between commands, so one worker sends a
# busy chat's messages while it plays; no longer than a lease, so a dead worker's chats
# wait no longer than its in-flight messages do.
LINGER = 0.8


def shared_manager(
    store: Store,
    *,
    worker: str | None = None,
    lease_seconds: float = 10.0,
    inline_relay: bool = False,
    relay_linger: float | None = None,
    clock: Clock | None = None,
    settings_cache_size: int = 4096,
    solo: bool = False,
    **options: Any,
) -> TableManager:
    """A table manager for a worker of several on ``store`` (PostgreSQL), or ``solo``."""
    clock = clock or WallClock()
    sinks = Sinks()
    tables = SharedTables(
        store,
        sinks,
        clock,
        worker=worker,
        lease_seconds=lease_seconds,
        inline_relay=inline_relay,
        relay_linger=relay_linger,
        settings_cache_size=settings_cache_size,
        solo=solo,
    )
    return TableManager(clock=clock, repository=tables, publisher=tables, sinks=sinks, **options)


class SharedTables:
    """The tables of a worker of several: the repository and the publisher of its
    ``TableManager``."""

    def __init__(
        self,
        store: Store,
        sinks: Sinks,
        clock: Clock,
        *,
        worker: str | None = None,
        lease_seconds: float = 10.0,
        inline_relay: bool = False,
        relay_linger: float | None = None,
        settings_cache_size: int = 4096,
        solo: bool = False,
    ) -> None:
        self.store: Store | None = store
        self.solo = solo  # the one process on its SQLite file: every commit is its own
        self.db = store
        self.sinks, self.clock = sinks, clock
        self.memory = TableMemory(clock.now)
        self.memory.on_forget(self._forgotten)
        self.settings_cache: BoundedDict[str, GroupSettings] = BoundedDict(settings_cache_size)
        self.worker = worker or worker_id()
        self.relay_linger = relay_linger if relay_linger is not None else LINGER * lease_seconds
        self._sync: dict[str, LogSync] = {}  # what the store holds of each table's deal
        self._versions: dict[str, int] = {}  # per cached table, its row's; after the commit
        self._written: dict[str, int] = {}  # versions written by the open transaction
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._follow_slots = asyncio.Semaphore(FOLLOW_READS)
        self._newest: dict[str, int] = {}  # the newest version heard of, per table
        # The version this worker itself last committed, per table (``_heard``).
        self._mine: BoundedDict[str, int] = BoundedDict(settings_cache_size)
        self._dealing = Dealing()  # how each table's ended hand was dealt
        self.timings = Timings()
        self.bookkeeping = bookkeeping = store.background()  # the outbox, adapters' values
        self.meta = MetaWriter(bookkeeping, self.timings)
        self.values = AdapterValues(self.memory, self.meta, bookkeeping, self.timings)
        self.relay = self._relay(lease_seconds)
        # A command returns once its step committed; its messages leave in the background
        # (waiting for the platform's answers is no part of the command's time). Tests
        # that want the sends done when ``handle`` returns ask for them inline.
        self.inline_relay = inline_relay
        # Each group's settings as last read (None: none stored; ``Access.COPY``).
        self._raw_settings: dict[str, dict[str, Any] | None] = {}
        self._listening = False  # hearing every commit (PostgreSQL's NOTIFY)
        self._sending: set[asyncio.Task[Any]] = set()
        # Who sits at each table as the store's ``table_players`` has it (written only
        # when it changes; unknown until this worker first writes the table).
        self._seated: dict[str, tuple[str, ...]] = {}
        self._seating: dict[str, tuple[str, ...]] = {}  # written by the open transaction
        self.interactions = Interactions(store, self.clock.now)
        self._replying = asyncio.Lock()  # replies queue in the order they were given

    def _relay(self, lease_seconds: float) -> OutboxRelay:
        """The outbox's sender for the chats whose lease this worker holds."""
        return OutboxRelay(
            self.bookkeeping,
            self.worker,
            self._deliver,
            self.clock.now,
            lease_seconds,
            timings=self.timings,
            stored=self.meta.flush,
            recall=self._recall,
        )

    @property
    def shared(self) -> bool:
        return not self.solo  # alone, every output passes here (the web table need not poll)

    @property
    def durable(self) -> bool:
        return True

    @property
    def shows_thinking(self) -> bool:
        return self.solo or self.db.dialect is not Dialect.SQLITE  # see ``.thinking``

    # -- units of work ----------------------------------------------------------------
    @asynccontextmanager
    async def open(self, chat: ChatRef, access: Access) -> AsyncIterator[Unit]:
        """``READ``: the table as stored (or the copy, if as new). ``COPY``: this
        worker's current copy if it has one (``_current_copy``), committed only if
        nothing changed meanwhile; else, and ``LOCKED``: in one transaction under the
        table's lock across processes, reloaded if another worker changed it."""
        if access is Access.READ:
            async with self.db.transaction(readonly=True) as tx:
                t = await self._read(tx, chat.key)
            yield ReadUnit(self, chat, t)
            return
        current = self._current_copy(chat) if access is Access.COPY else None
        if current is not None:
            yield CopyUnit(self, chat, *current)
            return
        async with self._locked(chat) as unit:
            yield unit

    @asynccontextmanager
    async def _locked(self, chat: ChatRef) -> AsyncIterator[Unit]:
        key, clock = chat.key, self.timings
        try:
            mark = time.perf_counter()
            async with self.db.transaction() as tx:
                clock.add("begin", time.perf_counter() - mark)
                with clock.phase("db_lock"):
                    row, raw = await tx.lock_table_and_settings(key, chat.group_key)
                with clock.phase("reload"):
                    table = await self._copy(tx, key, row)
                yield TxUnit(self, tx, chat, table, raw)
                mark = time.perf_counter()
            clock.add("commit", time.perf_counter() - mark)
        except BaseException:
            self._rolled_back(key)
            raise
        self._committed(key)

    def _current_copy(self, chat: ChatRef) -> tuple[Table, int, Seen] | None:
        """The table as this worker holds it, its version and what its group's settings
        were when last read — when a command may run on them with no transaction open:
        this worker hears every commit (PostgreSQL) and its copy is as new as the newest
        it heard of. (A settings change never runs on a copy: ``TableManager``.)"""
        key, group = chat.key, chat.group_key
        table = self.memory.get(key)
        if (
            not self._listening
            or table is None
            or key in self._written
            or key not in self._versions
            or self._behind(key)
            or group not in self._raw_settings
        ):
            return None
        return table, self._versions[key], (group, self._raw_settings[group])

    async def write_on_copy(self, chat: ChatRef, c: Commit, version: int, seen: Seen) -> bool:
        """A step on a copy, committed in one statement that checks under the table's
        lock that neither the table nor the settings changed meanwhile
        (``StoreTx.write_if``); else nothing is written, the copy is forgotten, and
        ``OutOfDate`` tells the manager to run the command again ``LOCKED``."""
        key, clock = chat.key, self.timings
        mark = time.perf_counter()
        try:
            async with self.db.statement() as tx:
                written = await self._write(tx, key, c, expected=(version, seen))
        except _Refused:
            self._rolled_back(key)
            clock.add("write_if_refused", time.perf_counter() - mark)
            raise OutOfDate from None
        except BaseException:
            self._rolled_back(key)
            raise
        clock.add("write_if", time.perf_counter() - mark)
        self._committed(key)
        return written

    async def write_in(self, tx: StoreTx, chat: ChatRef, c: Commit) -> bool:
        """A step in the unit's transaction (and new settings, if no table holds them)."""
        with self.timings.phase("write"):
            saved = await self._write(tx, chat.key, c)
            if c.settings is not None and not saved:
                await tx.save_settings(chat.group_key, c.settings.to_json())
        return saved

    # -- settings ---------------------------------------------------------------------
    async def group_settings(self, chat: ChatRef) -> GroupSettings:
        # Another worker may have changed them: the store answers, not a cache.
        async with self.db.transaction(readonly=True) as tx:
            return await self._settings(tx, chat)

    async def timer_settings(self, tx: StoreTx, chat: ChatRef) -> GroupSettings:
        return await self._settings(tx, chat)

    def cache_settings(self, chat: ChatRef, settings: GroupSettings) -> None:
        self.settings_cache[chat.group_key] = settings

    async def _settings(self, tx: StoreTx, chat: ChatRef) -> GroupSettings:
        return self.settings_of(chat, await tx.load_settings(chat.group_key))

    def settings_of(self, chat: ChatRef, raw: dict[str, Any] | None) -> GroupSettings:
        self._raw_settings[chat.group_key] = raw
        settings = GroupSettings() if raw is None else GroupSettings.from_json(raw)
        self.settings_cache[chat.group_key] = settings
        return settings

    # -- queries ----------------------------------------------------------------------
    def fresh(self, key: str) -> Table | None:
        """While this worker hears every commit and its copy is as new as the newest it
        heard of, the copy answers (adapters ask before each button press; a command
        reloads under the lock anyway); else the store does, at once — the reload of the
        commit heard may still be queued behind others."""
        t = self.memory.get(key)
        fresh = self._listening and self._versions.get(key, -1) >= self._newest.get(key, 0)
        return t if t is not None and fresh and key not in self._written else None

    async def tables_of(self, user_id: str, platform: str | None) -> list[str]:
        """The live tables where this person has a seat, whichever worker seated them
        (the store's index, not this worker's memory)."""
        async with self.db.transaction(readonly=True) as tx:
            return await tx.tables_of(user_id, "" if platform is None else platform + ":")

    async def leaderboard(self, group_key: str, limit: int) -> list[PlayerStats]:
        return await self.db.leaderboard(group_key, limit)

    async def hands_from(self, group_key: str, number: int, limit: int) -> list[HandRow]:
        return await self.db.hands_from(group_key, number, limit)

    async def recent_hands(self, group_key: str, limit: int) -> list[HandRow]:
        return await self.db.recent_hands(group_key, limit)

    def memory_keys(self, prefix: str) -> list[str]:
        return self.values.memory_keys(prefix)

    def remembered(self, key: str) -> Mapping[str, Json]:
        return self.values.remembered(key)

    async def set_meta(self, key: str, name: str, value: Json) -> bool:
        return await self.values.set_meta(key, name, value)

    def _heard_meta(self, key: str, name: str, value: Any, has_value: bool) -> None:
        if self.values.heard(key, name, value, has_value):
            self._task(self.values.reload(key))

    async def live_keys(self) -> list[str]:
        async with self.db.transaction(readonly=True) as tx:
            return [key for key, _ in await tx.live_tables()]

    async def loaded(self, keys: list[str]) -> None:
        """Nothing to resume (every step was committed whole; deadlines are rows): the
        live tables are in memory now (``TableManager.load``); keep them fresh as other
        workers commit, so what the adapters read before a command (menus, snapshots) is
        current. Commands never rely on it: they reload under the table's lock."""
        tables = self.memory.tables
        # Tables from before the seat index (schema 5) enter it here.
        seated = [(u, k) for k in keys if k in tables for u in _users(tables[k])]
        async with self.db.transaction() as tx:
            await tx.add_players(seated)
        self._listening = self.solo or await self.db.listen_tables(self._heard)
        if self._listening:
            # Hearing every commit, this worker can go on sending a chat's messages after
            # its own are out (``OutboxRelay.linger``); without it, the others' would wait
            # for its pass over the outbox.
            self.relay.linger = self.relay_linger
        await self.db.listen_meta(self._heard_meta)

    def _heard(self, key: str, version: int) -> None:
        self._newest[key] = max(version, self._newest.get(key, 0))
        if key in self._written or self._mine.get(key) == version:
            return  # this worker's own commit: it relays its messages itself
        if self.relay.lingers(key) or self.relay.sending(key):
            # This worker holds the chat's lease, idle or sending (a paced table edit
            # out): that commit's messages are its to send, at once — even if a read got
            # that version first (issue #38: the next keyboard waited for the edit).
            self._task(self.relay.pump_chat(key))
        if self._versions.get(key, -1) >= version:
            return  # read already
        if key not in self._refreshing:
            task = asyncio.get_running_loop().create_task(self._follow(key))
            self._refreshing[key] = task
            task.add_done_callback(lambda _: self._refreshing.pop(key, None))

    async def _follow(self, key: str) -> None:
        """Reload until this worker's copy is at least as new as the newest it heard of.
        At most ``FOLLOW_READS`` of these read at once: every commit of every other worker
        starts one, and unbounded they held every bookkeeping connection (the relay's
        too) while an adapter that needed a table now could read it itself."""
        for _ in range(5):
            async with self._follow_slots:
                if not self._behind(key):
                    return  # read meanwhile (an adapter's ``current``, a delivery)
                await self._refresh_behind(key)
            if key not in self.memory.tables or not self._behind(key):
                return  # current, or no live table to follow

    def _behind(self, key: str) -> bool:
        """This worker heard of a newer version than its copy's (or has no copy)."""
        return self._versions.get(key, -1) < self._newest.get(key, 0)

    async def _refresh_behind(self, key: str) -> None:
        """``refresh`` for bookkeeping (a commit heard, a message to deliver): on the
        bookkeeping's connections, taken before the table's in-process lock — a command
        waiting for that lock then waits for a read under way, never for a connection,
        and these reads (one per commit on every other worker) leave the commands' pool
        to commands. On SQLite (tests: one file, one connection's lock for every
        transaction of the worker) the other way round: a command holds the table's lock
        while it waits for that one, and the read holding it waited for the command."""
        if self.db.dialect is Dialect.SQLITE:
            async with self.memory.lock(key), self.bookkeeping.transaction(readonly=True) as tx:
                await self._read(tx, key)
            return
        async with self.bookkeeping.transaction(readonly=True) as tx, self.memory.lock(key):
            await self._read(tx, key)

    async def catch_up(self, prefix: str) -> int:
        """Now, not in their turn among the follows queued (a button of a match begun on
        another worker names a table by an id no copy here can give yet)."""
        behind = [k for k in list(self._newest) if k.startswith(prefix) and self._behind(k)]
        await asyncio.gather(*(self._refresh(k) for k in behind))
        return len(behind)

    async def _refresh(self, key: str) -> None:
        """Bring this worker's copy of a table up to date (before an adapter reads it)."""
        async with self.memory.lock(key), self.db.transaction(readonly=True) as tx:
            await self._read(tx, key)

    async def _read(self, tx: StoreTx, key: str) -> Table | None:
        """The table as stored, its actions read with the row (one round trip on
        PostgreSQL): those the cached copy lacks of its deal."""
        cached = self.memory.get(key)
        held = (-1, 0) if cached is None else (cached.deal_no, len(cached.log))
        row, ahead = await tx.load_table_since(key, *held)
        return await self._copy(tx, key, row, ahead)

    async def _copy(
        self, tx: StoreTx, key: str, row: StoredTable | None, ahead: ActionsSince | None = None
    ) -> Table | None:
        """The table as the row has it: the copy held if it is as new, else rebuilt. A
        table that has ended is kept too, as the one process keeps it (for
        ``finished_ttl``): the match's last messages are sent after the commit that
        ended it, perhaps by this worker for another's step, and the adapters render
        them from its last snapshot — forgotten here, the result picture, the final
        table edit and the final hand updates were never posted, yet marked sent."""
        if row is None:
            self._gone(key)
            return None
        cached = self.memory.get(key)
        if cached is not None and self._versions.get(key, -1) >= row.version:
            return cached  # as new as the row (or newer: a read that began before our commit)
        self._seated.pop(key, None)  # another worker wrote it: its seats too, maybe
        try:
            t = await rebuild(tx, row, cached, self._dealing, ahead)
            if cached is None:
                await self.values.first(tx, key, dict(row.record))
        except (KeyError, TypeError, ValueError, GoujiError) as err:
            if row.live:
                raise
            # An ended table this version cannot read back: nothing to show, as before.
            log.warning("ended table %s not read back: %r", key, err)
            self._gone(key)
            return None
        self._sync[key] = LogSync(t.deal_no, len(t.log))  # the store holds its whole log
        self.memory.keep(key, cached, t)
        self._versions[key] = row.version
        return t

    def _gone(self, key: str) -> None:
        """No table to hold at ``key``: forget this worker's copy, keeping its adapter
        values (``memory_keys``)."""
        if key in self.memory.tables:
            self.values.keep_ended(key)
            self.memory.forget(key)
        self._versions.pop(key, None)
        self._newest.pop(key, None)  # nothing left to follow (or to catch up with)
        self._seated.pop(key, None)

    def _forgotten(self, key: str, t: Table | None) -> None:
        # An ended table leaving memory leaves its adapter values behind (``memory_keys``),
        # and nothing to follow: no versions kept per table ever played here.
        self._sync.pop(key, None)
        if t is not None and not t.live():
            self.values.keep_ended(key)
            self._versions.pop(key, None)
            self._newest.pop(key, None)
            self._seated.pop(key, None)
        self._dealing.forget(key)

    # -- writing a step -------------------------------------------------------------------
    async def _write(
        self, tx: StoreTx, key: str, c: Commit, expected: tuple[int, Seen] | None = None
    ) -> bool:
        """The step's table, actions, finished hands, deadline row and messages, in the
        caller's transaction; True if anything was written. ``expected``: only if the
        table is still at that version and its group's settings as seen (else raises
        ``_Refused``, nothing written)."""
        before, result, t = c.before, c.step, c.step.table
        if t is None:
            return False
        if result.fresh:
            self._sync[key] = LogSync()
        if t is before and not result.finished and not result.outs:
            return False
        self.memory.keep(key, before, t)
        seated = _users(t) if t.live() else ()
        players = None if self._seated.get(key) == seated else seated
        # One statement on PostgreSQL: the table, its actions and hands, its deadline row
        # and the messages it causes (keyed by the new version: written once per version).
        write = self._table_write(t, c, players, self._dealing.of(key, before, t))
        # In flight from now: a one-statement write commits before it returns, and its
        # notice may be heard first — it is this worker's own commit, not another's to
        # follow (nor one whose messages a lingering lease should send).
        self._written.setdefault(key, 0)
        if expected is None:
            version = await tx.write(write)
        else:
            checked = await tx.write_if(write, *expected)
            if checked is None:
                raise _Refused
            version = checked
        self._seating[key] = seated
        self._sync[key] = LogSync(t.deal_no, len(t.log))
        self._versions.pop(key, None)  # until the commit
        self._written[key] = version
        return True

    def _table_write(
        self, t: Table, c: Commit, players: tuple[str, ...] | None, dealt: Dealt | None
    ) -> TableWrite:
        """What the store must hold after this step (``step_write``: the record, the
        actions it has not got yet, finished hands, new settings), and for the other
        workers: the runtime beside the record, the deadline row, the step's messages."""
        sync = self._sync.get(t.key) or LogSync()
        record = {**t.to_json(), "meta": self.memory.meta_view(t.key)}
        record["run"] = runtime_to_json(t.run, dealt)
        now = self.clock.now()
        write = step_write(t, record, sync, c.step.finished, c.settings, now)
        return replace(
            write,
            notify=True,
            players=players,
            deadline=_row_of(c.due),
            messages=tuple((type(out).__name__, out_to_json(out)) for out in c.step.outs),
            queued=now,
        )

    def _committed(self, key: str) -> None:
        seated = self._seating.pop(key, None)
        if seated:
            self._seated[key] = seated
        elif seated is not None:
            self._seated.pop(key, None)  # the table ended: nothing to remember
        version = self._written.pop(key, None)
        if version is not None:
            self._versions[key] = self._mine[key] = version

    def _rolled_back(self, key: str) -> None:
        # What memory holds of this table may be what was not committed: forget it.
        self._written.pop(key, None)
        self._versions.pop(key, None)
        self._seating.pop(key, None)
        self._seated.pop(key, None)
        if key in self.memory.tables:
            self.memory.forget(key)

    # -- timers ---------------------------------------------------------------------------
    async def fire_due(self, tick: Tick, fired: Fired) -> None:
        """Fire the due deadlines (any table, whoever wrote it), each in the transaction
        that claims its row and holds the table's lock (``DeadlineRunner``). No
        in-process lock: a local command may hold that one while it waits for the
        table's lock."""
        outs: dict[str, tuple[Out, ...]] = {}

        async def fire(tx: StoreTx, due: DeadlineRow) -> None:
            key = due.table_key
            try:
                with self.timings.phase("timer_reload"):
                    t = await self._read(tx, key)
                if t is None:
                    await tx.set_deadline(key, "", None)
                    return
                outs[key] = await tick(TimerUnit(self, tx, t))
            except BaseException:
                self._rolled_back(key)
                raise

        async def committed(due: DeadlineRow) -> None:
            self._committed(due.table_key)
            await fired(due.table_key, outs.pop(due.table_key, ()))

        await DeadlineRunner(self.db, fire, self.clock.now, committed).pump()

    async def write_timer(self, tx: StoreTx, c: Commit) -> None:
        """A timer's step; if it changed nothing, the deadline row as the table has it
        (it was not due after all)."""
        t = c.step.table
        if t is not None and not await self._write(tx, t.key, c):
            await tx.set_deadline(t.key, *_row_of(c.due))

    # -- publishing ---------------------------------------------------------------------
    async def committed(self, key: str, outs: tuple[Out, ...]) -> None:
        """The commit wrote its messages to the outbox: relay the chat's."""
        await self._send(key)

    async def passing(self, out: Out) -> None:  # a seat thinking long (the step runs on)
        version, now = self._versions.get(getattr(out, "table", ""), 0), self.clock.now()
        self._task(queue_thinking(self.db, out, version, now, self._send))

    async def pump(self) -> None:
        """Send what is waiting in the outbox (also what a dead worker left)."""
        if self.inline_relay:
            await self.relay.pump()
        else:
            for chat in await self.relay.chats():
                await self._send(chat)

    # -- the outbox -----------------------------------------------------------------------
    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool:
        """A group-visible reply goes through the outbox like the table's messages: the
        chat's lease holder sends it, in order, within the group's budget."""
        self._task(self._queue_reply(chat_key, payload))
        return True

    async def _queue_reply(self, chat_key: str, payload: dict[str, Json]) -> None:
        async with self._replying, self.db.transaction() as tx:
            key = f"{chat_key}!{uuid.uuid4().hex}"
            await tx.enqueue(chat_key, key, REPLY, payload, self.clock.now())
        await self._send(chat_key)

    async def _send(self, key: str) -> None:
        """Relay the chat's new messages: now, or (production) in a task of their own."""
        if self.inline_relay:
            await self.relay.pump_chat(key)
            return
        self._task(self.relay.pump_chat(key))

    def _task(self, work: Coroutine[Any, Any, Any]) -> None:
        """Background work this worker keeps a hold of (``drain`` waits for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[Any]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            err = task.exception()
            log.error("background work failed: %r", err, exc_info=err)

    async def drain(self) -> None:
        """Wait for the messages being relayed in the background (tests, shutdown)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)

    async def _deliver(self, message: OutboxMessage) -> dict[str, Any]:
        if message.kind == REPLY:
            await self.sinks.reply(message.chat_key, message.payload)
            return {"worker": self.worker}
        try:
            out = out_from_json(message.payload)
        except WireError as err:
            # Written by a newer or broken version: skip it rather than block the chat.
            log.error("outbox message %s unreadable: %s", message.msg_key, err)
            return {"worker": self.worker, "skipped": "unreadable"}
        if self._versions.get(out.table, -1) < outbox_version(message.msg_key):
            await self._refresh_behind(out.table)  # the adapter reads its snapshot next
        if isinstance(out, PrivateNote) and not await self._may_warn(out):
            return {"worker": self.worker, "skipped": "played"}
        await self.sinks.deliver((out,))
        return {"worker": self.worker}

    async def _may_warn(self, note: PrivateNote) -> bool:
        """False for a turn warning whose turn has been played. The warning waits in the
        outbox behind the chat's earlier messages; one that would arrive after the player
        moved (or autoplay did) says nothing true any more."""
        if note.key != NoteCode.TURN_WARNING:
            return True
        warning = note
        await self._refresh_behind(warning.table)  # a play may have committed since
        t = self.memory.get(warning.table)
        st = t.run.state if t is not None else None
        return st is not None and st.step == param(warning.params, "step")

    async def _recall(self, owner: str, chats: list[str]) -> None:
        """On taking a chat over from another sender, before anything is sent: its
        message ids and budget as stored — of the chats about to be sent to and of every
        table under the chat's lease (a forum's topics spend one group budget, which the
        adapter recalls from all of them) — and the adapters forget what they counted."""
        keys = {*chats, *(k for k in self.memory_keys(owner) if lease_key(k) == owner)}
        for key in sorted(keys):
            await self.values.reload(key, ended=True)
        self.sinks.recall(owner)


class _Refused(Exception):
    """Another worker changed the table or its settings since this worker's copy."""


def _row_of(due: Due | None) -> tuple[str, float | None]:
    """A deadline row's kind and time (none: ``("", None)``)."""
    return ("", None) if due is None else (due.kind.value, due.at)


def _users(t: Table) -> tuple[str, ...]:
    """The users seated at a table, in order (AI seats have none)."""
    return tuple(sorted({s.user_id for s in t.seats if s and s.user_id}))
