"""The table manager: every command and timer of every table, the same way.

Every change to a table is one pure step of ``bot.table.core`` (``(Table, Command) ->
Step``); the manager does what a pure function cannot, always in this order: take the
table's lock, open a unit of it from its repository, build the step's ``Env`` (clock,
settings, policy, seed), run the step (in a worker thread, watched, when the AI
searches), commit it through the unit, and hand the outputs to its publisher. Where the
tables are kept and how outputs travel are its two ports (``bot.table.ports``): one
process (``bot.table.local``: memory and SQLite) or several workers
(``bot.cluster.shell``: PostgreSQL and the outbox). Adapters use ``handle`` and the
public queries below, nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..ai import Policy, policy_for
from ..engine.errors import GoujiError
from ..store import PlayerStats, Store
from .ahead import Ahead, ai_owed
from .cache import BoundedDict
from .clock import Clock, SystemClock
from .codes import ReplyCode
from .commands import Act, ChangeSettings, Command, Join
from .core import (
    Config,
    Env,
    Step,
    private_snapshot,
    resume,
    step,
    table_snapshot,
    tick_table,
)
from .hints import Hint, table_hint
from .interactions import Interactions
from .local import LocalPublisher, LocalRepository
from .model import ChatRef, GroupSettings, TableStatus
from .outputs import (
    Deadline,
    DeadlineKind,
    HandChanged,
    Json,
    Out,
    PrivateSnapshot,
    Reply,
    TableChanged,
    TableSnapshot,
    params_of,
)
from .ports import Access, Commit, HandRow, OutOfDate, Profile, Publisher, Repository, Unit
from .ports import next_due as _next_due
from .record import Table
from .settings import apply_setting_changes
from .sinks import Platform, RecallSink, ReplySink, Sink, Sinks
from .thinking import run_watched

__all__ = ["HandRow", "RecallSink", "ReplySink", "Sink", "TableManager", "checked_settings"]

log = logging.getLogger(__name__)

R = TypeVar("R")


@dataclass(slots=True)
class _Done:
    """A command's step as committed: its answer, outputs, table, new group settings."""

    reply: Reply
    outs: tuple[Out, ...]
    table: Table | None
    settings: GroupSettings | None
    policy: Policy | None = None  # the table's AI (to think ahead with: ``ahead``)


