"""One press protocol for every front end: a seat's press on its controls, judged once.

A front end decodes its payload (callback data, custom id, a page's JSON) into a
``Control`` and the table version the controls were drawn for, and calls ``press``. Here,
and nowhere else:

1. the seat's hand is read, again from the store when the controls are newer than this
   worker's copy (another worker committed that state: ``manager.reread``);
2. 💡 and refresh are answered, and ready / 托管 / 报户 sent at any version;
3. a press made for another version changes nothing: a second action from the controls
   this seat has just played from is a double tap (``already_played``), anything else
   (a menu of those controls too) is ``stale`` and the controls are redrawn;
4. a control the state does not offer is refused the same way (``Controls.offers``);
5. navigation changes nothing at the table: the front end draws that screen;
6. an action goes to the manager (which checks the version again under its lock), and
   once it went through the pressed controls give way to the new state's (``SWAP``).

The front end then only says ``Pressed.reply`` in its words and redraws as told.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from bot.present.controls import Control, Controls, Op, controls_of
from bot.table import Actor, ChatRef, PrivateSnapshot, Reply, ReplyCode, TableManager
from bot.table.hints import Hint
from bot.table.outputs import TableSnapshot


class Verdict(Enum):
    NO_HAND = auto()  # the presser holds no hand at this table (now)
    REFUSED = auto()  # stale, a double tap, or not offered: nothing changed (``reply`` says)
    NAVIGATE = auto()  # another screen of the same controls
    HINT = auto()  # 💡: ``hint`` for the presser's eyes only
    DONE = auto()  # the table answered (``reply``)


class Redraw(Enum):
    NONE = auto()
    SWAP = auto()  # the pressed controls are spent: replace them at once with the new state's
    REFRESH = auto()  # bring the seat's controls up to date (the usual way)


@dataclass(frozen=True, slots=True)
class Pressed:
    verdict: Verdict
    reply: Reply | None = None
    redraw: Redraw = Redraw.NONE
    priv: PrivateSnapshot | None = None  # the seat's hand after the press
    table: TableSnapshot | None = None
    controls: Controls | None = None  # what the seat is offered after the press
    hint: Hint | None = None


async def seat_view(
    manager: TableManager, chat: ChatRef, user_id: str, version: int | None
) -> PrivateSnapshot | None:
    """The seat's hand as a press drawn at ``version`` must be judged. Controls made from a
    newer state than this worker's copy, or for a table it holds no copy of, prove the copy
    behind: the table is read again rather than a current press called out of date."""
    priv = manager.private_snapshot(chat.key, user_id)
    if priv is None or (version is not None and version > priv.version):
        await manager.reread(chat)
        priv = manager.private_snapshot(chat.key, user_id)
    return priv


async def press(
    manager: TableManager,
    chat: ChatRef,
    actor: Actor,
    control: Control,
    version: int,
    ai_later: bool = False,
) -> Pressed:
    """Judge and carry out one press (see the module's docstring). ``ai_later``: answer a
    play once it is made, before the AI seats answer it (``TableManager.handle``) — a
    front end that shows every move live (the web page) needs no wait for them."""
    priv = await seat_view(manager, chat, actor.user_id, version)
    table = manager.snapshot(chat.key)
    if priv is None or table is None:
        return Pressed(Verdict.NO_HAND)
    if control.op is Op.HINT:
        return Pressed(Verdict.HINT, hint=await manager.hint(chat.key, actor.user_id))
    if control.anytime:
        return await _anytime(manager, chat, actor, control)
    if version != priv.version:
        if priv.played == version and not control.is_nav:
            return Pressed(Verdict.REFUSED, Reply.no(ReplyCode.ALREADY_PLAYED))
        return _stale(priv, table)
    controls = controls_of(priv, table)
    if not controls.offers(control):
        return _stale(priv, table)
    if control.is_nav:
        return Pressed(Verdict.NAVIGATE, priv=priv, table=table, controls=controls)
    command = control.command(chat, actor, version)
    if command is None:  # not burning: the window passes by itself
        return Pressed(Verdict.DONE, Reply.yes(ReplyCode.OK))
    reply = await manager.handle(command, ai_later)
    if reply.key == ReplyCode.STALE:  # the table moved on while this press waited
        return _stale(priv, table, reply)
    return _after(manager, chat, actor, reply, Redraw.SWAP if reply.ok else Redraw.NONE)


def _stale(priv: PrivateSnapshot, table: TableSnapshot, reply: Reply | None = None) -> Pressed:
    return Pressed(
        Verdict.REFUSED,
        reply or Reply.no(ReplyCode.STALE),
        Redraw.REFRESH,
        priv,
        table,
    )


async def _anytime(manager: TableManager, chat: ChatRef, actor: Actor, control: Control) -> Pressed:
    """Refresh, ready, 托管, 报户: what the player wants whatever happened since. "Ready"
    changes no hand and no role, so the manager sends no update for it: redraw here."""
    command = control.command(chat, actor, None)
    reply = None if command is None else await manager.handle(command)
    return _after(manager, chat, actor, reply, Redraw.REFRESH)


def _after(
    manager: TableManager, chat: ChatRef, actor: Actor, reply: Reply | None, redraw: Redraw
) -> Pressed:
    priv = manager.private_snapshot(chat.key, actor.user_id)
    table = manager.snapshot(chat.key)
    controls = controls_of(priv, table) if priv is not None and table is not None else None
    return Pressed(Verdict.DONE, reply, redraw, priv, table, controls)
