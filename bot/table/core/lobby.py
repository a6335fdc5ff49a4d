"""The lobby: opening a table, seats, AI seats, starting the match."""

from __future__ import annotations

from ...engine.state import SEATS
from ..codes import NoteCode, NoticeCode, ReplyCode
from ..commands import AddBots, Join, Kick, OpenTable, RemoveBot, Start, SwapSeat
from ..model import SeatInfo, TableStatus
from ..outputs import PrivateNote, Reply
from ..record import Table
from .context import Ctx, Env
from .hands import advance, deal, end_match


def is_seat(value: object) -> bool:
    """A seat number: an int 1..6 (``1.0`` and ``True`` compare equal to 1 but are refused)."""
    return type(value) is int and value in SEATS


def open_table(cmd: OpenTable, t: Table | None, env: Env) -> tuple[Table, Reply]:
    """The table at this chat (shown again if one is live), or a new one."""
    if t is not None and t.live():
        t.run.dirty = True
        return t, Reply.yes(ReplyCode.TABLE_SHOWN)
    new = Table(
        chat=cmd.chat,
        creator=cmd.actor.user_id,
        settings=env.settings,
        match_seed=env.new_seed,
        turn_seconds=env.settings.turn_seconds,
    )
    if cmd.sit:
        new.seats[0] = SeatInfo(cmd.actor.user_id, cmd.actor.name)
    new.version += 1
    return new, Reply.yes(ReplyCode.TABLE_OPENED)


def _auto_seat(t: Table) -> int | None:
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


def join(c: Ctx, cmd: Join) -> Reply:
    t, actor = c.t, cmd.actor
    if t.seat_of(actor.user_id) is not None:
        return Reply.no(ReplyCode.ALREADY_SEATED, seat=t.seat_of(actor.user_id))
    if t.status is TableStatus.PLAYING:
        return Reply.no(ReplyCode.MATCH_IN_PROGRESS)
    if cmd.seat is not None:
        if not is_seat(cmd.seat):
            return Reply.no(ReplyCode.BAD_SEAT)
        info = t.seats[cmd.seat - 1]
        if info is not None and not info.is_ai:
            return Reply.no(ReplyCode.SEAT_TAKEN, seat=cmd.seat)
        seat: int | None = cmd.seat
    else:
        seat = _auto_seat(t)
    if seat is None:
        return Reply.no(ReplyCode.TABLE_FULL)
    c.set_seat(seat, SeatInfo(actor.user_id, actor.name))
    t.spectators = t.spectators - {actor.user_id}
    c.bump()
    return Reply.yes(ReplyCode.JOINED, seat=seat)


def leave(c: Ctx, user_id: str, kicked: bool) -> Reply:
    t = c.t
    seat = t.seat_of(user_id)
    if seat is None:
        if user_id in t.spectators:
            t.spectators = t.spectators - {user_id}
            return Reply.yes(ReplyCode.LEFT)
        return Reply.no(ReplyCode.NOT_SEATED)
    info = t.seats[seat - 1]
    assert info is not None
    if t.status is TableStatus.LOBBY:
        c.set_seat(seat, None)
    else:
        # Mid-match the seat plays on as an AI, so no hand is ever stranded.
        c.set_seat(seat, SeatInfo(None, f"{info.name}·AI"))
        t.run.private_sig.pop(seat, None)
        # Tell the player's private view its controls are gone.
        c.outs.append(PrivateNote(t.key, user_id, NoteCode.SEAT_LEFT))
        c.notice(NoticeCode.SEAT_TO_AI, seat=seat, name=info.name)
        if t.run.state is not None and not t.run.state.over:
            advance(c)
    c.bump()
    if not t.humans() and t.status is not TableStatus.LOBBY:
        end_match(c, stopped=True)
    elif not t.humans() and t.status is TableStatus.LOBBY and not any(t.seats):
        t.status = TableStatus.FINISHED
    return Reply.yes(ReplyCode.KICKED if kicked else ReplyCode.LEFT, seat=seat)


