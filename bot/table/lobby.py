"""The lobby: opening a table, seats, AI seats, starting the match (part of TableManager)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.state import SEATS
from .commands import AddBots, Join, Kick, OpenTable, RemoveBot, Start, SwapSeat
from .model import GroupSettings, SeatInfo, TableStatus
from .outputs import Notice, Out, PrivateNote, Reply
from .record import Table


def is_seat(value: object) -> bool:
    """A seat number: an int 1..6 (``1.0`` and ``True`` compare equal to 1 but are refused)."""
    return type(value) is int and value in SEATS


class LobbyMixin:
    """Seat management; mixed into TableManager, whose helpers it uses."""

    if TYPE_CHECKING:
        tables: dict[str, Table]
        seed_source: Callable[[], int]

        def _bump(self, t: Table) -> None: ...

        def _notice(self, t: Table, key: str, **params: object) -> Notice: ...

        def _advance(self, t: Table, outs: list[Out]) -> None: ...

        def _end_match(self, t: Table, outs: list[Out], stopped: bool) -> None: ...

        def _deal(self, t: Table, outs: list[Out]) -> None: ...

    def _open(self, cmd: OpenTable, t: Table | None, settings: GroupSettings) -> Reply:
        if t is not None and t.live():
            t.dirty = True
            return Reply.yes("table_shown")
        t = Table(
            chat=cmd.chat,
            creator=cmd.actor.user_id,
            settings=settings,
            match_seed=self.seed_source(),
            turn_seconds=settings.turn_seconds,
        )
        if cmd.sit:
            t.seats[0] = SeatInfo(cmd.actor.user_id, cmd.actor.name)
        self.tables[cmd.chat.key] = t
        self._bump(t)
        return Reply.yes("table_opened")

    def _auto_seat(self, t: Table) -> int | None:
        teams = {1: 0, 0: 0}
        for s in t.humans():
            teams[s % 2] += 1
        prefer = 1 if teams[1] <= teams[0] else 0
        empty = [s for s in SEATS if t.seats[s - 1] is None]
        for s in sorted(empty, key=lambda s: (s % 2 != prefer, s)):
            return s
        bots = [s for s in SEATS if (info := t.seats[s - 1]) is not None and info.is_ai]
        for s in sorted(bots, key=lambda s: (s % 2 != prefer, s)):
            return s
        return None

    def _join(self, t: Table, cmd: Join) -> Reply:
        actor = cmd.actor
        if t.seat_of(actor.user_id) is not None:
            return Reply.no("already_seated", seat=t.seat_of(actor.user_id))
        if t.status is TableStatus.PLAYING:
            return Reply.no("match_in_progress")
        if cmd.seat is not None:
            if not is_seat(cmd.seat):
                return Reply.no("bad_seat")
            info = t.seats[cmd.seat - 1]
            if info is not None and not info.is_ai:
                return Reply.no("seat_taken", seat=cmd.seat)
            seat: int | None = cmd.seat
        else:
            seat = self._auto_seat(t)
        if seat is None:
            return Reply.no("table_full")
        t.seats[seat - 1] = SeatInfo(actor.user_id, actor.name)
        t.spectators.discard(actor.user_id)
        self._bump(t)
        return Reply.yes("joined", seat=seat)

    def _leave(self, t: Table, user_id: str, outs: list[Out], kicked: bool) -> Reply:
        seat = t.seat_of(user_id)
        if seat is None:
            if user_id in t.spectators:
                t.spectators.discard(user_id)
                return Reply.yes("left")
            return Reply.no("not_seated")
        info = t.seats[seat - 1]
        assert info is not None
        if t.status is TableStatus.LOBBY:
            t.seats[seat - 1] = None
        else:
            # Mid-match the seat plays on as an AI, so no hand is ever stranded.
            t.seats[seat - 1] = SeatInfo(None, f"{info.name}·AI")
            t.private_sig.pop(seat, None)
            # Tell the player's private view its controls are gone.
            outs.append(PrivateNote(t.key, user_id, "seat_left"))
            outs.append(self._notice(t, "seat_to_ai", seat=seat, name=info.name))
            if t.state is not None and not t.state.over:
                self._advance(t, outs)
        self._bump(t)
        if not t.humans() and t.status is not TableStatus.LOBBY:
            self._end_match(t, outs, stopped=True)
        elif not t.humans() and t.status is TableStatus.LOBBY and not any(t.seats):
            t.status = TableStatus.FINISHED
        return Reply.yes("kicked" if kicked else "left", seat=seat)

    def _swap(self, t: Table, cmd: SwapSeat) -> Reply:
        if t.status is not TableStatus.LOBBY:
            return Reply.no("not_in_lobby")
        seat = t.seat_of(cmd.actor.user_id)
        if seat is None:
            return Reply.no("not_seated")
        if not is_seat(cmd.seat):
            return Reply.no("bad_seat")
        other = t.seats[cmd.seat - 1]
        if other is not None and not other.is_ai:
            return Reply.no("seat_taken", seat=cmd.seat)
        t.seats[cmd.seat - 1], t.seats[seat - 1] = t.seats[seat - 1], other
        self._bump(t)
        return Reply.yes("swapped", seat=cmd.seat)

    def _kick(self, t: Table, cmd: Kick, outs: list[Out]) -> Reply:
        if cmd.actor.user_id != t.creator and not cmd.actor.is_admin:
            return Reply.no("not_creator_or_admin")
        if not is_seat(cmd.seat) or t.seats[cmd.seat - 1] is None:
            return Reply.no("bad_seat")
        info = t.seats[cmd.seat - 1]
        assert info is not None
        if info.user_id is None:
            if t.status is not TableStatus.LOBBY:
                return Reply.no("not_in_lobby")
            t.seats[cmd.seat - 1] = None
            self._bump(t)
            return Reply.yes("kicked", seat=cmd.seat)
        return self._leave(t, info.user_id, outs, kicked=True)

    def _bot_name(self, t: Table, seat: int) -> str:
        return ("电脑" if t.settings.lang == "zh" else "AI ") + str(seat)

    def _add_bots(self, t: Table, cmd: AddBots) -> Reply:
        if t.status is not TableStatus.LOBBY:
            return Reply.no("not_in_lobby")
        if not t.settings.ai_fill:
            return Reply.no("ai_not_allowed")
        if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
            return Reply.no("not_seated")
        empty = [s for s in SEATS if t.seats[s - 1] is None]
        if not empty:
            return Reply.no("table_full")
        count = cmd.count if type(cmd.count) is int else 1  # a malformed count adds one
        added = empty[: max(1, min(count, len(empty)))]
        for s in added:
            t.seats[s - 1] = SeatInfo(None, self._bot_name(t, s))
        self._bump(t)
        return Reply.yes("bots_added", count=len(added))

    def _remove_bot(self, t: Table, cmd: RemoveBot) -> Reply:
        if t.status is not TableStatus.LOBBY:
            return Reply.no("not_in_lobby")
        bots = [s for s in SEATS if (i := t.seats[s - 1]) is not None and i.is_ai]
        if cmd.seat is not None:
            if not is_seat(cmd.seat) or cmd.seat not in bots:
                return Reply.no("no_bot_there", seat=cmd.seat)
            target = cmd.seat
        elif bots:
            target = bots[-1]
        else:
            return Reply.no("no_bots")
        t.seats[target - 1] = None
        self._bump(t)
        return Reply.yes("bot_removed", seat=target)

    def _start(self, t: Table, cmd: Start, outs: list[Out]) -> Reply:
        if t.status is not TableStatus.LOBBY:
            return Reply.no("already_started")
        if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
            return Reply.no("not_seated")
        empty = [s for s in SEATS if t.seats[s - 1] is None]
        if empty and not t.settings.ai_fill:
            return Reply.no("need_six", missing=len(empty))
        for s in empty:
            t.seats[s - 1] = SeatInfo(None, self._bot_name(t, s))
        t.status = TableStatus.PLAYING
        outs.append(self._notice(t, "match_started", preset=t.settings.preset))
        self._deal(t, outs)
        return Reply.yes("started")
