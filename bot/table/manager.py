"""The table manager: lobby, matches, timers, AI seats, persistence; one lock per table.

Adapters call ``handle(command)`` and render what the manager publishes (``Out``) by
reading ``snapshot`` / ``private_snapshot``. Timers run through ``poll_timers``, driven
by ``run_timers`` in production and by a fake clock in tests.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ..ai import HeuristicPolicy, Policy, Role, decide
from ..ai.base import options
from ..engine.actions import Action, ActionKind
from ..engine.errors import GoujiError, IllegalAction
from ..engine.events import Event, EventKind
from ..engine.game import (
    apply,
    first_leader,
    legal_options,
    legal_plays,
    new_hand,
    next_leader,
)
from ..engine.schedule import BurnDeclaration, burn_priority, resolve_burns
from ..engine.state import SEATS, Phase
from ..engine.views import public_view, seat_view
from ..present.playmenu import build_menu
from ..present.schema import shown
from ..records.record import record_json
from ..store import HandWrite, Store, TableWrite
from .clock import Clock, SystemClock
from .commands import (
    Act,
    AddBots,
    AskCount,
    ChangeSettings,
    Command,
    Join,
    Kick,
    Leave,
    NextHand,
    OpenTable,
    Ready,
    RemoveBot,
    SetAutoplay,
    Spectate,
    Start,
    StopMatch,
    SwapSeat,
)
from .events import count_answered
from .lobby import LobbyMixin, is_seat
from .model import ChatRef, GroupSettings, TableStatus
from .outputs import (
    DeadlineKind,
    HandChanged,
    HandFinished,
    Json,
    MatchOver,
    Notice,
    Out,
    PrivateNote,
    PrivateSnapshot,
    Reply,
    SeatLine,
    TableChanged,
    TableSnapshot,
    params_of,
    summary_of,
)
from .record import BurnWindow, Table, table_from_json
from .settings import apply_setting_changes
from .timers import TimersMixin

log = logging.getLogger(__name__)

Sink = Callable[[Out], Awaitable[None]]
TURN_ACTIONS = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN})
PRE_PLAY_ACTIONS = frozenset({ActionKind.REVOLT, ActionKind.DECLARE_POINT, ActionKind.WAIVE})
# Plays, passes and trick ends: the table image shows them; the terminal prints them.
MINOR_NOTICES = {
    EventKind.PLAYED: "ev_played",
    EventKind.PASSED: "ev_passed",
    EventKind.RANGED: "ev_ranged",
    EventKind.TRICK_WON: "ev_trick_won",
}
PUBLIC_NOTICES = {
    **MINOR_NOTICES,
    EventKind.REVOLTED: "ev_revolted",
    EventKind.VOIDED: "ev_voided",
    EventKind.WAIVED: "ev_waived",
    EventKind.DECLARED: "ev_declared",
    EventKind.BURNED: "ev_burned",
    EventKind.BURN_RELEASED: "ev_burn_released",
    EventKind.BURN_SUCCEEDED: "ev_burn_succeeded",
    EventKind.BURN_FAILED: "ev_burn_failed",
    EventKind.CAUGHT: "ev_caught",
    EventKind.OPENED: "ev_opened",
    EventKind.POINT_FAILED: "ev_point_failed",
    EventKind.FOURS_DISCARDED: "ev_fours_discarded",
    EventKind.WENT_OUT: "ev_went_out",
    EventKind.FREE_PLAY: "ev_free_play",
    EventKind.TRIBUTE_GIVEN: "ev_tribute_given",
    EventKind.TRIBUTE_RETURNED: "ev_tribute_returned",
    EventKind.BOUGHT: "ev_bought",
}

# Events only their two seats see: (text for the giver, text for the receiver).
PRIVATE_NOTICES = {
    EventKind.TRIBUTE_GIVEN: ("note_tribute_paid", "note_tribute_received"),
    EventKind.TRIBUTE_RETURNED: ("note_return_paid", "note_return_received"),
}


class TableManager(LobbyMixin, TimersMixin):
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
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.policy: Policy = policy or HeuristicPolicy()
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self.burn_window_seconds = burn_window_seconds
        self.declare_window_seconds = declare_window_seconds
        self.between_hands_seconds = between_hands_seconds
        self.warn_before_seconds = warn_before_seconds
        self.no_answer_seconds = no_answer_seconds
        self.tables: dict[str, Table] = {}
        self.settings_cache: dict[str, GroupSettings] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._sinks: list[Sink] = []

    # -- wiring -----------------------------------------------------------------------
    def subscribe(self, sink: Sink) -> None:
        self._sinks.append(sink)

    def lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _publish(self, outs: Iterable[Out]) -> None:
        for out in outs:
            for sink in self._sinks:
                try:
                    await sink(out)
                except Exception:  # an adapter's failure must not stop the table
                    log.exception("sink failed on %s for table %s", type(out).__name__, out.table)

    async def load(self) -> int:
        """Rebuild every live table from the store (after a restart); returns how many."""
        if self.store is None:
            return 0
        count = 0
        for key, record in await self.store.live_tables():
            table = table_from_json(record)
            table.stored_deal = table.deal_no
            if table.status is TableStatus.PLAYING and table.rules is not None:
                actions = await self.store.load_actions(key, table.deal_no)
                rules, seed = table.rules, table.hand_seed
                try:
                    state, _ = new_hand(rules, seed, table.hand_leader, table.hand_owed)
                    for seat, raw in actions:
                        action = Action.from_json(raw)
                        state, _ = apply(state, seat, action)
                        table.log.append((seat, action))
                except GoujiError as err:
                    # A log that no longer replays (e.g. rules changed underneath): close the
                    # table rather than invent a state.
                    log.error("table %s could not be rebuilt: %s", key, err.code.value)
                    table.status = TableStatus.FINISHED
                    await self.store.save_table(key, table.to_json(), False)
                    continue
                table.state = state
                table.saved = len(table.log)
            self.tables[key] = table
            self._restart_timers(table)
            count += 1
        outs: list[Out] = []
        for table in self.tables.values():
            if table.status is TableStatus.PLAYING:
                async with self.lock(table.key):
                    self._advance(table, outs)
                    self._emit_views(table, outs)
                    await self._persist(table)
        await self._publish(outs)
        return count

    def _restart_timers(self, t: Table) -> None:
        t.deadline = None
        t.window = None
        t.window_step = -1
        if t.status is TableStatus.BETWEEN:
            self._set_deadline(t, DeadlineKind.NEXT_HAND, self.between_hands_seconds)

    # -- queries for adapters ---------------------------------------------------------
    def table(self, chat: ChatRef) -> Table | None:
        return self.tables.get(chat.key)

    def snapshot(self, key: str) -> TableSnapshot | None:
        t = self.tables.get(key)
        if t is None:
            return None
        public = public_view(t.state) if t.state is not None else None
        lines = tuple(
            SeatLine(i + 1, s.name, s.user_id, s.autoplay) if s else None
            for i, s in enumerate(t.seats)
        )
        return TableSnapshot(
            key=t.key,
            status=t.status,
            seats=lines,
            creator=t.creator,
            settings=t.settings,
            rules=t.rules,
            hand_no=t.match.hand_no,
            totals=(t.match.totals[0], t.match.totals[1]),
            public=public,
            version=t.version,
            window_open=t.window is not None,
            declare_open=t.declare_open,
            last_result=t.last_result,
            spectators=len(t.spectators),
            names=tuple(s.name if s else f"#{i + 1}" for i, s in enumerate(t.seats)),
            deadline=t.deadline,
            ready=frozenset(t.ready),
            meta=tuple(sorted(t.meta.items())),
            match_id=t.match_seed,
            history=tuple(summary_of(h) for h in t.match.history),
        )

    async def set_meta(self, key: str, name: str, value: Json) -> None:
        """Let an adapter keep a small JSON value with the table (e.g. its message id), so
        it survives a restart."""
        async with self.lock(key):
            t = self.tables.get(key)
            if t is None:
                return
            t.meta[name] = value
            await self._persist(t)

    def private_snapshot(self, key: str, user_id: str) -> PrivateSnapshot | None:
        t = self.tables.get(key)
        if t is None or t.state is None:
            return None
        seat = t.seat_of(user_id)
        if seat is None:
            return None
        return self._private(t, seat)

    def _private(self, t: Table, seat: int) -> PrivateSnapshot:
        assert t.state is not None
        info = t.seats[seat - 1]
        assert info is not None and info.user_id is not None
        legal = tuple(self._human_options(t, seat))
        menu = build_menu(legal_options(t.state, seat), legal, t.state.hands[seat - 1])
        return PrivateSnapshot(
            key=t.key,
            seat=seat,
            user_id=info.user_id,
            view=seat_view(t.state, seat),
            legal=legal,
            version=t.version,
            autoplay=info.autoplay,
            role=self._role(t, seat, legal),
            lang=t.settings.lang,
            menu=menu,
        )

    def _human_options(self, t: Table, seat: int) -> list[Action]:
        st = t.state
        if st is None or st.over:
            return []
        opts = options(st, seat)
        if t.window is not None and st.to_act == seat:
            # The seat to act is held back while the burn window runs.
            opts = [a for a in opts if a.kind not in TURN_ACTIONS or a.kind is ActionKind.BURN]
        # 预点 belongs before the deal; at a chat table the cards are already dealt, so
        # only 明点 is offered.
        opts = [a for a in opts if not (a.kind is ActionKind.DECLARE_POINT and a.pre)]
        if t.declare_open and not st.started and st.phase is Phase.PLAY:
            # Before the first play everyone gets the same pause to revolt or declare.
            return [a for a in opts if a.kind in PRE_PLAY_ACTIONS]
        return [a for a in opts if a.kind not in (ActionKind.REVOLT, ActionKind.DECLARE_POINT)]

    def _role(self, t: Table, seat: int, legal: tuple[Action, ...]) -> Role | None:
        st = t.state
        if st is None or not legal:
            return None
        if st.phase is Phase.RETURN_TRIBUTE:
            return Role.RETURN
        if any(a.kind is ActionKind.BURN for a in legal) and st.to_act != seat:
            return Role.BURN
        if st.to_act == seat:
            return Role.TURN
        return Role.PRE_PLAY

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

    # -- commands ---------------------------------------------------------------------
    async def handle(self, cmd: Command) -> Reply:
        key = cmd.chat.key
        outs: list[Out] = []
        if isinstance(cmd, ChangeSettings):
            reply = await self._change_settings(cmd, outs)
            await self._publish(outs)
            return reply
        settings = await self.group_settings(cmd.chat)
        async with self.lock(key):
            t = self.tables.get(key)
            try:
                reply = self._dispatch(cmd, t, settings, outs)
            except IllegalAction as err:
                reply = Reply(False, err.code.value, params_of(**err.params))
            t = self.tables.get(key)
            if t is not None:
                self._emit_views(t, outs)
                await self._persist(t)
        await self._publish(outs)
        return reply

    def _dispatch(
        self, cmd: Command, t: Table | None, settings: GroupSettings, outs: list[Out]
    ) -> Reply:
        if isinstance(cmd, OpenTable):
            return self._open(cmd, t, settings)
        if t is None or not t.live():
            return Reply.no("no_table")
        if isinstance(cmd, Join):
            return self._join(t, cmd)
        if isinstance(cmd, Leave):
            return self._leave(t, cmd.actor.user_id, outs, kicked=False)
        if isinstance(cmd, SwapSeat):
            return self._swap(t, cmd)
        if isinstance(cmd, Kick):
            return self._kick(t, cmd, outs)
        if isinstance(cmd, AddBots):
            return self._add_bots(t, cmd)
        if isinstance(cmd, RemoveBot):
            return self._remove_bot(t, cmd)
        if isinstance(cmd, Spectate):
            t.spectators.add(cmd.actor.user_id)
            return Reply.yes("spectating")
        if isinstance(cmd, Start):
            return self._start(t, cmd, outs)
        if isinstance(cmd, NextHand):
            if t.status is not TableStatus.BETWEEN:
                return Reply.no("hand_not_over")
            if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
                return Reply.no("not_seated")
            self._deal(t, outs)
            return Reply.yes("next_hand")
        if isinstance(cmd, StopMatch):
            if cmd.actor.user_id != t.creator and not cmd.actor.is_admin:
                return Reply.no("not_creator_or_admin")
            self._end_match(t, outs, stopped=True)
            return Reply.yes("match_stopped")
        if isinstance(cmd, AskCount):
            return self._ask_count(t, cmd, outs)
        if isinstance(cmd, SetAutoplay):
            return self._set_autoplay(t, cmd, outs)
        if isinstance(cmd, Ready):
            return self._ready(t, cmd, outs)
        if isinstance(cmd, Act):
            return self._act(t, cmd, outs)
        return Reply.no("unknown_command")

    # -- hands ----------------------------------------------------------------------------
    def _deal(self, t: Table, outs: list[Out]) -> None:
        t.settings = self.settings_cache.get(t.chat.group_key, t.settings)
        t.rules = t.settings.rules()
        t.turn_seconds = t.rules.move_seconds or t.settings.turn_seconds
        t.deal_no += 1
        t.hand_seed = (t.match_seed * 1_000_003 + t.deal_no) % (1 << 62)
        leader = t.next_leader if t.next_leader is not None else first_leader(t.hand_seed)
        t.hand_leader = leader
        state, events = new_hand(t.rules, t.hand_seed, leader, t.hand_owed)
        t.state = state
        t.log = []
        t.saved = 0
        t.status = TableStatus.PLAYING
        t.window = None
        t.window_step = -1
        t.deadline = None
        t.last_result = None
        t.ready = set()
        t.declare_open = t.rules.revolution != "off" or t.rules.dadian
        if not self._redealing(t):
            t.match.hand_no += 1
        self._bump(t)
        outs.append(self._notice(t, "hand_started", hand_no=t.match.hand_no, leader=leader))
        self._notices(t, events, outs)
        self._advance(t, outs)

    def _redealing(self, t: Table) -> bool:
        return bool(t.match.history) and bool(t.match.history[-1].get("voided"))

    def _apply(self, t: Table, seat: int, action: Action, outs: list[Out]) -> list[Event]:
        assert t.state is not None
        state, events = apply(t.state, seat, action)
        t.state = state
        t.log.append((seat, action))
        self._bump(t)
        self._notices(t, events, outs)
        return events

    def _ai_rng(self, t: Table, seat: int, purpose: str) -> random.Random:
        step = t.state.step if t.state is not None else 0
        return random.Random(f"{t.hand_seed}:{step}:{seat}:{purpose}")

    def _advance(self, t: Table, outs: list[Out]) -> None:
        """Let AI seats act until a human must, a window is open, or the hand ends."""
        for _ in range(20000):
            st = t.state
            if st is None or t.status is not TableStatus.PLAYING:
                return
            if st.over:
                self._finish_hand(t, outs)
                return
            if t.window is not None:
                return
            if st.phase is Phase.RETURN_TRIBUTE:
                ai = next((r for r, _, _ in st.pending_returns if self._ai_plays(t, r)), None)
                if ai is not None:
                    action = decide(st, ai, self.policy, self._ai_rng(t, ai, "return"))
                    if action is not None:
                        self._apply(t, ai, action, outs)
                        continue
                if not self._waiting(t, DeadlineKind.RETURNS):
                    self._set_deadline(t, DeadlineKind.RETURNS, t.turn_seconds or 0)
                return
            if not st.started and t.declare_open:
                if self._pre_play_round(t, outs):
                    continue
                humans_waiting = [s for s in t.humans() if s not in t.ready]
                if humans_waiting and self.declare_window_seconds > 0:
                    if not self._waiting(t, DeadlineKind.DECLARE):
                        self._set_deadline(t, DeadlineKind.DECLARE, self.declare_window_seconds)
                    return
                t.declare_open = False
                continue
            if st.window and t.window_step != st.step:
                t.window_step = st.step
                if self._open_burn_window(t, outs):
                    return
                continue
            seat = st.to_act
            if seat is None:
                return
            if self._ai_plays(t, seat):
                action = decide(st, seat, self.policy, self._ai_rng(t, seat, "turn"))
                if action is None:
                    return
                self._apply(t, seat, action, outs)
                continue
            if not self._waiting(t, DeadlineKind.TURN, st.step):
                seconds = t.turn_seconds
                if seconds and not legal_plays(st, seat):
                    seconds = min(seconds, self.no_answer_seconds)
                self._set_deadline(t, DeadlineKind.TURN, seconds, st.step)
            return
        raise RuntimeError(f"table {t.key} did not settle")

    def _ai_plays(self, t: Table, seat: int) -> bool:
        info = t.seats[seat - 1]
        return info is None or info.ai_plays

    def _pre_play_round(self, t: Table, outs: list[Out]) -> bool:
        """AI seats decide revolts and declarations once; True if one acted."""
        assert t.state is not None
        acted = False
        for seat in SEATS:
            if seat in t.ready or not self._ai_plays(t, seat):
                continue
            t.ready.add(seat)
            st = t.state
            if st.over or st.started:
                break
            legal = [a for a in options(st, seat) if a.kind in PRE_PLAY_ACTIONS]
            if not legal:
                continue
            choice = self.policy.choose(seat_view(st, seat), legal, self._ai_rng(t, seat, "pre"))
            if choice is not None and choice in legal:
                self._apply(t, seat, choice, outs)
                acted = True
        return acted

    def _open_burn_window(self, t: Table, outs: list[Out]) -> bool:
        """AI window seats declare at once; humans get a fixed pause. True if it waits."""
        st = t.state
        assert st is not None
        window = BurnWindow(step=st.step)
        for seat in burn_priority(st):
            if self._ai_plays(t, seat):
                choice = decide(st, seat, self.policy, self._ai_rng(t, seat, "burn"))
                if choice is not None and choice.kind is ActionKind.BURN:
                    window.declared[seat] = choice
        if t.humans() and self.burn_window_seconds > 0:
            t.window = window
            self._set_deadline(t, DeadlineKind.BURN, self.burn_window_seconds)
            return True
        self._resolve_burns(t, window, outs)
        return False

    def _resolve_burns(self, t: Table, window: BurnWindow, outs: list[Out]) -> None:
        """The engine resolves the declared burns (§8); if none took effect, the held action."""
        st = t.state
        assert st is not None
        declared = [BurnDeclaration(s, a.cards) for s, a in window.declared.items() if a.cards]
        result = resolve_burns(st, declared)
        if result.any_burned:
            # Apply the burns that took effect, in the engine's order, through the log.
            for e in result.events:
                if e.kind is EventKind.BURNED and e.seat is not None:
                    self._apply(t, e.seat, window.declared[e.seat], outs)
            return
        if window.queued is not None:
            seat, action = window.queued
            try:
                self._apply(t, seat, action, outs)
            except IllegalAction as err:
                outs.extend(self._private_note(t, seat, err.code.value, **err.params))

    def _finish_hand(self, t: Table, outs: list[Out]) -> None:
        st = t.state
        assert st is not None and st.result is not None
        res = st.result
        t.deadline = None
        if res.voided:
            t.match.history.append({"voided": True, "deal_no": t.deal_no})
            t.pending_records.append((self._hand_record(t), []))  # a record, no stats
            outs.append(self._notice(t, "hand_voided"))
            # The redeal gives again what the last finished hand owes (engine.match.carry_over).
            self._deal(t, outs)
            return
        t.match.totals[0] += res.team_scores[0]
        t.match.totals[1] += res.team_scores[1]
        entry = {
            "hand_no": t.match.hand_no,
            "deal_no": t.deal_no,
            "seed": t.hand_seed,
            "leader": t.hand_leader,
            "places": list(res.places),
            "team_scores": list(res.team_scores),
            "sweep": res.sweep_team,
            "tributes": [x.to_json() for x in res.tributes],
            "preset": st.rules.preset,
        }
        t.match.history.append(entry)
        t.last_result = res
        record = self._hand_record(t)  # before hand_owed moves on to the next hand
        t.hand_owed = res.tributes
        t.next_leader = next_leader(st)
        players = []
        for s in SEATS:
            info = t.seats[s - 1]
            if info is not None and info.user_id is not None:
                place, points = res.place_of(s), res.seat_points[s - 1]
                players.append((info.user_id, info.name, place, points))
        t.pending_records.append((record, players))
        totals = (t.match.totals[0], t.match.totals[1])
        outs.append(HandFinished(t.key, t.match.hand_no, totals, res))
        cfg = t.settings
        done = (cfg.match_hands and t.match.hand_no >= cfg.match_hands) or (
            cfg.target_score and max(abs(x) for x in t.match.totals) >= cfg.target_score
        )
        if done:
            self._end_match(t, outs, stopped=False)
            return
        t.status = TableStatus.BETWEEN
        self._bump(t)
        self._set_deadline(t, DeadlineKind.NEXT_HAND, self.between_hands_seconds)

    def _hand_record(self, t: Table) -> dict[str, Any]:
        """The stored record of the hand that just ended (bot.records)."""
        assert t.state is not None
        return record_json(
            match_id=t.match_seed,
            hand_no=t.match.hand_no,
            deal_no=t.deal_no,
            seed=t.hand_seed,
            leader=t.hand_leader,
            owed=t.hand_owed,
            names=[self._name(t, s) for s in SEATS],
            log=t.log,
            state=t.state,
        )

    def _end_match(self, t: Table, outs: list[Out], stopped: bool) -> None:
        t.status = TableStatus.FINISHED
        t.deadline = None
        t.window = None
        self._bump(t)
        totals = (t.match.totals[0], t.match.totals[1])
        outs.append(MatchOver(t.key, totals, t.match.hand_no, stopped))

    # -- in-hand commands ---------------------------------------------------------------
    def _act(self, t: Table, cmd: Act, outs: list[Out]) -> Reply:
        if t.status is not TableStatus.PLAYING or t.state is None:
            return Reply.no("not_playing")
        seat = t.seat_of(cmd.actor.user_id)
        if seat is None:
            return Reply.no("not_seated")
        action = cmd.action
        if action.kind is ActionKind.ASK_COUNT:
            target = action.target if is_seat(action.target) else 0
            ask = AskCount(chat=cmd.chat, actor=cmd.actor, target=target or 0)
            return self._ask_count(t, ask, outs)
        if action.kind in TURN_ACTIONS and cmd.version is not None and cmd.version != t.version:
            return Reply.no("stale")
        if action.kind in (ActionKind.REVOLT, ActionKind.DECLARE_POINT) and not t.declare_open:
            return Reply.no("declare_closed")
        if action.kind is ActionKind.DECLARE_POINT and action.pre:
            return Reply.no("declare_not_allowed")
        if t.declare_open and not t.state.started and action.kind in TURN_ACTIONS:
            return Reply.no("wait_declarations")
        info = t.seats[seat - 1]
        assert info is not None
        st = t.state
        if t.window is not None and action.kind in TURN_ACTIONS:
            apply(st, seat, action)  # validate now: raises IllegalAction if refused
            if action.kind is ActionKind.BURN:
                t.window.declared[seat] = action
                return Reply.yes("burn_declared")
            if st.to_act == seat:
                t.window.queued = (seat, action)
                return Reply.yes("held_for_burns")
        if info.autoplay:
            info.autoplay = False
            outs.append(self._notice(t, "autoplay_off", seat=seat))
        self._apply(t, seat, action, outs)
        if action.kind in PRE_PLAY_ACTIONS:
            t.ready.add(seat)
        self._advance(t, outs)
        return Reply.yes("ok")

    def _ask_count(self, t: Table, cmd: AskCount, outs: list[Out]) -> Reply:
        if t.state is None or t.status is not TableStatus.PLAYING:
            return Reply.no("not_playing")
        if not is_seat(cmd.target):
            return Reply.no("bad_target", target=shown(cmd.target))
        _, events = apply(t.state, 1, Action(ActionKind.ASK_COUNT, target=cmd.target))
        # 报户 changes nothing, so it is answered without a version check.
        answer = count_answered(events[0])
        outs.append(
            self._notice(
                t,
                "count_answer",
                asker=cmd.actor.name,
                target=cmd.target,
                target_name=self._name(t, cmd.target),
                answer=answer.answer,
                count=answer.count,
            )
        )
        return Reply.yes(
            "count_posted", target=cmd.target, answer=answer.answer, count=answer.count
        )

    def _set_autoplay(self, t: Table, cmd: SetAutoplay, outs: list[Out]) -> Reply:
        seat = t.seat_of(cmd.actor.user_id)
        if seat is None:
            return Reply.no("not_seated")
        info = t.seats[seat - 1]
        assert info is not None
        info.autoplay = cmd.on
        self._bump(t)
        outs.append(self._notice(t, "autoplay_on" if cmd.on else "autoplay_off", seat=seat))
        if cmd.on and t.status is TableStatus.PLAYING:
            t.ready.add(seat)
            self._advance(t, outs)
        return Reply.yes("autoplay_on" if cmd.on else "autoplay_off")

    def _ready(self, t: Table, cmd: Ready, outs: list[Out]) -> Reply:
        seat = t.seat_of(cmd.actor.user_id)
        if seat is None:
            return Reply.no("not_seated")
        if not t.declare_open:
            return Reply.no("declare_closed")
        t.ready.add(seat)
        self._bump(t)
        if all(s in t.ready for s in t.humans()):
            t.deadline = None
            self._advance(t, outs)
        return Reply.yes("ready")

    # -- settings ---------------------------------------------------------------------
    async def _change_settings(self, cmd: ChangeSettings, outs: list[Out]) -> Reply:
        if not cmd.actor.is_admin:
            return Reply.no("not_admin")
        current = await self.group_settings(cmd.chat)
        try:
            new = apply_setting_changes(current, cmd.changes)
        except GoujiError as err:
            return Reply(False, err.code.value, params_of(**err.params))
        async with self.lock(cmd.chat.key):
            t = self.tables.get(cmd.chat.key)
            if t is not None and t.live():
                # The hand in play keeps its rules and timer; the next deal picks these up.
                # The group's settings and the table's copy commit together.
                t.settings = new
                self._bump(t)
                self._emit_views(t, outs)
                await self._persist(t, settings=new)
            elif self.store is not None:
                await self.store.save_settings(cmd.chat.group_key, new.to_json())
        self.settings_cache[cmd.chat.group_key] = new
        return Reply.yes("settings_saved")

    # -- outputs ----------------------------------------------------------------------
    def _bump(self, t: Table) -> None:
        t.version += 1
        t.dirty = True

    def _name(self, t: Table, seat: int) -> str:
        info = t.seats[seat - 1] if seat in SEATS else None
        return info.name if info else f"#{seat}"

    def _notice(self, t: Table, key: str, **params: object) -> Notice:
        seat = params.get("seat")
        if isinstance(seat, int) and "name" not in params:
            params["name"] = self._name(t, seat)
        return Notice(t.key, key, params_of(**params))

    def _private_note(self, t: Table, seat: int, key: str, **params: object) -> list[Out]:
        info = t.seats[seat - 1]
        if info is None or info.user_id is None:
            return []
        return [PrivateNote(t.key, info.user_id, key, params_of(**params))]

    def _notices(self, t: Table, events: list[Event], outs: list[Out]) -> None:
        for e in events:
            if not e.is_public():
                self._private_notes(t, e, outs)
                continue
            key = PUBLIC_NOTICES.get(e.kind)
            if key is None:
                continue
            params: dict[str, object] = {k: v for k, v in e.data}
            if e.seat is not None:
                params["seat"] = e.seat
                params["name"] = self._name(t, e.seat)
            minor = e.kind in MINOR_NOTICES
            outs.append(Notice(t.key, key, params_of(**params), minor=minor))

    def _private_notes(self, t: Table, e: Event, outs: list[Out]) -> None:
        """Cards only two seats see (tribute and its return) go to those two players."""
        keys = PRIVATE_NOTICES.get(e.kind)
        if keys is None or e.seat is None:
            return
        data = dict(e.data)
        target = data.get("target")
        if not isinstance(target, int):
            return
        names = {"name": self._name(t, e.seat), "target_name": self._name(t, target)}
        for viewer in e.visible_to or ():
            key = keys[0] if viewer == e.seat else keys[1]
            outs += self._private_note(t, viewer, key, giver=e.seat, **data, **names)

    def _emit_views(self, t: Table, outs: list[Out]) -> None:
        """One TABLE output per change, and PRIVATE outputs for players whose view changed."""
        if t.dirty:
            outs.append(TableChanged(t.key))
            t.dirty = False
        st = t.state
        if st is None:
            return
        for seat in t.humans():
            info = t.seats[seat - 1]
            assert info is not None and info.user_id is not None
            opts = self._human_options(t, seat)
            role = self._role(t, seat, tuple(opts))
            sig = (
                t.deal_no,
                st.hands[seat - 1],
                role,
                t.version if role else None,
                info.autoplay,
                st.phase,
                t.declare_open,
                seat in t.ready,
            )
            if t.private_sig.get(seat) != sig:
                t.private_sig[seat] = sig
                outs.append(HandChanged(t.key, info.user_id, seat))

    async def _persist(self, t: Table, settings: GroupSettings | None = None) -> None:
        """Store this step of the table as one transaction: the table row, its new actions,
        log housekeeping and any finished hand with its stats (and new group settings)."""
        if self.store is None:
            t.saved = len(t.log)
            t.pending_records.clear()
            return
        # A new table at this chat, or a new deal: earlier actions are of no further use
        # (finished hands keep their full record in the hands table).
        new_deal = t.stored_deal != t.deal_no
        new = tuple(
            (t.deal_no, i, seat, action.to_json())
            for i, (seat, action) in enumerate(t.log[t.saved :], start=t.saved)
        )
        hands = tuple(
            HandWrite(t.chat.group_key, record["deal_no"], record, tuple(players))
            for record, players in t.pending_records
        )
        await self.store.save_step(
            TableWrite(
                t.key,
                t.to_json(),
                t.live(),
                updated=self.clock.now(),
                new_actions=new,
                drop_all_actions=new_deal and t.stored_deal is None,
                drop_actions_before=t.deal_no if new_deal and t.stored_deal is not None else None,
                hands=hands,
                settings=None if settings is None else (t.chat.group_key, settings.to_json()),
            )
        )
        t.stored_deal = t.deal_no
        t.saved = len(t.log)
        t.pending_records.clear()