class TableManager:
    # A searching AI seat that has thought longer than this shows it in the table
    # (``thinking``); meanwhile the snapshot drawn before its decision is the table's.
    thinking_after: float = 1.0
    # During a person's turn the searching AI seats after it work their decisions out
    # for the person's likely answers (``ahead``): what they decide stays the same.
    think_ahead: bool = True
    # A front end with one table of its own (the terminal) is told a committing step's
    # outputs so far before each AI turn (``Env.live``), to show AI moves as they are made.
    live: Callable[[tuple[Out, ...]], None] | None = None

    def __init__(
        self,
        store: Store | None = None,
        clock: Clock | None = None,
        policy: Policy | None = None,
        seed_source: Callable[[], int] | None = None,
        burn_window_seconds: float = 3.0,
        declare_window_seconds: float = 12.0,
        between_hands_seconds: float = 12.0,
        warn_before_seconds: float = 10.0,
        no_answer_seconds: int = 12,
        finished_ttl: float = 600.0,
        idle_ttl: float = 3600.0,
        settings_cache_size: int = 4096,
        *,
        repository: Repository | None = None,
        publisher: Publisher | None = None,
        sinks: Sinks | None = None,
    ) -> None:
        """One process by default (``store``: its SQLite file, or none); a
        ``repository`` and ``publisher`` for anything else (``bot.cluster.shell``),
        with the ``sinks`` the publisher hands outputs to."""
        self.clock = clock or SystemClock()
        self.sinks = sinks or Sinks()
        self.repository: Repository = repository or LocalRepository(
            store, self.clock, settings_cache_size
        )
        self.publisher: Publisher = publisher or LocalPublisher(self.sinks)
        self.memory = self.repository.memory
        # ``policy`` (tests) plays every table; otherwise each group's ``ai_level`` decides.
        self.fixed_policy = policy
        self.policy: Policy = policy or policy_for("normal")
        self._level_policies: dict[str, Policy] = {}
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self.config = Config(
            burn_window_seconds, declare_window_seconds, between_hands_seconds,
            warn_before_seconds, no_answer_seconds,
        )  # fmt: skip
        self.finished_ttl = finished_ttl  # a finished table leaves memory after this
        self.idle_ttl = idle_ttl  # so does a table nobody touched (it reloads on demand)
        self.ahead = Ahead()
        self._thinking: dict[str, TableSnapshot] = {}  # while an AI seat thinks (``_core``)
        # The last private view drawn per (table, seat), with the table object and version
        # it was drawn from (a step always makes a new table object).
        self._privates: dict[tuple[str, int], tuple[Table, int, PrivateSnapshot]] = {}
        self._later: set[asyncio.Task[None]] = set()  # AI moves after ``handle(ai_later)``
        self.memory.on_forget(self._forgotten)
        self.sinks.fill_with(self._filled)

    # -- wiring -----------------------------------------------------------------------
    def subscribe(self, sink: Sink, platform: Platform | None = None, hands: bool = False) -> None:
        """Outputs of ``platform``'s tables (a ``FrontEnd``; None: every table's) to
        ``sink``, thick (``bot.table.sinks``); ``hands``: with each player's own view,
        for a sink that shows it to that player alone."""
        self.sinks.subscribe(sink, platform, hands)

    def subscribe_replies(self, sink: ReplySink) -> None:
        """Where ``relay_reply``'s replies are handed back to the adapters to send."""
        self.sinks.subscribe_replies(sink)

    def subscribe_recalls(self, sink: RecallSink) -> None:
        """Who forgets a chat's in-memory counts when another worker may have sent there
        (only a cluster's workers call them; one process is every chat's one sender)."""
        self.sinks.subscribe_recalls(sink)

    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool:
        """Queue a group-visible reply behind the chat's table messages, to be sent by the
        chat's one sender within its group budget (several workers: bot.cluster.shell);
        True if queued. One process has one sender per chat already: False, and the
        adapter sends the reply itself."""
        return self.publisher.relay_reply(chat_key, payload)

    async def drain(self) -> None:
        """Wait for the messages being relayed in the background and stop thinking ahead
        (tests, shutdown)."""
        await self.ahead.close()
        await self.publisher.drain()

    def lock(self, key: str) -> asyncio.Lock:
        return self.memory.lock(key)

    @property
    def tables(self) -> Mapping[str, Table]:
        """The tables in memory (read-only; for tests and benchmarks, not for adapters)."""
        return self.memory.tables

    @property
    def store(self) -> Store | None:
        return self.repository.store

    @store.setter
    def store(self, store: Store | None) -> None:
        """None: go on without the store (the terminal, when its file cannot be opened)."""
        self.repository.store = store

    @property
    def shared(self) -> bool:
        """Other workers commit these tables too (the web table polls what it shows)."""
        return self.repository.shared

    @property
    def timings(self) -> Profile | None:
        """Where a worker's command time goes (a cluster's worker; None alone)."""
        return self.repository.timings

    @property
    def settings_cache(self) -> BoundedDict[str, GroupSettings]:
        """Each group's settings as last read (tests set them here)."""
        return self.repository.settings_cache

    @property
    def interactions(self) -> Interactions:
        return self.repository.interactions

    # -- public queries ---------------------------------------------------------------
    def snapshot(self, key: str) -> TableSnapshot | None:
        thinking = self._thinking.get(key)
        if thinking is not None:
            return thinking  # the table as it stands while an AI seat thinks
        t = self.memory.get(key)
        return None if t is None else table_snapshot(t, self.memory.meta_view(key))

    def private_snapshot(self, key: str, user_id: str) -> PrivateSnapshot | None:
        t = self.memory.get(key)
        if t is None or t.run.state is None:
            return None
        seat = t.seat_of(user_id)
        if seat is None:
            return None
        # A chat draws the same hand several times a state (the press's check, the
        # keyboard after a play, the picture the relay sends), each asking the engine for
        # every legal move: 8 % of a busy cluster worker's time, before this.
        drawn = self._privates.get((key, seat))
        if drawn is not None and drawn[0] is t and drawn[1] == t.version:
            return drawn[2]
        priv = private_snapshot(t, seat)
        self._privates[(key, seat)] = (t, t.version, priv)
        return priv

    def _filled(self, out: Out, hands: bool) -> Out:
        """An output with the snapshot it announces, as the table stands now."""
        if isinstance(out, TableChanged):
            snap = self.snapshot(out.table)
            return out if snap is None else replace(out, version=snap.version, snapshot=snap)
        if isinstance(out, HandChanged):
            t = self.memory.get(out.table)
            version = out.version if t is None else t.version
            priv = self.private_snapshot(out.table, out.user) if hands else None
            return replace(out, version=version, snapshot=priv)
        return out

    async def hint(self, key: str, user_id: str) -> Hint:
        """💡 The expert's choice for this player's current decision, if the group allows
        hints (``bot.table.hints``); searched off the event loop."""
        if key not in self.memory.tables:
            await self.current(ChatRef.from_key(key))  # left memory, or another worker's
        return await table_hint(self.memory.get(key), user_id)

    async def current(self, chat: ChatRef) -> TableSnapshot | None:
        """The live table at this chat: the copy held when the repository knows it
        current, else read under the table's lock (from the store if it left memory)."""
        t = self.repository.fresh(chat.key)
        if t is None:
            t = await self._read(chat)
        if t is None or not t.live():
            return None
        return self.snapshot(chat.key)

    async def reread(self, chat: ChatRef) -> TableSnapshot | None:
        """``current``, never answered from a copy this process believes current: for a
        button made from a newer state than its copy (another process committed that
        state, and word of it has not arrived). One process: memory is the truth."""
        t = await self._read(chat)
        if t is None or not t.live():
            return None
        return self.snapshot(chat.key)

    async def _read(self, chat: ChatRef) -> Table | None:
        async with self.lock(chat.key):
            t = await self._load(chat)
        if t is None:
            self.memory.drop_lock(chat.key)
        return t

    async def catch_up(self, prefix: str) -> int:
        """Read again every table starting with ``prefix`` whose copy is known to be
        behind (another process committed a newer state); how many. One process: none."""
        return await self.repository.catch_up(prefix)

    async def refresh(self, key: str) -> None:
        """Bring this process's copy of a table up to date (before an adapter reads it)."""
        await self._read(ChatRef.from_key(key))

    async def tables_of(self, user_id: str, platform: str | None = None) -> list[str]:
        """Keys of the live tables where this person has a seat."""
        return await self.repository.tables_of(user_id, platform)

    def live_keys(self, prefix: str) -> list[str]:
        """Keys of the live tables in memory that start with ``prefix``."""
        tables = self.memory.tables
        return sorted(k for k, t in tables.items() if k.startswith(prefix) and t.live())

    def match_seeds(self, prefix: str) -> dict[str, int]:
        """The match seed of each live table in memory whose key starts with ``prefix``
        (what a short table id hashes, so an adapter can look an id up without a
        snapshot of every table)."""
        tables = self.memory.tables
        return {k: t.match_seed for k, t in tables.items() if k.startswith(prefix) and t.live()}

    def memory_keys(self, prefix: str) -> list[str]:
        """The tables whose adapter values keep the memory of the chats under ``prefix``
        (the Telegram group budget's recent calls): the live ones in memory, and for a
        cluster's worker those that ended lately (``bot.cluster.shell``)."""
        return self.repository.memory_keys(prefix)

    def remembered(self, key: str) -> Mapping[str, Json]:
        """A table's adapter values as this process knows them (read-only)."""
        return self.repository.remembered(key)

    async def leaderboard(self, group_key: str, limit: int = 10) -> list[PlayerStats]:
        return await self.repository.leaderboard(group_key, limit)

    async def hands_from(self, group_key: str, number: int, limit: int = 1) -> list[HandRow]:
        """Finished hands of a group from its ``number``-th on, with their short ids
        (bot.records); none without a store."""
        return await self.repository.hands_from(group_key, number, limit)

    async def recent_hands(self, group_key: str, limit: int = 10) -> list[HandRow]:
        """The group's last finished hands with their short ids, newest first."""
        return await self.repository.recent_hands(group_key, limit)

    @property
    def keeps_stats(self) -> bool:
        return self.repository.store is not None

    async def group_settings(self, chat: ChatRef) -> GroupSettings:
        return await self.repository.group_settings(chat)

    def use_settings(self, chat: ChatRef, settings: GroupSettings) -> None:
        """Settings for a group without a store (the terminal, tests, benchmarks)."""
        self.repository.cache_settings(chat, settings)

    async def set_meta(self, key: str, name: str, value: Json) -> None:
        """Let an adapter keep a small JSON value with the table (e.g. its message id), so
        it survives a restart. Kept beside the table, never read by the core."""
        if await self.repository.set_meta(key, name, value):
            return
        if await self._read(ChatRef.from_key(key)) is not None:
            await self.repository.set_meta(key, name, value)

    def policy_of(self, settings: GroupSettings) -> Policy:
        """The policy of a group's AI seats: the injected one, else its ``ai_level``."""
        if self.fixed_policy is not None:
            return self.fixed_policy
        policy = self._level_policies.get(settings.ai_level)
        if policy is None:
            policy = self._level_policies[settings.ai_level] = policy_for(settings.ai_level)
        return policy

    def _env(self, settings: GroupSettings, seeded: bool = False) -> tuple[Policy, Env]:
        """The one place a step's ``Env`` is made: now, the group's settings, the timers'
        config, its AI policy, and a new match seed for a command that may open a table."""
        policy = self.policy_of(settings)
        seed = self.seed_source() if seeded else 0
        return policy, Env(self.clock.now(), settings, self.config, policy, seed, live=self.live)

    def _commit_of(
        self, before: Table | None, result: Step, settings: GroupSettings | None = None
    ) -> Commit:
        t = result.table
        due = None if t is None else _next_due(t, self.config.warn_before_seconds)
        return Commit(before, result, due, settings)

    # -- commands ---------------------------------------------------------------------
    async def handle(self, cmd: Command, ai_later: bool = False) -> Reply:
        """Run one command and answer it. ``ai_later``: a play is answered once it is
        committed and published, before the AI seats answer it — they move at once in a
        step of their own (``Env.ai_later``; a page's tap is accepted without waiting for
        five seats' thinking). The moves are the same either way."""
        key = cmd.chat.key
        started = time.perf_counter()
        self.ahead.stop(key)  # a person acted: what the AI worked out ahead is kept
        # A settings change never runs on a copy: it may leave the table as it is, and a
        # copy commits only a table that changed (``bot.cluster.shell``).
        access = Access.LOCKED if isinstance(cmd, ChangeSettings) else Access.COPY
        async with self.lock(key):
            self._time("local_lock", started)
            try:
                async with self.repository.open(cmd.chat, access) as unit:
                    done = await self._command(unit, cmd, key, ai_later)
            except OutOfDate:
                async with self.repository.open(cmd.chat, Access.LOCKED) as unit:
                    done = await self._command(unit, cmd, key, ai_later)
        if done.settings is not None:
            self.repository.cache_settings(cmd.chat, done.settings)
        if done.table is None:
            self.memory.drop_lock(key)
        await self.publisher.committed(key, done.outs)
        if done.table is not None and ai_owed(done.table):
            task = asyncio.create_task(self._ai_moves(cmd.chat))
            self._later.add(task)
            task.add_done_callback(self._later.discard)
        else:
            self._ahead(key, done.table, done.policy)
        self._time("command", started)
        return done.reply

    def _ahead(self, key: str, t: Table | None, policy: Policy | None) -> None:
        """After any step: if it left a person to act at a table with searching AI seats
        (and no AI moves owed), they work out their next decisions meanwhile; else any
        thinking of the table's past state stops."""
        if t is None or policy is None or not self.think_ahead:
            self.ahead.stop(key)
        else:
            self.ahead.start(key, t, policy)

    async def _ai_moves(self, chat: ChatRef) -> None:
        """The AI seats' moves an ``ai_later`` step left due: its deadline, fired now (the
        timers would fire it too, later; whichever comes second finds nothing due).
        Thinking ahead starts after them (``_tick``), never while they are owed."""
        try:
            async with self.lock(chat.key), self.repository.open(chat, Access.LOCKED) as unit:
                outs = await self._tick(unit)
            await self.publisher.committed(chat.key, outs)
        except Exception:
            log.exception("AI moves after an answered play failed; the timers retry")

    async def settle(self) -> None:
        """Wait until the AI moves of every ``ai_later`` play have been made."""
        while self._later:
            await asyncio.gather(*list(self._later), return_exceptions=True)

    async def _command(self, unit: Unit, cmd: Command, key: str, ai_later: bool = False) -> _Done:
        """The command on its unit: resume a restored table, check new settings, step,
        commit."""
        table, outs = await self._resumed(unit, think=False)  # the command steps on
        settings = await unit.settings()
        changed: GroupSettings | None = None
        if isinstance(cmd, ChangeSettings):
            checked = checked_settings(cmd, settings)
            if isinstance(checked, Reply):
                return _Done(checked, outs, table, None)
            settings = changed = checked
        policy, env = self._env(settings, seeded=True)
        mark = time.perf_counter()
        if ai_later and isinstance(cmd, Act):
            env = replace(env, ai_later=True)
        result = await self._core(key, policy, step, table, cmd, env)
        self._time("step", mark)
        await unit.commit(self._commit_of(table, result, changed))
        reply = Reply.yes(ReplyCode.SETTINGS_SAVED) if changed is not None else result.reply
        return _Done(reply, outs + result.outs, result.table, changed, policy)

    async def check(self, cmd: Join) -> Reply:
        """What the table would answer to this join, changing nothing: an adapter asks
        before it sends someone to open the bot (no start link for a table that cannot
        take them, e.g. one already playing)."""
        async with self.lock(cmd.chat.key), self.repository.open(cmd.chat, Access.READ) as unit:
            table, outs = await self._resumed(unit)
            _, env = self._env(await unit.settings())
        if outs:  # a table rebuilt and resumed (nothing else was committed)
            await self.publisher.committed(cmd.chat.key, outs)
        return step(table, cmd, replace(env, live=None)).reply  # nothing of it is shown

    # -- loading ----------------------------------------------------------------------
    async def _load(self, chat: ChatRef) -> Table | None:
        """The table as its repository has it (under its lock)."""
        async with self.repository.open(chat, Access.READ) as unit:
            t, outs = await self._resumed(unit)
        if outs:  # a table rebuilt and resumed (a read commits nothing else)
            await self.publisher.committed(chat.key, outs)
        return t

    async def _resumed(
        self, unit: Unit, think: bool = True
    ) -> tuple[Table | None, tuple[Out, ...]]:
        """The unit's table, restarted by the core first if it was rebuilt from a store
        that keeps no runtime (its timers; an AI seat to move); ``think``: a person left
        to act has the AI seats think ahead (not when a command steps on at once)."""
        t = unit.table
        if t is None or not unit.restored:
            return t, ()
        if t.status is TableStatus.BETWEEN:
            at = self.clock.now() + self.config.between_hands_seconds
            t.run.deadline = Deadline(DeadlineKind.NEXT_HAND, at)
        policy, env = self._env(await unit.settings())
        result = await self._core(t.key, policy, resume, t, env)
        await unit.commit(self._commit_of(None, result))
        if think:
            self._ahead(t.key, result.table, policy)
        return result.table, result.outs

    async def load(self) -> int:
        """Read every live table into memory (after a restart); returns how many."""
        keys = await self.repository.live_keys()
        count = 0
        for key in keys:
            count += await self._read(ChatRef.from_key(key)) is not None
        await self.repository.loaded(keys)
        return count

    # -- timers -----------------------------------------------------------------------
    async def poll_timers(self) -> None:
        """Fire every due deadline (turn warnings and timeouts, windows, next hand), then
        let the publisher send what waits."""
        await self.repository.fire_due(self._tick, self.publisher.committed)
        await self.publisher.pump()
        self.evict()

    async def _tick(self, unit: Unit) -> tuple[Out, ...]:
        t = unit.table
        if t is None:
            return ()
        policy, env = self._env(await unit.settings())
        self.ahead.stop(t.key)  # a turn timed out, a window closed, AI moves were owed...
        result = await self._core(t.key, policy, tick_table, t, env)
        await unit.commit(self._commit_of(t, result))
        self._ahead(t.key, result.table, policy)
        return result.outs if result.table is not t else ()

    async def run_timers(self, interval: float = 0.5) -> None:
        """Production loop: poll the deadlines forever."""
        while True:
            try:
                await self.poll_timers()
            except Exception:
                log.exception("timer poll failed")
            await asyncio.sleep(interval)

    # -- memory -----------------------------------------------------------------------
    def evict(self) -> int:
        """Forget finished tables after ``finished_ttl`` and idle ones after ``idle_ttl``
        (those come back from the store on demand); returns how many left memory."""
        now = self.clock.now()
        gone = [k for k, at in self.memory.touched() if self._expired(k, at, now)]
        for key in gone:
            self.memory.forget(key)
        return len(gone)

    def _expired(self, key: str, touched: float, now: float) -> bool:
        t = self.memory.get(key)
        if t is None or self.memory.locked(key):
            return t is None
        if not t.live():
            return now - touched >= self.finished_ttl
        if now - touched < self.idle_ttl or not self.repository.durable:
            return False  # touched lately, or it could not come back
        return _next_due(t, self.config.warn_before_seconds) is None  # no timer running

    def _forgotten(self, key: str, t: Table | None) -> None:
        self.ahead.stop(key)
        for seat in range(1, 7):
            self._privates.pop((key, seat), None)

    # -- the core ---------------------------------------------------------------------
    async def _core(self, key: str, policy: Policy, fn: Callable[..., R], *args: Any) -> R:
        """A core call (its last argument the ``Env``): in a worker thread when the AI
        searches, watched (``thinking``) when the publisher may show it; else at once."""
        if not hasattr(policy, "choose_searching"):
            return fn(*args)
        if not self.publisher.shows_thinking:
            return await asyncio.to_thread(fn, *args)

        async def show(snap: TableSnapshot) -> None:
            self._thinking[key] = snap
            await self.publisher.passing(TableChanged(key))

        try:
            meta = self.memory.meta_view(key)
            return await run_watched(fn, args[:-1], args[-1], meta, self.thinking_after, show)
        finally:
            self._thinking.pop(key, None)

    def _time(self, phase: str, since: float) -> None:
        if self.repository.timings is not None:
            self.repository.timings.add(phase, time.perf_counter() - since)


def checked_settings(cmd: ChangeSettings, current: GroupSettings) -> GroupSettings | Reply:
    """The group's new settings, or the refusal (only admins; every value validated)."""
    if not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_ADMIN)
    try:
        return apply_setting_changes(current, cmd.changes)
    except GoujiError as err:
        return Reply(False, err.code, params_of(**err.params))
