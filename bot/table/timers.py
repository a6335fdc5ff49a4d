"""Deadlines: turn warnings and timeouts (托管), burn and declaration windows, tribute
returns and the pause between hands (part of TableManager)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..ai import Policy, decide
from ..engine.actions import Action
from ..engine.events import Event
from ..engine.state import Phase
from .clock import Clock
from .model import TableStatus
from .outputs import Deadline, DeadlineKind, Notice, Out
from .record import BurnWindow, Table

log = logging.getLogger(__name__)


class TimersMixin:
    """What happens when a wait runs out; mixed into TableManager."""

    if TYPE_CHECKING:
        tables: dict[str, Table]
        clock: Clock
        policy: Policy
        warn_before_seconds: float

        def quick_policy(self, t: Table) -> Policy: ...

        def lock(self, key: str) -> asyncio.Lock: ...

        async def _publish(self, outs: Iterable[Out]) -> None: ...

        async def _persist(self, t: Table) -> None: ...

        def _emit_views(self, t: Table, outs: list[Out]) -> None: ...

        def _deal(self, t: Table, outs: list[Out]) -> None: ...

        def _advance(self, t: Table, outs: list[Out]) -> None: ...

        def _resolve_burns(self, t: Table, window: BurnWindow, outs: list[Out]) -> None: ...

        def _apply(self, t: Table, seat: int, action: Action, outs: list[Out]) -> list[Event]: ...

        def _ai_rng(self, t: Table, seat: int, purpose: str) -> random.Random: ...

        def _notice(self, t: Table, key: str, **params: object) -> Notice: ...

        def _private_note(self, t: Table, seat: int, key: str, **params: object) -> list[Out]: ...

    def _set_deadline(self, t: Table, kind: DeadlineKind, seconds: float, step: int = -1) -> None:
        t.warned = False
        t.deadline = Deadline(kind, self.clock.now() + seconds if seconds else None, step)

    def _waiting(self, t: Table, kind: DeadlineKind, step: int = -1) -> bool:
        """Whether the table already waits for this (so its timer is not restarted)."""
        d = t.deadline
        return d is not None and d.kind is kind and d.step == step

    async def poll_timers(self) -> None:
        """Fire every due deadline (turn warnings and timeouts, windows, next hand)."""
        now = self.clock.now()
        for key in list(self.tables):
            t = self.tables.get(key)
            if t is None or t.deadline is None or t.deadline.at is None:
                continue
            at = t.deadline.at
            due = at <= now
            warn = (
                not t.warned
                and t.deadline.is_turn
                and at - self.warn_before_seconds <= now
                and self.warn_before_seconds < t.turn_seconds
            )
            if not due and not warn:
                continue
            outs: list[Out] = []
            async with self.lock(key):
                if t.deadline is None or t.deadline.at is None:
                    continue
                if t.deadline.at <= self.clock.now():
                    self._fire(t, outs)
                elif not t.warned:
                    t.warned = True
                    if t.state is not None and t.state.to_act is not None:
                        outs.extend(self._private_note(t, t.state.to_act, "turn_warning"))
                self._emit_views(t, outs)
                await self._persist(t)
            await self._publish(outs)

    def _fire(self, t: Table, outs: list[Out]) -> None:
        assert t.deadline is not None
        kind = t.deadline.kind
        t.deadline = None
        st = t.state
        if kind is DeadlineKind.NEXT_HAND:
            if t.status is TableStatus.BETWEEN:
                self._deal(t, outs)
            return
        if st is None or t.status is not TableStatus.PLAYING:
            return
        if kind is DeadlineKind.BURN and t.window is not None:
            window, t.window = t.window, None
            self._resolve_burns(t, window, outs)
        elif kind is DeadlineKind.DECLARE:
            t.declare_open = False
        elif kind is DeadlineKind.RETURNS:
            for receiver, _, _ in list(st.pending_returns):
                cur = t.state
                assert cur is not None
                if cur.phase is not Phase.RETURN_TRIBUTE:
                    break
                quick = self.quick_policy(t)
                action = decide(cur, receiver, quick, self._ai_rng(t, receiver, "return"))
                if action is not None:
                    self._apply(t, receiver, action, outs)
        elif kind is DeadlineKind.TURN and st.to_act is not None:
            info = t.seats[st.to_act - 1]
            if info is not None and not info.is_ai:
                info.autoplay = True
                outs.append(self._notice(t, "autoplay_timeout", seat=st.to_act))
        self._advance(t, outs)

    async def run_timers(self, interval: float = 0.5) -> None:
        """Production loop: poll the deadlines forever."""
        while True:
            try:
                await self.poll_timers()
            except Exception:
                log.exception("timer poll failed")
            await asyncio.sleep(interval)
