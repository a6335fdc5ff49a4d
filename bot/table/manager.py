"""The table manager's shell: locks, persistence, timers, publishing, and memory.

Every change to a table is one pure step of ``bot.table.core`` (``(Table, Command) ->
Step``); this shell only does what a pure function cannot: it takes the table's lock,
loads the table (from memory, or from the store on demand), runs the step, stores what
changed, publishes the step's outputs to the adapters, and forgets tables that are
finished or idle. Adapters use ``handle`` and the public queries below, nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from ..ai import Policy, policy_for
from ..engine.actions import Action
from ..engine.errors import GoujiError
from ..engine.game import apply, new_hand
from ..store import HandWrite, PlayerStats, Store, TableWrite
from .cache import BoundedDict
from .clock import Clock, SystemClock
from .codes import ReplyCode
from .commands import ChangeSettings, Command, Join
from .core import (
    Config,
    Env,
    FinishedHand,
    Step,
    private_snapshot,
    resume,
    step,
    table_snapshot,
    tick_table,
)
from .core.timers import warn_at
from .hints import Hint, table_hint
from .interactions import Interactions
from .model import ChatRef, GroupSettings, TableStatus
from .outputs import (
    Deadline,
    DeadlineKind,
    Json,
    Out,
    PrivateSnapshot,
    Reply,
    TableChanged,
    TableSnapshot,
    params_of,
)
from .record import Table, table_from_json
from .settings import apply_setting_changes
from .thinking import run_watched

log = logging.getLogger(__name__)

HandRow = tuple[int, dict[str, Any]]  # a finished hand's short id and its stored record
Sink = Callable[[Out], Awaitable[None]]
# An adapter's reply that is not a table output (an error text, a settings menu): the
# chat's key and what the adapter needs to send it again (JSON).
ReplySink = Callable[[str, dict[str, Json]], Awaitable[None]]
# Told a chat's lease key when this worker takes the chat over from another sender
# (bot.cluster): forget what it counted there (the group budget) and recall it as stored.
RecallSink = Callable[[str], None]


class _Sync:
    """What the store already holds of a table's current deal."""

    __slots__ = ("deal", "saved")

    def __init__(self, deal: int | None, saved: int) -> None:
        self.deal = deal
        self.saved = saved


R = TypeVar("R")


async def off_loop_if_searching(policy: Policy, fn: Callable[..., R], *args: Any) -> R:
    """Run a core call in a worker thread when the AI searches (``expert``: up to its time
    budget per decision), so the event loop serves other tables meanwhile. The core works
    on a copy of the table and returns a new one, so the thread shares nothing mutable;
    the caller holds the table's lock throughout."""
    if hasattr(policy, "choose_searching"):
        return await asyncio.to_thread(fn, *args)
    return fn(*args)


