"""The table manager's shell for several workers on one database (PostgreSQL).

The same pure core as ``TableManager`` (``bot.table.core``), with the store as the truth
and memory only a cache. A command runs in one transaction: take the table's lock across
processes, reload the table if another worker changed it since this one last saw it (the
row version), run the step, write the table, its new actions, finished hands, its
deadline row and the messages the step causes (the outbox) — commit. When this worker
has heard every commit and its copy is as new as the newest it heard of, the step runs
on the copy and the write is one statement that takes the same lock and checks the row
version (and the group's settings) before it writes — or writes nothing, and the command
runs as above (``_run_on_copy``): one round trip instead of four, and no lock held while
the step runs. The messages then leave through the outbox relay, one sender per chat;
the timers are deadline rows that any worker may fire, each once.

What a table's runtime holds beyond its record (deadline, open burn window, last result)
is saved beside it (``bot.cluster.runtime``), so another worker continues exactly.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Coroutine, Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.errors import GoujiError
from ..engine.game import apply, new_hand
from ..store import (
    ActionsSince,
    HandWrite,
    OutboxMessage,
    Seen,
    Store,
    StoredTable,
    StoreTx,
    TableWrite,
    lease_key,
)
from ..store import Deadline as DeadlineRow
from ..store.backend import Dialect
from ..table.cache import BoundedDict
from ..table.codes import NoteCode, ReplyCode
from ..table.commands import ChangeSettings, Command
from ..table.core import Env, Step, step, tick_table
from ..table.core.timers import warn_at
from ..table.interactions import Interactions
from ..table.manager import TableManager, checked_settings, off_loop_if_searching
from ..table.model import ChatRef, GroupSettings, TableStatus
from ..table.outputs import Json, PrivateNote, Reply, TableSnapshot, param
from ..table.record import Table, table_from_json
from .metawriter import MetaWriter
from .relay import OutboxRelay
from .runtime import Dealt, dealt_from_json, restore_runtime, runtime_to_json
from .timers import DeadlineRunner
from .timings import Timings
from .wire import WireError, out_from_json, out_to_json
from .worker import worker_id

log = logging.getLogger(__name__)


class WallClock:
    """Deadlines are compared across processes and machines: wall time, not monotonic."""

    def now(self) -> float:
        return time.time()


# The outbox kind of an adapter's reply (``relay_reply``), beside the table outputs' kinds.
REPLY = "Reply"
# Reloads of other workers' commits reading at once, of the bookkeeping's 10 connections
# (``bot.store.postgres.POOL_SIZES``): the relay keeps the rest.
FOLLOW_READS = 4
# Tables that ended lately whose adapter values a worker keeps (``memory_keys``).
ENDED_KEPT = 4096
# How long a chat's lease is held idle after its messages are out (``load``), as a share
# of the lease: longer than a table's usual gap between commands, so one worker sends a
# busy chat's messages while it plays; no longer than a lease, so a dead worker's chats
# wait no longer than its in-flight messages do.
LINGER = 0.8


class SharedTableManager(TableManager):
    def __init__(
        self,
        store: Store,
        *,
        worker: str | None = None,
        lease_seconds: float = 10.0,
        inline_relay: bool = False,
        relay_linger: float | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("clock", WallClock())
        super().__init__(store=store, **options)
        self.shared: Store = store
        self.worker = worker or worker_id()
        self.relay_linger = relay_linger if relay_linger is not None else LINGER * lease_seconds
        self._versions: dict[str, int] = {}  # per cached table, its row's; after the commit
        self._ended: BoundedDict[str, dict[str, Json]] = BoundedDict(ENDED_KEPT)  # memory_keys
        self._written: dict[str, int] = {}  # versions written by the open transaction
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._follow_slots = asyncio.Semaphore(FOLLOW_READS)
        self._newest: dict[str, int] = {}  # the newest version heard of, per table
        self._dealt: dict[str, Dealt] = {}  # how a table's ended hand was dealt (``_dealt_of``)
        self.timings = Timings()
        self.bookkeeping = bookkeeping = store.background()  # the outbox, adapters' values
        self.meta = meta = MetaWriter(bookkeeping, self.timings)
        self.relay = OutboxRelay(
            bookkeeping,
            self.worker,
            self._deliver,
            self.clock.now,
            lease_seconds,
            timings=self.timings,
            stored=meta.flush,
            recall=self._recall,
        )
        self.deadlines = DeadlineRunner(store, self._fire, self.clock.now, self._fired)
        # A command returns once its step committed; its messages leave in the background
        # (waiting for the platform's answers is no part of the command's time). Tests
        # that want the sends done when ``handle`` returns ask for them inline.
        self.inline_relay = inline_relay
        # Each group's settings as last read (None: none stored; ``_run_on_copy``).
        self._raw_settings: dict[str, dict[str, Any] | None] = {}
        self._listening = False  # hearing every commit (PostgreSQL's NOTIFY)
        self._sending: set[asyncio.Task[Any]] = set()
        # Who sits at each table as the store's ``table_players`` has it (written only
        # when it changes; unknown until this worker first writes the table).
        self._seated: dict[str, tuple[str, ...]] = {}
        self._seating: dict[str, tuple[str, ...]] = {}  # written by the open transaction
        self.interactions = Interactions(store, self.clock.now)
        self._replying = asyncio.Lock()  # replies queue in the order they were given

    # -- commands ---------------------------------------------------------------------
    async def handle(self, cmd: Command) -> Reply:
        key = cmd.chat.key
        clock = self.timings
        started = time.perf_counter()
        async with self.lock(key):
            clock.add("local_lock", time.perf_counter() - started)
            on_copy = await self._run_on_copy(cmd)
            reply, changed = on_copy if on_copy is not None else await self._run_locked(cmd)
        if changed is not None:
            self.settings_cache[cmd.chat.group_key] = changed
        await self._send(key)
        clock.add("command", time.perf_counter() - started)
        return reply

    async def _run_locked(self, cmd: Command) -> tuple[Reply, GroupSettings | None]:
        key, clock = cmd.chat.key, self.timings
        try:
            mark = time.perf_counter()
            async with self.shared.transaction() as tx:
                clock.add("begin", time.perf_counter() - mark)
                run = await self._run(tx, cmd)
                mark = time.perf_counter()
            clock.add("commit", time.perf_counter() - mark)
        except BaseException:
            self._rolled_back(key)
            raise
        self._committed(key)
        return run

    def _current_copy(self, cmd: Command) -> tuple[Table, int, Seen] | None:
        """The command's table as this worker holds it, its version and what its group's
        settings were when last read — when the command may run on them with no
        transaction open: this worker hears every commit (PostgreSQL), its copy is as new
        as the newest it heard of, and the command changes no settings."""
        key, group = cmd.chat.key, cmd.chat.group_key
        table = self.tables.get(key)
        if (
            not self._listening
            or table is None
            or isinstance(cmd, ChangeSettings)
            or key in self._written
            or key not in self._versions
            or self._behind(key)
            or group not in self._raw_settings
        ):
            return None
        return table, self._versions[key], (group, self._raw_settings[group])

    async def _run_on_copy(self, cmd: Command) -> tuple[Reply, GroupSettings | None] | None:
        """The command on this worker's current copy, committed in one statement that
        checks under the table's lock that neither the table nor the settings changed
        meanwhile (``StoreTx.write_if``). None if it could not be (no current copy here,
        or another worker got there first: nothing was written, the copy is forgotten),
        and the caller runs it under the lock with what is stored."""
        current = self._current_copy(cmd)
        if current is None:
            return None
        table, version, seen = current
        key, clock = cmd.chat.key, self.timings
        settings = self._settings_of(cmd.chat, seen[1])
        policy = self.policy_of(settings)
        env = Env(self.clock.now(), settings, self.config, policy, self.seed_source())
        with clock.phase("step"):
            result = await off_loop_if_searching(policy, step, table, cmd, env)
        mark = time.perf_counter()
        try:
            async with self.shared.statement() as tx:
                await self._write(tx, key, table, result, expected=(version, seen))
        except _OutOfDate:
            self._rolled_back(key)
            clock.add("write_if_refused", time.perf_counter() - mark)
            return None
        except BaseException:
            self._rolled_back(key)
            raise
        clock.add("write_if", time.perf_counter() - mark)
        self._committed(key)
        return result.reply, None

    async def _run(self, tx: StoreTx, cmd: Command) -> tuple[Reply, GroupSettings | None]:
        """The command inside its transaction: lock, reload, step, write. Returns the
        reply and the group's new settings, if it changed them."""
        key, clock = cmd.chat.key, self.timings
        with clock.phase("db_lock"):
            row, raw = await tx.lock_table_and_settings(key, cmd.chat.group_key)
        with clock.phase("reload"):
            table = await self._copy(tx, key, row)
        settings = self._settings_of(cmd.chat, raw)
        changed: GroupSettings | None = None
        if isinstance(cmd, ChangeSettings):
            checked = checked_settings(cmd, settings)
            if isinstance(checked, Reply):
                return checked, None
            settings = changed = checked
        policy = self.policy_of(settings)
        env = Env(self.clock.now(), settings, self.config, policy, self.seed_source())
        with clock.phase("step"):
            result = await off_loop_if_searching(policy, step, table, cmd, env)
        with clock.phase("write"):
            saved = await self._write(tx, key, table, result, changed)
            if changed is not None and not saved:
                await tx.save_settings(cmd.chat.group_key, changed.to_json())
        return (
            Reply.yes(ReplyCode.SETTINGS_SAVED) if changed is not None else result.reply
        ), changed

    async def group_settings(self, chat: ChatRef) -> GroupSettings:
        # Another worker may have changed them: the store answers, not a cache.
        async with self.shared.transaction(readonly=True) as tx:
            return await self._settings(tx, chat)

    async def _settings(self, tx: StoreTx, chat: ChatRef) -> GroupSettings:
        return self._settings_of(chat, await tx.load_settings(chat.group_key))

    def _settings_of(self, chat: ChatRef, raw: dict[str, Any] | None) -> GroupSettings:
        self._raw_settings[chat.group_key] = raw
        settings = GroupSettings() if raw is None else GroupSettings.from_json(raw)
        self.settings_cache[chat.group_key] = settings
        return settings

    def memory_keys(self, prefix: str) -> list[str]:
        """The tables under ``prefix`` in memory — live, or ended by this worker's own
        step and not yet forgotten — and those it saw end lately: the group budget's
        memory of a chat whose table has just ended (its last messages — the match's end
        — go out after that commit, perhaps by a worker that takes the chat over then).
        An ended table this worker still holds counts too: left out, a takeover by the
        worker that ended it recalled no calls at all (the cluster benchmark's 21).

        A chat with no table at all (replies in a group where no game was opened) keeps
        its values under its own key — a ``table_meta`` row with no table, which a
        takeover's recall reads like a table's — so its budget too is one across workers."""
        held = (k for k in self.tables if k.startswith(prefix))
        ended = (k for k in self._ended if k.startswith(prefix))
        return sorted({*held, *ended}) or [prefix]

    def remembered(self, key: str) -> Mapping[str, Json]:
        if key in self.tables:
            return super().remembered(key)
        return self._ended.get(key) or {}

    async def set_meta(self, key: str, name: str, value: Json) -> None:
        """An adapter's value (a message id, the group budget's recent calls): a row of
        its own, committed without the table's lock and without a new table version, so
        this bookkeeping never waits for a command nor makes the others reload — and in
        batches on the bookkeeping's own connections (``MetaWriter``). A value this worker
        already holds (its own, or heard from the others) is not written again."""
        if key in self.tables and name in self.meta_of(key) and self.meta_of(key)[name] == value:
            return
        with self.timings.phase("set_meta"):
            await self.meta.write(key, name, value)
            if key in self.tables:
                self.meta_of(key)[name] = value
            elif key in self._ended:
                self._ended[key][name] = value

    async def load(self) -> int:
        """Nothing to resume (every step was committed whole; deadlines are rows): read the
        live tables into memory, and keep them fresh as other workers commit, so what the
        adapters read before a command (menus, snapshots) is current. Commands never rely
        on it: they reload under the table's lock. Returns how many tables are live."""
        async with self.shared.transaction(readonly=True) as tx:
            keys = [key for key, _ in await tx.live_tables()]
        for key in keys:
            await self.refresh(key)
        # Tables from before the seat index (schema 5) enter it here.
        seated = [(u, k) for k in keys if k in self.tables for u in _users(self.tables[k])]
        async with self.shared.transaction() as tx:
            await tx.add_players(seated)
        self._listening = await self.shared.listen_tables(self._heard)
        if self._listening:
            # Hearing every commit, this worker can go on sending a chat's messages after
            # its own are out (``OutboxRelay.linger``); without it, the others' would wait
            # for its pass over the outbox.
            self.relay.linger = self.relay_linger
        await self.shared.listen_meta(self._heard_meta)
        return len(keys)

    def _heard(self, key: str, version: int) -> None:
        self._newest[key] = max(version, self._newest.get(key, 0))
        if self._versions.get(key, -1) >= version or key in self._written:
            return  # this worker wrote it, or already has it
        if self.relay.lingers(key):
            # This worker holds the chat's lease idle: the messages of that commit are
            # its to send (the committing worker could not take the lease).
            self._task(self.relay.pump_chat(key))
        if key not in self._refreshing:
            task = asyncio.get_running_loop().create_task(self._follow(key))
            self._refreshing[key] = task
            task.add_done_callback(lambda _: self._refreshing.pop(key, None))

    def _heard_meta(self, key: str, name: str, value: Any, has_value: bool) -> None:
        if key not in self.tables and key not in self._ended:
            return  # read with the table when it is loaded
        if not has_value:
            self._task(self._reload_meta(key))
        elif key in self.tables:
            self.meta_of(key)[name] = value
        else:
            self._ended[key][name] = value

    async def _reload_meta(self, key: str, ended: bool = False) -> None:
        """Read a table's adapter values as stored (``ended``: kept even without a live
        table in memory, for ``memory_keys``)."""
        async with self.bookkeeping.transaction(readonly=True) as tx:
            rows = await tx.load_table_meta(key)
        if key in self.tables:
            self.meta_of(key).update(rows)
        elif ended or key in self._ended:
            self._ended[key] = {**(self._ended.get(key) or {}), **rows}

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
            if key not in self.tables or not self._behind(key):
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
        if self.shared.dialect is Dialect.SQLITE:
            async with self.lock(key), self.bookkeeping.transaction(readonly=True) as tx:
                await self._read(tx, key)
            return
        async with self.bookkeeping.transaction(readonly=True) as tx, self.lock(key):
            await self._read(tx, key)

    async def tables_of(self, user_id: str, platform: str | None = None) -> list[str]:
        """The live tables where this person has a seat, whichever worker seated them
        (the store's index, not this worker's memory)."""
        async with self.shared.transaction(readonly=True) as tx:
            return await tx.tables_of(user_id, "" if platform is None else platform + ":")

    async def current(self, chat: ChatRef) -> TableSnapshot | None:
        """The live table at this chat. While this worker hears every commit and its copy
        is as new as the newest it heard of, the copy answers (adapters ask before each
        button press; a command reloads under the lock anyway); else the store does, at
        once — the reload of the commit heard may still be queued behind others."""
        key = chat.key
        t = self.tables.get(key)
        fresh = self._listening and self._versions.get(key, -1) >= self._newest.get(key, 0)
        if t is not None and fresh and key not in self._written:
            return self.snapshot(key) if t.live() else None
        return await super().current(chat)

    async def reread(self, chat: ChatRef) -> TableSnapshot | None:
        return await super().current(chat)  # the store's row, whatever this worker heard

    async def catch_up(self, prefix: str) -> int:
        """Now, not in their turn among the follows queued (a button of a match begun on
        another worker names a table by an id no copy here can give yet)."""
        behind = [k for k in list(self._newest) if k.startswith(prefix) and self._behind(k)]
        await asyncio.gather(*(self.refresh(k) for k in behind))
        return len(behind)

    async def refresh(self, key: str) -> None:
        """Bring this worker's copy of a table up to date (before an adapter reads it)."""
        async with self.lock(key):
            await self._get(key)

    async def _get(self, key: str) -> Table | None:
        # Called under the in-process lock (``current``): read, do not lock the row.
        async with self.shared.transaction(readonly=True) as tx:
            return await self._read(tx, key)

    async def _read(self, tx: StoreTx, key: str) -> Table | None:
        """The table as stored, its actions read with the row (one round trip on
        PostgreSQL): those the cached copy lacks of its deal."""
        cached = self.tables.get(key)
        held = (-1, 0) if cached is None else (cached.deal_no, len(cached.log))
        row, ahead = await tx.load_table_since(key, *held)
        return await self._copy(tx, key, row, ahead)

    # -- the table inside a transaction ------------------------------------------------
    async def _locked(self, tx: StoreTx, key: str) -> Table | None:
        """The table under its cross-process lock, reloaded if another worker changed it."""
        return await self._copy(tx, key, await tx.lock_table(key))

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
        cached = self.tables.get(key)
        if cached is not None and self._versions.get(key, -1) >= row.version:
            return cached  # as new as the row (or newer: a read that began before our commit)
        self._seated.pop(key, None)  # another worker wrote it: its seats too, maybe
        try:
            t = await self._rebuild(tx, key, row, cached, ahead)
        except (KeyError, TypeError, ValueError, GoujiError) as err:
            if row.live:
                raise
            # An ended table this version cannot read back: nothing to show, as before.
            log.warning("ended table %s not read back: %r", key, err)
            self._gone(key)
            return None
        self.keep(key, cached, t)
        self._versions[key] = row.version
        return t

    def _gone(self, key: str) -> None:
        """No table to hold at ``key``: forget this worker's copy, keeping its adapter
        values (``memory_keys``)."""
        if key in self.tables:
            self._ended[key] = dict(self.meta_of(key))
            self.forget(key)
        self._versions.pop(key, None)
        self._newest.pop(key, None)  # nothing left to follow (or to catch up with)
        self._seated.pop(key, None)

    def _forget(self, key: str) -> None:
        # An ended table leaving memory leaves its adapter values behind (``memory_keys``),
        # and nothing to follow: no versions kept per table ever played here.
        t = self.tables.get(key)
        if t is not None and not t.live():
            self._ended[key] = dict(self.meta_of(key))
            self._versions.pop(key, None)
            self._newest.pop(key, None)
            self._seated.pop(key, None)
        self._dealt.pop(key, None)
        super()._forget(key)

    async def _first_meta(self, tx: StoreTx, key: str, record: dict[str, Any]) -> None:
        """The adapter values of a table read for the first time (later changes come
        with their notifications). A copy held already keeps its own: this worker's and
        those it heard since. The record carries the committing worker's copy of them,
        which may be older — it had not yet heard the chat's sender store a new table or
        hand message's id — and, put back over a held copy, it had a table message
        posted again (``tests/store/test_forum.py``). The values are written by the
        chat's one sender, and a sender taking the chat over reads them from the store
        first (``_recall``)."""
        meta = record.get("meta")
        kept = self.meta_of(key)
        kept.clear()
        kept.update(meta if isinstance(meta, dict) else {})
        kept.update(await tx.load_table_meta(key))

    async def _rebuild(
        self,
        tx: StoreTx,
        key: str,
        row: StoredTable,
        cached: Table | None,
        ahead: ActionsSince | None = None,
    ) -> Table:
        """The table exactly as the worker that wrote the row left it. A cached copy of the
        same deal (memory holds committed states only) is caught up with the actions it
        lacks instead of replaying the deal from its first card (``ahead``: those read
        with the row, if they are the ones it lacks)."""
        record = dict(row.record)
        t = table_from_json(record)
        if cached is None:
            await self._first_meta(tx, key, record)
        run = record.get("run") or {}
        dealt = self._note_dealt(key, t, dealt_from_json(run.get("dealt")))
        if t.rules is not None and (t.status is TableStatus.PLAYING or dealt is not None):
            same_deal = (
                cached is not None
                and cached.run.state is not None
                and (cached.match_seed, cached.deal_no, cached.hand_seed)
                == (t.match_seed, t.deal_no, t.hand_seed)
            )
            if cached is not None and cached.run.state is not None and same_deal:
                state, replayed = cached.run.state, list(cached.log)
            else:
                owed, streaks = (
                    (t.hand_owed, t.hand_streaks) if dealt is None else (dealt.owed, dealt.streaks)
                )
                state, _ = new_hand(t.rules, t.hand_seed, t.hand_leader, owed, streaks=streaks)
                replayed = []
            start = len(replayed)
            if ahead is not None and (ahead.deal_no, ahead.start) == (t.deal_no, start):
                logged = list(ahead.actions)
            else:
                logged = await tx.load_actions(key, t.deal_no, start=start)
            for seat, raw in logged:
                action = Action.from_json(raw)
                state, _ = apply(state, seat, action)
                replayed.append((seat, action))
            t.log = tuple(replayed)
            t.run.state = state
        restore_runtime(t.run, run)
        self.mark_saved(key, t.deal_no, len(t.log))
        return t

    def _note_dealt(self, key: str, t: Table, dealt: Dealt | None) -> Dealt | None:
        """How the table's ended hand was dealt, as its row has it (kept, so this
        worker's next write of the table carries it on); None while a hand is in play,
        or when the row has none for its deal."""
        if t.status is TableStatus.PLAYING or dealt is None or dealt.deal_no != t.deal_no:
            self._dealt.pop(key, None)
            return None
        self._dealt[key] = dealt
        return dealt

    def _dealt_of(self, key: str, before: Table | None, t: Table) -> Dealt | None:
        """What the row of ``t`` keeps of how its last hand was dealt: once the hand has
        ended, the table's tributes and streaks are the next hand's (``Dealt``)."""
        if t.status is TableStatus.PLAYING:
            self._dealt.pop(key, None)
            return None
        if (
            before is not None
            and before is not t
            and before.status is TableStatus.PLAYING
            and before.deal_no == t.deal_no
        ):
            self._dealt[key] = Dealt(t.deal_no, before.hand_owed, before.hand_streaks)
        dealt = self._dealt.get(key)
        return dealt if dealt is not None and dealt.deal_no == t.deal_no else None

    # -- writing a step -------------------------------------------------------------------
    async def _write(
        self,
        tx: StoreTx,
        key: str,
        before: Table | None,
        result: Step,
        settings: GroupSettings | None = None,
        force: bool = False,
        expected: tuple[int, Seen] | None = None,
    ) -> bool:
        """The step's table, actions, finished hands, deadline row and messages, in the
        caller's transaction; True if anything was written. ``expected``: only if the
        table is still at that version and its group's settings as seen (else raises
        ``_OutOfDate``, nothing written)."""
        t = result.table
        if t is None:
            return False
        if result.fresh:
            self.mark_saved(key, None, 0)
        if t is before and not result.finished and not result.outs and not force:
            return False
        self.keep(key, before, t)
        seated = _users(t) if t.live() else ()
        players = None if self._seated.get(key) == seated else seated
        # One statement on PostgreSQL: the table, its actions and hands, its deadline row
        # and the messages it causes (keyed by the new version: written once per version).
        write = self._table_write(t, result, settings, players, self._dealt_of(key, before, t))
        # In flight from now: a one-statement write commits before it returns, and its
        # notice may be heard first — it is this worker's own commit, not another's to
        # follow (nor one whose messages a lingering lease should send).
        self._written.setdefault(key, 0)
        if expected is None:
            version = await tx.write(write)
        else:
            checked = await tx.write_if(write, *expected)
            if checked is None:
                raise _OutOfDate
            version = checked
        self._seating[key] = seated
        self.mark_saved(key, t.deal_no, len(t.log))
        self._versions.pop(key, None)  # until the commit
        self._written[key] = version
        return True

    def _table_write(
        self,
        t: Table,
        result: Step,
        settings: GroupSettings | None,
        players: tuple[str, ...] | None = None,
        dealt: Dealt | None = None,
    ) -> TableWrite:
        """What the store must hold after this step: the record with its runtime, the
        actions it has not got yet (all of a new deal), finished hands, new settings, the
        deadline row and the step's messages."""
        deal, saved = self.saved_log(t.key)
        new_deal = deal != t.deal_no
        start = 0 if new_deal else saved
        group = t.chat.group_key
        return TableWrite(
            t.key,
            {**self.record_of(t), "run": runtime_to_json(t.run, dealt)},
            t.live(),
            updated=self.clock.now(),
            new_actions=tuple(
                (t.deal_no, i, seat, action.to_json())
                for i, (seat, action) in enumerate(t.log[start:], start=start)
            ),
            drop_all_actions=new_deal and deal is None,
            drop_actions_before=t.deal_no if new_deal and deal is not None else None,
            hands=tuple(HandWrite(group, h.deal_no, h.record, h.players) for h in result.finished),
            settings=None if settings is None else (group, settings.to_json()),
            notify=True,
            players=players,
            deadline=self._due_of(t),
            messages=tuple((type(out).__name__, out_to_json(out)) for out in result.outs),
            queued=self.clock.now(),
        )

    def _committed(self, key: str) -> None:
        seated = self._seating.pop(key, None)
        if seated:
            self._seated[key] = seated
        elif seated is not None:
            self._seated.pop(key, None)  # the table ended: nothing to remember
        version = self._written.pop(key, None)
        if version is not None:
            self._versions[key] = version

    def _rolled_back(self, key: str) -> None:
        # What memory holds of this table may be what was not committed: forget it.
        self._written.pop(key, None)
        self._versions.pop(key, None)
        self._seating.pop(key, None)
        self._seated.pop(key, None)
        if key in self.tables:
            self.forget(key)

    def _due_of(self, t: Table) -> tuple[str, float | None]:
        """The deadline row: when the table next needs the clock (a turn warning first)."""
        d = t.run.deadline
        if d is None or d.at is None or not t.live():
            return "", None
        warned = warn_at(t, self.config.warn_before_seconds)
        return d.kind.value, d.at if warned is None else warned

    # -- timers ---------------------------------------------------------------------------
    async def poll_timers(self) -> None:
        """One pass: fire the due deadlines (any table, whoever wrote it), then send what
        is waiting in the outbox (also what a dead worker left)."""
        await self.deadlines.pump()
        if self.inline_relay:
            await self.relay.pump()
        else:
            for chat in await self.relay.chats():
                await self._send(chat)
        self.evict()

    async def _fire(self, tx: StoreTx, due: DeadlineRow) -> None:
        # The runner holds the deadline row and the table's lock: no in-process lock here
        # (a local command may hold that one while it waits for the table's lock).
        key = due.table_key
        try:
            with self.timings.phase("timer_reload"):
                t = await self._read(tx, key)
            if t is None:
                await tx.set_deadline(key, "", None)
                return
            settings = await self._settings(tx, t.chat)
            policy = self.policy_of(settings)
            env = Env(self.clock.now(), settings, self.config, policy)
            result = await off_loop_if_searching(policy, tick_table, t, env)
            if not await self._write(tx, key, t, result):
                await tx.set_deadline(key, *self._due_of(t))  # not due after all
        except BaseException:
            self._rolled_back(key)
            raise

    async def _fired(self, due: DeadlineRow) -> None:
        self._committed(due.table_key)
        await self._send(due.table_key)

    # -- the outbox -----------------------------------------------------------------------
    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool:
        """A group-visible reply goes through the outbox like the table's messages: the
        chat's lease holder sends it, in order, within the group's budget."""
        self._task(self._queue_reply(chat_key, payload))
        return True

    async def _queue_reply(self, chat_key: str, payload: dict[str, Json]) -> None:
        async with self._replying, self.shared.transaction() as tx:
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
            for sink in self._reply_sinks:
                await sink(message.chat_key, message.payload)
            return {"worker": self.worker}
        try:
            out = out_from_json(message.payload)
        except WireError as err:
            # Written by a newer or broken version: skip it rather than block the chat.
            log.error("outbox message %s unreadable: %s", message.msg_key, err)
            return {"worker": self.worker, "skipped": "unreadable"}
        if self._versions.get(out.table, -1) < _version_of(message.msg_key):
            await self._refresh_behind(out.table)  # the adapter reads its snapshot next
        if isinstance(out, PrivateNote) and not await self._may_warn(out):
            return {"worker": self.worker, "skipped": "played"}
        await self.publish((out,))
        return {"worker": self.worker}

    async def _may_warn(self, note: PrivateNote) -> bool:
        """False for a turn warning whose turn has been played. The warning waits in the
        outbox behind the chat's earlier messages; one that would arrive after the player
        moved (or autoplay did) says nothing true any more."""
        if note.key != NoteCode.TURN_WARNING:
            return True
        warning = note
        await self._refresh_behind(warning.table)  # a play may have committed since
        t = self.tables.get(warning.table)
        st = t.run.state if t is not None else None
        return st is not None and st.step == param(warning.params, "step")

    async def _recall(self, owner: str, chats: list[str]) -> None:
        """On taking a chat over from another sender, before anything is sent: its
        message ids and budget as stored — of the chats about to be sent to and of every
        table under the chat's lease (a forum's topics spend one group budget, which the
        adapter recalls from all of them) — and the adapters forget what they counted."""
        keys = {*chats, *(k for k in self.memory_keys(owner) if lease_key(k) == owner)}
        for key in sorted(keys):
            await self._reload_meta(key, ended=True)
        for sink in self._recall_sinks:
            sink(owner)


class _OutOfDate(Exception):
    """Another worker changed the table or its settings since this worker's copy."""


def _users(t: Table) -> tuple[str, ...]:
    """The users seated at a table, in order (AI seats have none)."""
    return tuple(sorted({s.user_id for s in t.seats if s and s.user_id}))


def _version_of(msg_key: str) -> int:
    """The table version a message was written at (``<table>#<version>.<n>``)."""
    _, _, tail = msg_key.rpartition("#")
    version, _, _ = tail.partition(".")
    return int(version) if version.isdigit() else 1 << 62