def swap(c: Ctx, cmd: SwapSeat) -> Reply:
    t = c.t
    if t.status is not TableStatus.LOBBY:
        return Reply.no(ReplyCode.NOT_IN_LOBBY)
    seat = t.seat_of(cmd.actor.user_id)
    if seat is None:
        return Reply.no(ReplyCode.NOT_SEATED)
    if not is_seat(cmd.seat):
        return Reply.no(ReplyCode.BAD_SEAT)
    other = t.seats[cmd.seat - 1]
    if other is not None and not other.is_ai:
        return Reply.no(ReplyCode.SEAT_TAKEN, seat=cmd.seat)
    t.seats[cmd.seat - 1], t.seats[seat - 1] = t.seats[seat - 1], other
    c.bump()
    return Reply.yes(ReplyCode.SWAPPED, seat=cmd.seat)


def kick(c: Ctx, cmd: Kick) -> Reply:
    t = c.t
    if cmd.actor.user_id != t.creator and not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_CREATOR_OR_ADMIN)
    if not is_seat(cmd.seat) or t.seats[cmd.seat - 1] is None:
        return Reply.no(ReplyCode.BAD_SEAT)
    info = t.seats[cmd.seat - 1]
    assert info is not None
    if info.user_id is None:
        if t.status is not TableStatus.LOBBY:
            return Reply.no(ReplyCode.NOT_IN_LOBBY)
        c.set_seat(cmd.seat, None)
        c.bump()
        return Reply.yes(ReplyCode.KICKED, seat=cmd.seat)
    return leave(c, info.user_id, kicked=True)


def _bot_name(t: Table, seat: int) -> str:
    return ("电脑" if t.settings.lang == "zh" else "AI ") + str(seat)


def add_bots(c: Ctx, cmd: AddBots) -> Reply:
    t = c.t
    if t.status is not TableStatus.LOBBY:
        return Reply.no(ReplyCode.NOT_IN_LOBBY)
    if not t.settings.ai_fill:
        return Reply.no(ReplyCode.AI_NOT_ALLOWED)
    if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_SEATED)
    empty = [s for s in SEATS if t.seats[s - 1] is None]
    if not empty:
        return Reply.no(ReplyCode.TABLE_FULL)
    count = cmd.count if type(cmd.count) is int else 1  # a malformed count adds one
    added = empty[: max(1, min(count, len(empty)))]
    for s in added:
        c.set_seat(s, SeatInfo(None, _bot_name(t, s)))
    c.bump()
    return Reply.yes(ReplyCode.BOTS_ADDED, count=len(added))


def remove_bot(c: Ctx, cmd: RemoveBot) -> Reply:
    t = c.t
    if t.status is not TableStatus.LOBBY:
        return Reply.no(ReplyCode.NOT_IN_LOBBY)
    bots = [s for s in SEATS if (i := t.seats[s - 1]) is not None and i.is_ai]
    if cmd.seat is not None:
        if not is_seat(cmd.seat) or cmd.seat not in bots:
            return Reply.no(ReplyCode.NO_BOT_THERE, seat=cmd.seat)
        target = cmd.seat
    elif bots:
        target = bots[-1]
    else:
        return Reply.no(ReplyCode.NO_BOTS)
    c.set_seat(target, None)
    c.bump()
    return Reply.yes(ReplyCode.BOT_REMOVED, seat=target)


def start(c: Ctx, cmd: Start) -> Reply:
    t = c.t
    if t.status is not TableStatus.LOBBY:
        return Reply.no(ReplyCode.ALREADY_STARTED)
    if t.seat_of(cmd.actor.user_id) is None and not cmd.actor.is_admin:
        return Reply.no(ReplyCode.NOT_SEATED)
    empty = [s for s in SEATS if t.seats[s - 1] is None]
    if empty and not t.settings.ai_fill:
        return Reply.no(ReplyCode.NEED_SIX, missing=len(empty))
    for s in empty:
        c.set_seat(s, SeatInfo(None, _bot_name(t, s)))
    t.status = TableStatus.PLAYING
    c.notice(NoticeCode.MATCH_STARTED, preset=t.settings.preset)
    deal(c)
    return Reply.yes(ReplyCode.STARTED)