class TableManager:
    # A searching AI seat that has thought longer than this shows it in the table
    # (``thinking``); meanwhile the snapshot drawn before its decision is the table's.
    thinking_after: float = 1.0

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
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        # ``policy`` (tests) plays every table; otherwise each group's ``ai_level`` decides.
        self.fixed_policy = policy
        self.policy: Policy = policy or policy_for("normal")
        self._level_policies: dict[str, Policy] = {}
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self.config = Config(
            burn_window_seconds,
            declare_window_seconds,
            between_hands_seconds,
            warn_before_seconds,
            no_answer_seconds,
        )
        self.finished_ttl = finished_ttl  # a finished table leaves memory after this
        self.idle_ttl = idle_ttl  # so does a table nobody touched (it reloads on demand)
        self._tables: dict[str, Table] = {}
        self._meta: dict[str, dict[str, Json]] = {}
        self._thinking: dict[str, TableSnapshot] = {}  # while an AI seat thinks (``_core``)
        # The last private view drawn per (table, seat), with the table object and version
        # it was drawn from (a step always makes a new table object).
        self._privates: dict[tuple[str, int], tuple[Table, int, PrivateSnapshot]] = {}
        self._sync: dict[str, _Sync] = {}
        self._touched: dict[str, float] = {}
        self._due: dict[str, float] = {}  # tables with a running timer: when it fires/warns
        self._by_user: dict[str, set[str]] = {}
        self.settings_cache: BoundedDict[str, GroupSettings] = BoundedDict(settings_cache_size)
        self._locks: dict[str, asyncio.Lock] = {}
        self._sinks: list[Sink] = []
        self._reply_sinks: list[ReplySink] = []
        self._recall_sinks: list[RecallSink] = []
        # Replay steppers' and private menus' state: in the store, so it survives a
        # restart and any worker answers their buttons.
        self.interactions = Interactions(store)

    # -- wiring -----------------------------------------------------------------------
    def subscribe(self, sink: Sink) -> None:
        self._sinks.append(sink)

    def subscribe_replies(self, sink: ReplySink) -> None:
        """Where ``relay_reply``'s replies are handed back to the adapters to send."""
        self._reply_sinks.append(sink)

    def subscribe_recalls(self, sink: RecallSink) -> None:
        """Who forgets a chat's in-memory counts when another worker may have sent there
        (only a cluster's workers call them; one process is every chat's one sender)."""
        self._recall_sinks.append(sink)

    def relay_reply(self, chat_key: str, payload: dict[str, Json]) -> bool:
        """Queue a group-visible reply behind the chat's table messages, to be sent by the
        chat's one sender within its group budget (several workers: bot.cluster.shell);
        True if queued. One process has one sender per chat already: False, and the
        adapter sends the reply itself."""
        return False

    def lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    @property
    def tables(self) -> Mapping[str, Table]:
        """The tables in memory (read-only; for tests and benchmarks, not for adapters)."""
        return self._tables

    # -- for a shell that keeps the truth elsewhere (bot.cluster.shell) ----------------
    def keep(self, key: str, before: Table | None, t: Table) -> None:
        """Hold ``t`` as the table at ``key`` (it replaces ``before``): memory, the
        per-user index and its timer."""
        self._tables[key] = t
        self._touched[key] = self.clock.now()
        self._index(key, before, t)
        self._schedule(t)

    def forget(self, key: str) -> None:
        """Drop a table from memory (it comes back from the store on demand)."""
        self._forget(key)

    def meta_of(self, key: str) -> dict[str, Json]:
        """The adapters' small values kept with a table (the live dict, to change)."""
        return self._meta.setdefault(key, {})

    def record_of(self, t: Table) -> dict[str, Any]:
        """The table's stored record: its JSON and the adapters' meta."""
        return self._record(t)

    def saved_log(self, key: str) -> tuple[int | None, int]:
        """(deal, actions) of the table's log that the store already holds."""
        sync = self._sync.get(key)
        return (None, 0) if sync is None else (sync.deal, sync.saved)

    def mark_saved(self, key: str, deal: int | None, saved: int) -> None:
        """The store now holds the first ``saved`` actions of ``deal`` (None: nothing)."""
        self._sync[key] = _Sync(deal, saved)

    async def publish(self, outs: Iterable[Out]) -> None:
        """Hand outputs to the adapters (a shell that relays them from elsewhere)."""
        await self._publish(outs)

    # -- public queries ---------------------------------------------------------------
    def snapshot(self, key: str) -> TableSnapshot | None:
        thinking = self._thinking.get(key)
        if thinking is not None:
            return thinking  # the table as it stands while an AI seat thinks
        t = self._tables.get(key)
        return None if t is None else table_snapshot(t, self._meta.get(key, {}))

    def private_snapshot(self, key: str, user_id: str) -> PrivateSnapshot | None:
        t = self._tables.get(key)
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

    async def hint(self, key: str, user_id: str) -> Hint:
        """💡 The expert's choice for this player's current decision, if the group allows
        hints (``bot.table.hints``); searched off the event loop."""
        if key not in self._tables:
            await self.current(ChatRef.from_key(key))  # left memory, or another worker's
        return await table_hint(self._tables.get(key), user_id)

    async def current(self, chat: ChatRef) -> TableSnapshot | None:
        """The live table at this chat, loaded from the store if it left memory."""
        async with self.lock(chat.key):
            t = await self._get(chat.key)
        if t is None:
            self._drop_lock(chat.key)
        if t is None or not t.live():
            return None
        return self.snapshot(chat.key)

    async def reread(self, chat: ChatRef) -> TableSnapshot | None:
        """``current``, never answered from a copy this process believes current: for a
        button made from a newer state than its copy (another process committed that
        state, and word of it has not arrived). One process: memory is the truth."""
        return await self.current(chat)

    async def catch_up(self, prefix: str) -> int:
        """Read again every table starting with ``prefix`` whose copy is known to be
        behind (another process committed a newer state); how many. One process: none."""
        return 0

    async def tables_of(self, user_id: str, platform: str | None = None) -> list[str]:
        """Keys of the tables where this person has a seat (one process: every live
        table is in memory after ``load``)."""
        keys = sorted(self._by_user.get(user_id, ()))
        return [k for k in keys if platform is None or k.startswith(platform + ":")]

    def live_keys(self, prefix: str) -> list[str]:
        """Keys of the live tables in memory that start with ``prefix`` (e.g. every topic
        of one forum group; the Telegram adapter finds a chat's budget memory this way)."""
        return sorted(k for k, t in self._tables.items() if k.startswith(prefix) and t.live())

    def match_seeds(self, prefix: str) -> dict[str, int]:
        """The match seed of each live table in memory whose key starts with ``prefix``
        (what a short table id hashes, so an adapter can look an id up without a
        snapshot of every table)."""
        return {
            k: t.match_seed for k, t in self._tables.items() if k.startswith(prefix) and t.live()
        }

    def memory_keys(self, prefix: str) -> list[str]:
        """The tables whose adapter values keep the memory of the chats under ``prefix``
        (the Telegram group budget's recent calls): the live ones in memory. (A cluster's
        worker adds tables that ended lately: bot.cluster.shell.)"""
        return self.live_keys(prefix)

    def remembered(self, key: str) -> Mapping[str, Json]:
        """A table's adapter values as this process knows them (read-only)."""
        return self._meta.get(key, {})

    async def leaderboard(self, group_key: str, limit: int = 10) -> list[PlayerStats]:
        if self.store is None:
            return []
        return await self.store.leaderboard(group_key, limit)

    async def hands_from(self, group_key: str, number: int, limit: int = 1) -> list[HandRow]:
        """Finished hands of a group from its ``number``-th on, with their short ids
        (bot.records); none without a store."""
        if self.store is None:
            return []
        return await self.store.hands_from(group_key, number, limit)

    async def recent_hands(self, group_key: str, limit: int = 10) -> list[HandRow]:
        """The group's last finished hands with their short ids, newest first."""
        if self.store is None:
            return []
        return await self.store.recent_hands(group_key, limit)

    @property
    def keeps_stats(self) -> bool:
        return self.store is not None

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

    def use_settings(self, chat: ChatRef, settings: GroupSettings) -> None:
        """Settings for a group without a store (the terminal, tests, benchmarks)."""
        self.settings_cache[chat.group_key] = settings

    async def set_meta(self, key: str, name: str, value: Json) -> None:
        """Let an adapter keep a small JSON value with the table (e.g. its message id), so
        it survives a restart. Kept beside the table, never read by the core."""
        async with self.lock(key):
            t = await self._get(key)
            if t is None:
                return
            self._meta.setdefault(key, {})[name] = value
            await self._persist(t, ())

    def policy_of(self, settings: GroupSettings) -> Policy:
        """The policy of a group's AI seats: the injected one, else its ``ai_level``."""
        if self.fixed_policy is not None:
            return self.fixed_policy
        policy = self._level_policies.get(settings.ai_level)
        if policy is None:
            policy = self._level_policies[settings.ai_level] = policy_for(settings.ai_level)
        return policy

    # -- commands ---------------------------------------------------------------------
    async def handle(self, cmd: Command) -> Reply:
        key = cmd.chat.key
        settings = await self.group_settings(cmd.chat)
        changed: GroupSettings | None = None
        if isinstance(cmd, ChangeSettings):
            checked = checked_settings(cmd, settings)
            if isinstance(checked, Reply):
                return checked
            settings = changed = checked
        async with self.lock(key):
            table = await self._get(key)
            policy = self.policy_of(settings)
            env = Env(self.clock.now(), settings, self.config, policy, self.seed_source())
            result = await self._core(key, policy, step, table, cmd, env)
            saved = await self._commit(key, table, result, changed)
            if changed is not None and not saved and self.store is not None:
                await self.store.save_settings(cmd.chat.group_key, changed.to_json())
        if changed is not None:
            self.settings_cache[cmd.chat.group_key] = changed
        if result.table is None:
            self._drop_lock(key)
        await self._publish(result.outs)
        return Reply.yes(ReplyCode.SETTINGS_SAVED) if changed is not None else result.reply

    async def check(self, cmd: Join) -> Reply:
        """What the table would answer to this join, changing nothing: an adapter asks
        before it sends someone to open the bot (no start link for a table that cannot
        take them, e.g. one already playing)."""
        settings = await self.group_settings(cmd.chat)
        async with self.lock(cmd.chat.key):
            table = await self._get(cmd.chat.key)
            env = Env(self.clock.now(), settings, self.config, self.policy_of(settings))
            return step(table, cmd, env).reply

    # -- timers -----------------------------------------------------------------------
    async def poll_timers(self) -> None:
        """Fire every due deadline (turn warnings and timeouts, windows, next hand)."""
        now = self.clock.now()
        for key in [k for k, at in self._due.items() if at <= now]:
            outs: tuple[Out, ...] = ()
            async with self.lock(key):
                t = self._tables.get(key)
                if t is None:
                    self._due.pop(key, None)
                    continue
                settings = await self.group_settings(t.chat)
                policy = self.policy_of(settings)
                env = Env(self.clock.now(), settings, self.config, policy)
                result = await self._core(key, policy, tick_table, t, env)
                if result.table is not t:
                    await self._commit(key, t, result)
                    outs = result.outs
                else:
                    self._schedule(t)
            await self._publish(outs)
        self.evict()

    async def run_timers(self, interval: float = 0.5) -> None:
        """Production loop: poll the deadlines forever."""
        while True:
            try:
                await self.poll_timers()
            except Exception:
                log.exception("timer poll failed")
            await asyncio.sleep(interval)

    def _schedule(self, t: Table) -> None:
        """Remember when this table next needs the clock (its deadline or turn warning)."""
        d = t.run.deadline
        if d is None or d.at is None:
            self._due.pop(t.key, None)
            return
        warned = warn_at(t, self.config.warn_before_seconds)
        self._due[t.key] = d.at if warned is None else warned

    # -- memory -----------------------------------------------------------------------
    def evict(self) -> int:
        """Forget finished tables after ``finished_ttl`` and idle ones after ``idle_ttl``
        (those come back from the store on demand); returns how many left memory."""
        now = self.clock.now()
        gone = [k for k, at in self._touched.items() if self._expired(k, at, now)]
        for key in gone:
            self._forget(key)
        return len(gone)

    def _expired(self, key: str, touched: float, now: float) -> bool:
        t = self._tables.get(key)
        lock = self._locks.get(key)
        if t is None or (lock is not None and lock.locked()):
            return t is None
        if not t.live():
            return now - touched >= self.finished_ttl
        idle = key not in self._due and now - touched >= self.idle_ttl
        return idle and self.store is not None  # without a store it could not come back

    def _forget(self, key: str) -> None:
        t = self._tables.pop(key, None)
        self._meta.pop(key, None)
        for seat in range(1, 7):
            self._privates.pop((key, seat), None)
        self._sync.pop(key, None)
        self._touched.pop(key, None)
        self._due.pop(key, None)
        self._drop_lock(key)
        if t is not None:
            self._index(key, t, None)

    def _drop_lock(self, key: str) -> None:
        """Locks exist only while a table is in memory or someone waits for one."""
        lock = self._locks.get(key)
        if lock is not None and not lock.locked() and not getattr(lock, "_waiters", None):
            del self._locks[key]

    def _index(self, key: str, old: Table | None, new: Table | None) -> None:
        before = {s.user_id for s in old.seats if s and s.user_id} if old else set()
        after = {s.user_id for s in new.seats if s and s.user_id} if new else set()
        for user in before - after:
            keys = self._by_user.get(user)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_user[user]
        for user in after - before:
            self._by_user.setdefault(user, set()).add(key)

    # -- loading and saving -----------------------------------------------------------
    async def _get(self, key: str) -> Table | None:
        """The table (in memory, or from the store if it left memory); under its lock."""
        t = self._tables.get(key)
        if t is not None or self.store is None:
            return t
        record = await self.store.live_table(key)
        if record is None:
            return None
        t, outs = await self._restore(key, record)
        await self._publish(outs)
        return t

    async def load(self) -> int:
        """Rebuild every live table from the store (after a restart); returns how many."""
        if self.store is None:
            return 0
        count = 0
        for key, record in await self.store.live_tables():
            async with self.lock(key):
                t, outs = await self._restore(key, record)
            await self._publish(outs)
            count += t is not None
        return count

    async def _restore(
        self, key: str, record: dict[str, Any]
    ) -> tuple[Table | None, tuple[Out, ...]]:
        assert self.store is not None
        t = table_from_json(dict(record))
        meta = record.get("meta")
        self._meta[key] = dict(meta) if isinstance(meta, dict) else {}
        self._sync[key] = _Sync(t.deal_no, 0)
        if t.status is TableStatus.PLAYING and t.rules is not None:
            try:
                t = await self._replay(t)
            except GoujiError as err:
                # A log that no longer replays (e.g. rules changed underneath): close the
                # table rather than invent a state.
                log.error("table %s could not be rebuilt: %s", key, err.code.value)
                t.status = TableStatus.FINISHED
                await self.store.save_table(key, self._record(t), False)
                self._meta.pop(key, None)
                self._sync.pop(key, None)
                return None, ()
        if t.status is TableStatus.BETWEEN:
            at = self.clock.now() + self.config.between_hands_seconds
            t.run.deadline = Deadline(DeadlineKind.NEXT_HAND, at)
        settings = await self.group_settings(t.chat)
        policy = self.policy_of(settings)
        env = Env(self.clock.now(), settings, self.config, policy)
        result = await self._core(key, policy, resume, t, env)
        await self._commit(key, None, result)
        return result.table, result.outs

    async def _replay(self, t: Table) -> Table:
        assert self.store is not None and t.rules is not None
        actions = await self.store.load_actions(t.key, t.deal_no)
        state, _ = new_hand(
            t.rules, t.hand_seed, t.hand_leader, t.hand_owed, streaks=t.hand_streaks
        )
        log_: list[tuple[int, Action]] = []
        for seat, raw in actions:
            action = Action.from_json(raw)
            state, _ = apply(state, seat, action)
            log_.append((seat, action))
        t = replace(t, log=tuple(log_))
        t.run.state = state
        self._sync[t.key].saved = len(log_)
        return t

    async def _commit(
        self,
        key: str,
        before: Table | None,
        result: Step,
        settings: GroupSettings | None = None,
    ) -> bool:
        """Keep the step's table in memory and in the store; True if it was stored."""
        t = result.table
        if t is None:
            return False
        if result.fresh:
            self._sync[key] = _Sync(None, 0)
        self._tables[key] = t
        self._touched[key] = self.clock.now()
        self._index(key, before, t)
        self._schedule(t)
        if t is before and not result.finished:
            return False
        await self._persist(t, result.finished, settings)
        return True

    def _record(self, t: Table) -> dict[str, Any]:
        return {**t.to_json(), "meta": self._meta.get(t.key, {})}

    async def _persist(
        self,
        t: Table,
        finished: Iterable[FinishedHand],
        settings: GroupSettings | None = None,
    ) -> None:
        """Store this step of the table as one transaction: the table row, its new actions,
        log housekeeping and any finished hand with its stats (and new group settings)."""
        sync = self._sync.setdefault(t.key, _Sync(None, 0))
        if self.store is None:
            sync.deal, sync.saved = t.deal_no, len(t.log)
            return
        # A new table at this chat, or a new deal: earlier actions are of no further use
        # (finished hands keep their full record in the hands table).
        new_deal = sync.deal != t.deal_no
        start = 0 if new_deal else sync.saved
        new = tuple(
            (t.deal_no, i, seat, action.to_json())
            for i, (seat, action) in enumerate(t.log[start:], start=start)
        )
        group = t.chat.group_key
        await self.store.save_step(
            TableWrite(
                t.key,
                self._record(t),
                t.live(),
                updated=self.clock.now(),
                new_actions=new,
                drop_all_actions=new_deal and sync.deal is None,
                drop_actions_before=t.deal_no if new_deal and sync.deal is not None else None,
                hands=tuple(HandWrite(group, h.deal_no, h.record, h.players) for h in finished),
                settings=None if settings is None else (group, settings.to_json()),
            )
        )
        sync.deal, sync.saved = t.deal_no, len(t.log)

    async def _core(self, key: str, policy: Policy, fn: Callable[..., R], *args: Any) -> R:
        """A core call (its last argument the ``Env``): in a worker thread, watched, when
        the AI searches (``thinking``); else at once."""
        if not hasattr(policy, "choose_searching"):
            return fn(*args)

        async def show(snap: TableSnapshot) -> None:
            self._thinking[key] = snap
            await self._publish((TableChanged(key),))

        try:
            meta = self._meta.get(key, {})
            return await run_watched(fn, args[:-1], args[-1], meta, self.thinking_after, show)
        finally:
            self._thinking.pop(key, None)

    async def _publish(self, outs: Iterable[Out]) -> None:
        for out in outs:
            for sink in self._sinks:
                try:
                    await sink(out)
                except Exception:  # an adapter's failure must not stop the table
                    log.exception("sink failed on %s for table %s", type(out).__name__, out.table)


def checked_settings(cmd: ChangeSettings, current: GroupSettings) -> GroupSettings | Reply:
    """The group's new settings, or the refusal (only admins; every value validated)."""
    if not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_ADMIN)
    try:
        return apply_setting_changes(current, cmd.changes)
    except GoujiError as err:
        return Reply(False, err.code, params_of(**err.params))
