"""The pure core of the table manager: ``step(table, command, env) -> Step``.

A step copies the table, applies one command (or one tick of the clock) to the copy, and
returns the new table with everything it has to say. It never awaits, locks, stores or
sends: the shell (``bot.table.manager``) does that with what the step returns.
"""

from __future__ import annotations

from dataclasses import replace

from ...engine.errors import IllegalAction
from .. import commands as cmds
from ..codes import ReplyCode
from ..outputs import Reply, params_of
from ..record import Table
from . import lobby, turns
from .context import Ctx, Env, Step
from .hands import advance
from .timers import tick
from .views import emit_views

QUIET = Reply.yes(ReplyCode.OK)


def step(table: Table | None, cmd: cmds.Command, env: Env) -> Step:
    """Apply one command; the table passed in is never changed."""
    if isinstance(cmd, cmds.OpenTable):
        new, reply = lobby.open_table(cmd, table.copy() if table else None, env)
        opened = _finish(Ctx(new, env), reply)
        return replace(opened, fresh=reply.key == ReplyCode.TABLE_OPENED)
    if table is None or not table.live():
        return Step(table, Reply.no(ReplyCode.NO_TABLE))
    c = Ctx(table.copy(), env)
    try:
        reply = _dispatch(c, cmd)
    except IllegalAction as err:
        # The engine refused: nothing of this step is kept.
        return Step(table, Reply(False, err.code, params_of(**err.params)))
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


def _dispatch(c: Ctx, cmd: cmds.Command) -> Reply:
    reply = _seat_command(c, cmd)
    if reply is None:
        reply = _match_command(c, cmd)
    return reply if reply is not None else Reply.no(ReplyCode.UNKNOWN_COMMAND)


def _seat_command(c: Ctx, cmd: cmds.Command) -> Reply | None:
    match cmd:
        case cmds.Join():
            return lobby.join(c, cmd)
        case cmds.Leave():
            return lobby.leave(c, cmd.actor.user_id, kicked=False)
        case cmds.SwapSeat():
            return lobby.swap(c, cmd)
        case cmds.Kick():
            return lobby.kick(c, cmd)
        case cmds.AddBots():
            return lobby.add_bots(c, cmd)
        case cmds.RemoveBot():
            return lobby.remove_bot(c, cmd)
        case cmds.Spectate():
            return turns.spectate(c, cmd.actor.user_id)
        case cmds.Start():
            return lobby.start(c, cmd)
    return None


def _match_command(c: Ctx, cmd: cmds.Command) -> Reply | None:
    match cmd:
        case cmds.Act():
            return turns.act(c, cmd)
        case cmds.AskCount():
            return turns.ask_count(c, cmd)
        case cmds.Ready():
            return turns.ready(c, cmd)
        case cmds.SetAutoplay():
            return turns.set_autoplay(c, cmd)
        case cmds.NextHand():
            return turns.next_hand(c, cmd)
        case cmds.StopMatch():
            return turns.stop_match(c, cmd)
        case cmds.ChangeSettings():
            return turns.new_settings(c)
    return None
