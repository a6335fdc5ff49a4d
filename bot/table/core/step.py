"""The pure core of the table manager: ``step(table, command, env) -> Step``.

A step copies the table, applies one command (or one tick of the clock) to the copy, and
returns the new table with everything it has to say. It never awaits, locks, stores or
sends: the shell (``bot.table.manager``) does that with what the step returns.
"""

from __future__ import annotations

from dataclasses import replace

from ...engine.errors import IllegalAction
from ..commands import (
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
from ..outputs import Reply, params_of
from ..record import Table
from . import lobby, turns
from .context import Ctx, Env, Step
from .hands import advance
from .timers import tick
from .views import emit_views

QUIET = Reply.yes("ok")


def step(table: Table | None, cmd: Command, env: Env) -> Step:
    """Apply one command; the table passed in is never changed."""
    if isinstance(cmd, OpenTable):
        new, reply = lobby.open_table(cmd, table.copy() if table else None, env)
        opened = _finish(Ctx(new, env), reply)
        return replace(opened, fresh=reply.key == "table_opened")
    if table is None or not table.live():
        return Step(table, Reply.no("no_table"))
    c = Ctx(table.copy(), env)
    try:
        reply = _dispatch(c, cmd)
    except IllegalAction as err:
        # The engine refused: nothing of this step is kept.
        return Step(table, Reply(False, err.code.value, params_of(**err.params)))
    return _finish(c, reply)


def tick_table(table: Table, env: Env) -> Step:
    """Let time pass: fire the table's due deadline (or its turn warning)."""
    c = Ctx(table.copy(), env)
    if not tick(c):
        return Step(table, QUIET)
    return _finish(c, QUIET)


def resume(table: Table, env: Env) -> Step:
    """After a restart: let the AI seats act and set the timers again."""
    c = Ctx(table.copy(), env)
    advance(c)
    return _finish(c, QUIET)


def _finish(c: Ctx, reply: Reply) -> Step:
    emit_views(c)
    return Step(c.t, reply, tuple(c.outs), tuple(c.finished))


def _dispatch(c: Ctx, cmd: Command) -> Reply:
    reply = _seat_command(c, cmd)
    if reply is None:
        reply = _match_command(c, cmd)
    return reply if reply is not None else Reply.no("unknown_command")


def _seat_command(c: Ctx, cmd: Command) -> Reply | None:
    match cmd:
        case Join():
            return lobby.join(c, cmd)
        case Leave():
            return lobby.leave(c, cmd.actor.user_id, kicked=False)
        case SwapSeat():
            return lobby.swap(c, cmd)
        case Kick():
            return lobby.kick(c, cmd)
        case AddBots():
            return lobby.add_bots(c, cmd)
        case RemoveBot():
            return lobby.remove_bot(c, cmd)
        case Spectate():
            return turns.spectate(c, cmd.actor.user_id)
        case Start():
            return lobby.start(c, cmd)
    return None


def _match_command(c: Ctx, cmd: Command) -> Reply | None:
    match cmd:
        case Act():
            return turns.act(c, cmd)
        case AskCount():
            return turns.ask_count(c, cmd)
        case Ready():
            return turns.ready(c, cmd)
        case SetAutoplay():
            return turns.set_autoplay(c, cmd)
        case NextHand():
            return turns.next_hand(c, cmd)
        case StopMatch():
            return turns.stop_match(c, cmd)
        case ChangeSettings():
            return turns.new_settings(c)
    return None
