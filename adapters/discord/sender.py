"""From the manager's outputs to Discord messages.

Everything written to a table's channel goes through that channel's ``ChannelWriter``
(adapters/discord/pacing.py): one budget of 5 writes per 5 seconds, posts (报户
answers, results, turn pings) before the table edit, and the table message edited in
place at most once per ``table_interval`` seconds, always ending on the latest snapshot.
Hands go by DM; a player whose DMs are closed sees the hand in an ephemeral message,
refreshed here while its token is alive, and is pinged in the channel when their turn
comes (the ping is deleted once they have moved: edits of an ephemeral view do not notify).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, assert_never

import discord

from bot.ai import Role
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.present.controls import Controls, controls_of
from bot.table import (
    HandChanged,
    HandFinished,
    MatchOver,
    NoteCode,
    NoticeCode,
    TableManager,
    TableStatus,
)
from bot.table.describe import note_text, notice_text
from bot.table.outputs import Notice, Out, PrivateNote, PrivateSnapshot, TableChanged, TableSnapshot

from ..bounded import CHATS, USERS, BoundedMap
from ..drawing import Drawer
from .custom_ids import Ref
from .dms import closed_hand, remember
from .images import HAND_FILE, RESULT_FILE, TABLE_FILE, as_file, hand_png, result_png, table_png
from .pacing import ChannelWriter, Coalescer, LoopTiming, Timing, call_nonce, channel_rules
from .records import review_view
from .views import (
    Pick,
    add_link,
    highlight_of,
    private_content,
    private_view,
    table_content,
    table_view,
    unix_deadline,
)

log = logging.getLogger(__name__)

CAPTION_LINES = 4
EPHEMERAL_TTL = 14 * 60  # interaction tokens last 15 minutes
DM_CLOSED = 50007  # Discord: cannot send messages to this user
PINGED = frozenset({Role.TURN, Role.RETURN, Role.PRE_PLAY})  # not burns: optional, frequent


@dataclass
class TableMessage:
    ref: Ref
    writer: ChannelWriter
    message_id: int | None = None
    repost: bool = False
    ended: bool = False  # the match is over: forget this table once its writes are done
    captions: deque[str] = field(default_factory=lambda: deque(maxlen=CAPTION_LINES))
    dm_warned: set[tuple[str, int]] = field(default_factory=set)  # (user, hand) told once


@dataclass
class PrivateMessage:
    key: str
    user: str
    updater: Coalescer | None = None
    dm_channel: int | None = None
    dm_message: int | None = None
    dm_closed_hand: int | None = None  # DMs failed during this hand: retry at the next
    last_role: str | None = None
    ephemeral: discord.Interaction[Any] | None = None
    ephemeral_at: float = 0.0
    pings: list[int] = field(default_factory=list)  # channel mentions to delete after the move


class Sender:
    def __init__(
        self,
        client: discord.Client,
        manager: TableManager,
        table_interval: float = 2.0,
        private_interval: float = 0.5,
        timing: Timing | None = None,
        draw: Drawer | None = None,
    ) -> None:
        self.client = client
        # Draws the pictures off the event loop (adapters/drawing.py): threads unless the
        # composition root gives it processes.
        self.draw = draw or Drawer()
        self.manager = manager
        self.table_interval = table_interval
        self.private_interval = private_interval
        self.timing: Timing = timing or LoopTiming()
        # One budget for every channel, its memory kept with each channel's table.
        self.rules = channel_rules(self.timing, manager)
        # Bounded; a finished table and its players' views also leave once written out.
        self.tables: BoundedMap[str, TableMessage] = BoundedMap(CHATS)
        self.privates: BoundedMap[tuple[str, str], PrivateMessage] = BoundedMap(USERS)
        # The web table's links (adapters/web), when GOUJI_WEB_URL is set: a player's own
        # signed page (table, user) and the channel's spectator page (table).
        self.seat_link: Callable[[str, str], str] | None = None
        self.watch_link: Callable[[str], str] | None = None

    # -- bookkeeping ------------------------------------------------------------------
    def _table(self, key: str) -> TableMessage:
        tm = self.tables.get(key)
        if tm is None:
            ref = Ref.from_key(key)
            # The lane's chat is the table's key (a channel has one table): its memory
            # is that table's meta.
            writer = ChannelWriter(
                key, self.rules, self.timing, self.table_interval, lambda: self._idle(key)
            )
            tm = self.tables[key] = TableMessage(ref, writer)
        return tm

    def _private(self, key: str, user: str) -> PrivateMessage:
        pm = self.privates.get((key, user))
        if pm is None:
            pm = self.privates[(key, user)] = PrivateMessage(key, user)
            pm.dm_closed_hand = closed_hand(self.manager, key, user)  # from before a restart
            pm.updater = Coalescer(
                lambda: self._update_private(pm), self.private_interval, self.timing
            )
        return pm

    def _poke(self, key: str, user: str) -> None:
        updater = self._private(key, user).updater
        assert updater is not None
        updater.poke()

    def _idle(self, key: str) -> None:
        """The channel has written everything: a finished table leaves memory."""
        tm = self.tables.get(key)
        snap = self.manager.snapshot(key)
        if (
            tm is None
            or not tm.ended
            or (snap is not None and snap.status is not TableStatus.FINISHED)
        ):
            return
        self.tables.pop(key)
        for pair in [p for p in self.privates if p[0] == key]:
            self.privates.pop(pair)

    def tasks(self) -> list[asyncio.Task[None]]:
        out = [tm.writer.task for tm in self.tables.values()]
        out += [pm.updater.task for pm in self.privates.values() if pm.updater is not None]
        return [task for task in out if task is not None and not task.done()]

    async def drain(self) -> None:
        """Wait until every pending edit and post has gone out."""
        while pending := self.tasks():
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for task in self.tasks():
            task.cancel()
        await asyncio.gather(*self.tasks(), return_exceptions=True)

    def repost(self, key: str) -> None:
        """Post the table message anew (at the bottom of the channel) on its next update."""
        self._table(key).repost = True

    def remember_ephemeral(
        self, key: str, user: str, interaction: discord.Interaction[Any]
    ) -> None:
        """A private view shown ephemerally: later changes edit it while its token lives."""
        pm = self._private(key, user)
        pm.ephemeral = interaction
        pm.ephemeral_at = self.timing.now()

    # -- the manager's outputs ---------------------------------------------------------
    async def on_out(self, out: Out) -> None:
        # Only Discord's tables' outputs reach it (subscribed for DISCORD's alone).
        tm = self._table(out.table)
        match out:
            case TableChanged():
                self._touch_table(tm)
            case Notice():
                self._notice(tm, out)
            case PrivateNote():
                self._note(tm, out)
            case HandChanged(user=user):
                self._poke(out.table, user)
            case HandFinished():
                self._result(tm, out)
            case MatchOver(totals=(a, b)):
                tm.ended = True
                self._say(tm, t("match_over", self._lang(out.table), a=a, b=b))
            case _:
                assert_never(out)

    def _lang(self, key: str) -> Lang:
        snap = self.manager.snapshot(key)
        return snap.settings.lang if snap is not None else "zh"

    def _touch_table(self, tm: TableMessage) -> None:
        async def edit() -> int:
            return await self._edit_table(tm)

        tm.writer.touch(edit)

    def _say(self, tm: TableMessage, text: str, mention: int | None = None) -> None:
        async def post() -> int:
            await self._post(tm.ref, text, mention=mention)
            return 1

        tm.writer.post(post)

    def _notice(self, tm: TableMessage, out: Notice) -> None:
        lang = self._lang(out.table)
        if out.key == NoticeCode.COUNT_ANSWER:
            self._say(tm, notice_text(out, lang))
            return
        if out.minor:
            return
        if out.key == NoticeCode.SEAT_TO_AI:
            # The leaver's private controls would only be refused now: take them away.
            for key, user in list(self.privates):
                if key == out.table and self.manager.private_snapshot(key, user) is None:
                    self._poke(key, user)
        if out.key == NoticeCode.HAND_STARTED:
            tm.captions.clear()
            tm.dm_warned.clear()  # once per hand: the last hand's marks are done with
        tm.captions.append(notice_text(out, lang))
        self._touch_table(tm)

    def _note(self, tm: TableMessage, out: PrivateNote) -> None:
        """A private line for one player (a timer warning, a queued play refused)."""
        user = out.user
        text = note_text(out, self._lang(out.table))
        pm = self._private(out.table, user)
        if pm.dm_closed_hand is None:
            tm.writer.post(lambda: self._dm_text(pm, text))
        elif self._ephemeral_alive(pm):
            tm.writer.post(lambda: self._ephemeral_text(pm, text))
        elif out.key == NoteCode.TURN_WARNING:
            ping = t("dc_ping", self._lang(out.table), mention=f"<@{user}>", text=text)
            tm.writer.post(lambda: self._ping(tm, pm, ping))

    def _result(self, tm: TableMessage, out: HandFinished) -> None:
        snap = self.manager.snapshot(out.table)
        if snap is None:
            return
        names = list(snap.names)
        rules = snap.rules
        lang = snap.settings.lang
        totals = (int(out.totals[0]), int(out.totals[1]))
        preset = rules.preset if rules else None
        multiplier = rules.sweep_multiplier if rules else None

        async def post() -> int:
            data = await result_png(
                self.draw, out.result, names, totals, lang, out.hand_no, preset, multiplier
            )
            text = t("dc_result", lang, hand_no=out.hand_no)
            # 📝: the hand is the group's latest record (stored before the result is sent)
            rows = await self.manager.recent_hands(tm.ref.chat.group_key, 1)
            view = review_view(tm.ref, rows[0][0], lang) if rows else None
            await self._post(tm.ref, text, file=as_file(data, RESULT_FILE), view=view)
            return 1

        tm.writer.post(post)

    # -- channel messages ----------------------------------------------------------------
    def _channel(self, ref: Ref) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(ref.channel, guild_id=ref.guild)

    async def _post(
        self,
        ref: Ref,
        text: str,
        file: discord.File | None = None,
        mention: int | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message:
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(mention)] if mention else False
        )
        kwargs: dict[str, Any] = {
            "content": text,
            "allowed_mentions": allowed,
            "nonce": call_nonce(),  # a retry by another worker returns the first message
        }
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        return await self._channel(ref).send(**kwargs)

    async def _ping(self, tm: TableMessage, pm: PrivateMessage, text: str) -> int:
        """A short mention in the channel (it notifies); deleted once the player moved."""
        message = await self._post(tm.ref, text, mention=int(pm.user))
        pm.pings.append(message.id)
        return 1

    def _unping(self, pm: PrivateMessage) -> None:
        """The player has moved (or the turn is gone): their pings leave the channel."""
        if not pm.pings:
            return
        tm = self._table(pm.key)
        ids, pm.pings = pm.pings, []
        for message_id in ids:

            async def delete(message_id: int = message_id) -> int:
                try:
                    await self._channel(tm.ref).get_partial_message(message_id).delete()
                except discord.HTTPException:
                    log.debug("a turn ping was already gone")
                return 1

            tm.writer.post(delete)

    async def _edit_table(self, tm: TableMessage) -> int:
        """Bring the table message up to date; returns the calls made."""
        key = tm.ref.key
        snap = self.manager.snapshot(key)
        if snap is None:
            return 0
        if tm.message_id is None:
            # After a restart the table's message id comes back from the store.
            tm.message_id = stored_message_id(dict(snap.meta).get(MESSAGE_ID), snap.match_id)
        content = table_content(snap, list(tm.captions), self._deadline(snap))
        view = table_view(snap, tm.ref)
        if self.watch_link is not None and snap.status is not TableStatus.FINISHED:
            add_link(view, t("dc_btn_watch", snap.settings.lang), self.watch_link(key))
        data = await table_png(self.draw, snap)
        channel = self._channel(tm.ref)
        calls = 0
        if tm.message_id is not None and not tm.repost:
            files = [as_file(data, TABLE_FILE)] if data is not None else []
            calls += 1
            try:
                await channel.get_partial_message(tm.message_id).edit(
                    content=content, attachments=files, view=view
                )
                return calls
            except discord.NotFound:
                log.info("table message of %s was deleted; posting a new one", key)
        tm.repost = False
        files = [as_file(data, TABLE_FILE)] if data is not None else []
        message = await channel.send(
            content=content,
            files=files,
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
            nonce=call_nonce(),
        )
        tm.message_id = message.id
        await self.manager.set_meta(key, MESSAGE_ID, {"id": message.id, "match": snap.match_id})
        return calls + 1

    def _deadline(self, snap: TableSnapshot) -> float | None:
        if snap.turn_deadline is None:
            return None
        return unix_deadline(snap.turn_deadline, self.manager.clock.now())

    # -- private messages ------------------------------------------------------------------
    async def render_private(
        self, priv: PrivateSnapshot, pick: Pick | None = None
    ) -> tuple[str, bytes, discord.ui.View]:
        """Text, hand image and controls of one seat's private view."""
        pick = pick or Pick()
        snap = self.manager.snapshot(priv.key)
        names = list(snap.names) if snap is not None else []
        content = private_content(priv, snap)
        # No table (it has just gone): the hand is shown with nothing left to press.
        controls = controls_of(priv, snap) if snap is not None else Controls(priv.seat, 0)
        view = self.with_seat_link(private_view(priv, Ref.from_key(priv.key), pick, controls), priv)
        data = await hand_png(self.draw, priv, names, highlight_of(priv, pick))
        return content, data, view

    def with_seat_link(self, view: discord.ui.View, priv: PrivateSnapshot) -> discord.ui.View:
        """The player's controls, with the link to their own seat in the web table."""
        if self.seat_link is None:
            return view
        return add_link(view, t("dc_btn_web", priv.lang), self.seat_link(priv.key, priv.user_id))

    async def _update_private(self, pm: PrivateMessage) -> None:
        priv = self.manager.private_snapshot(pm.key, pm.user)
        snap = self.manager.snapshot(pm.key)
        if priv is None or snap is None:
            self._unping(pm)
            await self._retire_private(pm)
            return
        if pm.dm_closed_hand is not None and pm.dm_closed_hand != snap.hand_no:
            pm.dm_closed_hand = None  # a new hand: they may have opened their DMs
        role = None if priv.autoplay else priv.role
        if role is None:
            self._unping(pm)  # they moved (or the AI did): the mention has done its work
        if pm.dm_closed_hand is None or self._ephemeral_alive(pm):
            content, data, view = await self.render_private(priv)
            if pm.dm_closed_hand is None:
                await self._send_dm(pm, priv, snap, content, data, view)
            await self._edit_ephemeral(pm, content, data, view)
        if pm.dm_closed_hand is not None and pm.last_role is None and role in PINGED:
            self._call(pm, snap)
        pm.last_role = role

    def _call(self, pm: PrivateMessage, snap: TableSnapshot) -> None:
        """A player without DMs must act: a short mention in the channel notifies them
        (an edit of their ephemeral view would not)."""
        tm = self._table(pm.key)
        text = t("dc_turn_ping", snap.settings.lang, mention=f"<@{pm.user}>")
        tm.writer.post(lambda: self._ping(tm, pm, text))

    async def _send_dm(
        self,
        pm: PrivateMessage,
        priv: PrivateSnapshot,
        snap: TableSnapshot,
        content: str,
        data: bytes,
        view: discord.ui.View,
    ) -> None:
        calling = priv.role is not None and not priv.autoplay and pm.last_role is None
        file = as_file(data, HAND_FILE)
        try:
            if pm.dm_message is not None and pm.dm_channel is not None and not calling:
                channel = self.client.get_partial_messageable(pm.dm_channel)
                try:
                    await channel.get_partial_message(pm.dm_message).edit(
                        content=content, attachments=[file], view=view
                    )
                    return
                except discord.NotFound:
                    file = as_file(data, HAND_FILE)
            # A new message when the player is called to act, so their client notifies them.
            dm = await self.client.create_dm(discord.Object(int(pm.user)))
            message = await dm.send(content=content, file=file, view=view, nonce=call_nonce())
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                log.warning("DM to a player refused (code %s)", err.code)
            pm.dm_closed_hand = snap.hand_no
            self._tell_dms_closed(pm, snap)
            await remember(self.manager, pm.key, pm.user, snap.hand_no)
            return
        await remember(self.manager, pm.key, pm.user, None)  # they are reachable (again)
        old = (pm.dm_channel, pm.dm_message)
        pm.dm_channel, pm.dm_message = dm.id, message.id
        if old[0] is not None and old[1] is not None and old[1] != message.id:
            try:
                await (
                    self.client.get_partial_messageable(old[0]).get_partial_message(old[1]).delete()
                )
            except discord.HTTPException:
                log.debug("old hand message already gone")

    def _tell_dms_closed(self, pm: PrivateMessage, snap: TableSnapshot) -> None:
        tm = self._table(pm.key)
        once = (pm.user, snap.hand_no)
        if once in tm.dm_warned:
            return
        tm.dm_warned.add(once)
        log.info("DMs closed for a player at %s; using ephemeral hands", pm.key)
        text = t("dc_dm_closed", snap.settings.lang, mention=f"<@{pm.user}>")
        self._say(tm, text, mention=int(pm.user))

    async def _edit_ephemeral(
        self, pm: PrivateMessage, content: str, data: bytes, view: discord.ui.View | None
    ) -> None:
        interaction = pm.ephemeral
        if interaction is None or not self._ephemeral_alive(pm):
            return
        try:
            await interaction.edit_original_response(
                content=content, attachments=[as_file(data, HAND_FILE)], view=view
            )
        except discord.HTTPException:
            pm.ephemeral = None  # dismissed or expired: the [我的牌] button makes a new one

    def _ephemeral_alive(self, pm: PrivateMessage) -> bool:
        if pm.ephemeral is None:
            return False
        if self.timing.now() - pm.ephemeral_at > EPHEMERAL_TTL:
            pm.ephemeral = None
            return False
        return True

    async def _ephemeral_text(self, pm: PrivateMessage, text: str) -> int:
        """Not a channel write (it answers an interaction): costs no channel budget."""
        if pm.ephemeral is not None:
            try:
                await pm.ephemeral.followup.send(text, ephemeral=True)
            except discord.HTTPException:
                pm.ephemeral = None
        return 0

    async def _dm_text(self, pm: PrivateMessage, text: str) -> int:
        """A DM is not a channel write: it costs no channel budget."""
        try:
            dm = await self.client.create_dm(discord.Object(int(pm.user)))
            await dm.send(content=text, nonce=call_nonce())
        except discord.Forbidden:
            log.debug("private note not delivered: DMs closed")
        return 0

    async def _retire_private(self, pm: PrivateMessage) -> None:
        """The seat is no longer this user's (left, match over): drop the stale controls."""
        if pm.dm_message is not None and pm.dm_channel is not None:
            try:
                await (
                    self.client.get_partial_messageable(pm.dm_channel)
                    .get_partial_message(pm.dm_message)
                    .edit(view=None)
                )
            except discord.HTTPException:
                log.debug("old hand message already gone")
            pm.dm_message = None
        pm.last_role = None


MESSAGE_ID = "dc_message_id"  # the table message's id and match, in the table's meta


def stored_message_id(stored: object, match: int) -> int | None:
    """The table message's id as stored, unless it shows another match at this channel:
    the values are rows that outlive a table, and a cluster's worker may read the
    previous match's back before the new match stored its own (a new match gets a
    message of its own). A bare id was stored before the match was kept with it."""
    if isinstance(stored, dict):
        if stored.get("match") not in (None, match):
            return None
        stored = stored.get("id")
    if isinstance(stored, int | str) and str(stored).isdigit():
        return int(stored)
    return None
