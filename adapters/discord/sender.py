"""From the manager's outputs to Discord messages.

The table message is edited in place, at most once per ``table_interval`` seconds and
always ending on the latest snapshot: AI seats can make a dozen moves in a millisecond
and Discord would rate-limit an edit for each. Channel posts (报户 answers, results) go
out in order through one lane per table. Hands go by DM; a player whose DMs are closed
sees the hand in an ephemeral message, refreshed here while its token is alive.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, assert_never

import discord

from bot.i18n import t
from bot.table import (
    HandChanged,
    HandFinished,
    MatchOver,
    Notice,
    Out,
    PrivateNote,
    PrivateSnapshot,
    TableChanged,
    TableManager,
    TableSnapshot,
)
from bot.table.describe import note_text, notice_text

from .custom_ids import Ref
from .images import HAND_FILE, RESULT_FILE, TABLE_FILE, as_file, hand_png, result_png, table_png
from .views import (
    Pick,
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

Job = Callable[[], Awaitable[None]]


class Coalescer:
    """Runs ``job`` soon after a poke, at most once per ``interval``.

    A poke while a run waits or works causes one more run, so the last run always sees
    the state after the last poke.
    """

    def __init__(self, job: Job, interval: float) -> None:
        self._job = job
        self.interval = interval
        self._dirty = False
        self._last = -math.inf
        self.task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        self._dirty = True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._dirty:
            wait = self._last + self.interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty = False
            try:
                await self._job()
            except Exception:
                log.exception("discord update failed")
            self._last = loop.time()


class Lane:
    """Jobs run one after another, in the order given."""

    def __init__(self) -> None:
        self._jobs: deque[Job] = deque()
        self.task: asyncio.Task[None] | None = None

    def submit(self, job: Job) -> None:
        self._jobs.append(job)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._jobs:
            job = self._jobs.popleft()
            try:
                await job()
            except Exception:
                log.exception("discord post failed")


@dataclass
class TableMessage:
    ref: Ref
    updater: Coalescer
    lane: Lane = field(default_factory=Lane)
    message_id: int | None = None
    repost: bool = False
    captions: deque[str] = field(default_factory=lambda: deque(maxlen=CAPTION_LINES))
    dm_warned: set[tuple[str, int]] = field(default_factory=set)  # (user, hand) told once


@dataclass
class PrivateMessage:
    key: str
    user: str
    updater: Coalescer
    dm_channel: int | None = None
    dm_message: int | None = None
    dm_closed_hand: int | None = None  # DMs failed during this hand: retry at the next
    last_role: str | None = None
    ephemeral: discord.Interaction[Any] | None = None
    ephemeral_at: float = 0.0


class Sender:
    def __init__(
        self,
        client: discord.Client,
        manager: TableManager,
        table_interval: float = 2.0,
        private_interval: float = 0.5,
    ) -> None:
        self.client = client
        self.manager = manager
        self.table_interval = table_interval
        self.private_interval = private_interval
        self.tables: dict[str, TableMessage] = {}
        self.privates: dict[tuple[str, str], PrivateMessage] = {}

    # -- bookkeeping ------------------------------------------------------------------
    def _table(self, key: str) -> TableMessage:
        tm = self.tables.get(key)
        if tm is None:
            updater = Coalescer(lambda: self._edit_table(key), self.table_interval)
            tm = TableMessage(Ref.from_key(key), updater)
            self.tables[key] = tm
        return tm

    def _private(self, key: str, user: str) -> PrivateMessage:
        pm = self.privates.get((key, user))
        if pm is None:
            updater = Coalescer(lambda: self._update_private(key, user), self.private_interval)
            pm = PrivateMessage(key, user, updater)
            self.privates[(key, user)] = pm
        return pm

    def tasks(self) -> list[asyncio.Task[None]]:
        out = []
        for tm in self.tables.values():
            out += [tm.updater.task, tm.lane.task]
        for pm in self.privates.values():
            out.append(pm.updater.task)
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
        pm.ephemeral_at = asyncio.get_running_loop().time()

    # -- the manager's outputs ---------------------------------------------------------
    async def on_out(self, out: Out) -> None:
        if not out.table.startswith("dc:"):
            return
        tm = self._table(out.table)
        match out:
            case TableChanged():
                tm.updater.poke()
            case Notice():
                self._notice(tm, out)
            case PrivateNote():
                self._note(tm, out)
            case HandChanged(user=user):
                self._private(out.table, user).updater.poke()
            case HandFinished():
                self._result(tm, out)
            case MatchOver(totals=(a, b)):
                text = t("match_over", self._lang(out.table), a=a, b=b)
                tm.lane.submit(lambda: self._post(tm.ref, text))
            case _:
                assert_never(out)

    def _lang(self, key: str) -> str:
        snap = self.manager.snapshot(key)
        return snap.settings.lang if snap is not None else "zh"

    def _notice(self, tm: TableMessage, out: Notice) -> None:
        lang = self._lang(out.table)
        if out.key == "count_answer":
            text = notice_text(out, lang)
            tm.lane.submit(lambda: self._post(tm.ref, text))
            return
        if out.minor:
            return
        if out.key == "seat_to_ai":
            # The leaver's private controls would only be refused now: take them away.
            for (key, user), pm in self.privates.items():
                if key == out.table and self.manager.private_snapshot(key, user) is None:
                    pm.updater.poke()
        if out.key == "hand_started":
            tm.captions.clear()
        tm.captions.append(notice_text(out, lang))
        tm.updater.poke()

    def _note(self, tm: TableMessage, out: PrivateNote) -> None:
        """A private line for one player (a timer warning, a queued play refused)."""
        user = out.user
        text = note_text(out, self._lang(out.table))
        pm = self._private(out.table, user)
        if pm.dm_closed_hand is None:
            tm.lane.submit(lambda: self._dm_text(pm, text))
        elif self._ephemeral_alive(pm):
            tm.lane.submit(lambda: self._ephemeral_text(pm, text))
        elif out.key == "turn_warning":
            ping = t("dc_ping", self._lang(out.table), mention=f"<@{user}>", text=text)
            tm.lane.submit(lambda: self._post(tm.ref, ping, mention=int(user)))

    def _result(self, tm: TableMessage, out: HandFinished) -> None:
        snap = self.manager.snapshot(out.table)
        if snap is None:
            return
        names = list(snap.names)
        rules = snap.rules
        lang = snap.settings.lang
        hand_no = out.hand_no
        totals = out.totals
        result = out.result

        async def post() -> None:
            data = await result_png(
                result,
                names,
                (int(totals[0]), int(totals[1])),
                lang,
                hand_no,
                rules.preset if rules else None,
                rules.sweep_multiplier if rules else None,
            )
            text = t("dc_result", lang, hand_no=hand_no)
            await self._post(tm.ref, text, file=as_file(data, RESULT_FILE))

        tm.lane.submit(post)

    # -- channel messages ----------------------------------------------------------------
    def _channel(self, ref: Ref) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(ref.channel, guild_id=ref.guild)

    async def _post(
        self,
        ref: Ref,
        text: str,
        file: discord.File | None = None,
        mention: int | None = None,
    ) -> None:
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(mention)] if mention else False
        )
        kwargs: dict[str, Any] = {"content": text, "allowed_mentions": allowed}
        if file is not None:
            kwargs["file"] = file
        await self._channel(ref).send(**kwargs)

    async def _edit_table(self, key: str) -> None:
        snap = self.manager.snapshot(key)
        tm = self.tables[key]
        if snap is None:
            return
        if tm.message_id is None:
            # After a restart the table's message id comes back from the store.
            stored = dict(snap.meta).get("dc_message_id")
            tm.message_id = int(stored) if isinstance(stored, int | str) else None
        content = table_content(snap, list(tm.captions), self._deadline(snap))
        view = table_view(snap, tm.ref)
        data = await table_png(snap)
        files = [as_file(data, TABLE_FILE)] if data is not None else []
        channel = self._channel(tm.ref)
        if tm.message_id is not None and not tm.repost:
            try:
                await channel.get_partial_message(tm.message_id).edit(
                    content=content, attachments=files, view=view
                )
                return
            except discord.NotFound:
                log.info("table message of %s was deleted; posting a new one", key)
                files = [as_file(data, TABLE_FILE)] if data is not None else []
        tm.repost = False
        message = await channel.send(
            content=content,
            files=files,
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        tm.message_id = message.id
        await self.manager.set_meta(key, "dc_message_id", message.id)

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
        declare_open = snap.declare_open if snap is not None else False
        view = private_view(priv, Ref.from_key(priv.key), pick, declare_open)
        data = await hand_png(priv, names, highlight_of(priv, pick))
        return content, data, view

    async def _update_private(self, key: str, user: str) -> None:
        pm = self.privates[(key, user)]
        priv = self.manager.private_snapshot(key, user)
        snap = self.manager.snapshot(key)
        if priv is None or snap is None:
            await self._retire_private(pm)
            return
        if pm.dm_closed_hand is not None and pm.dm_closed_hand != snap.hand_no:
            pm.dm_closed_hand = None  # a new hand: they may have opened their DMs
        if pm.dm_closed_hand is not None and not self._ephemeral_alive(pm):
            pm.last_role = None if priv.autoplay else priv.role
            return
        content, data, view = await self.render_private(priv)
        if pm.dm_closed_hand is None:
            await self._send_dm(pm, priv, snap, content, data, view)
        await self._edit_ephemeral(pm, content, data, view)
        pm.last_role = None if priv.autoplay else priv.role

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
            message = await dm.send(content=content, file=file, view=view)
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                log.warning("DM to a player refused (code %s)", err.code)
            pm.dm_closed_hand = snap.hand_no
            self._tell_dms_closed(pm, snap)
            return
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
        tm.lane.submit(lambda: self._post(tm.ref, text, mention=int(pm.user)))

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
        if asyncio.get_running_loop().time() - pm.ephemeral_at > EPHEMERAL_TTL:
            pm.ephemeral = None
            return False
        return True

    async def _ephemeral_text(self, pm: PrivateMessage, text: str) -> None:
        if pm.ephemeral is None:
            return
        try:
            await pm.ephemeral.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            pm.ephemeral = None

    async def _dm_text(self, pm: PrivateMessage, text: str) -> None:
        try:
            dm = await self.client.create_dm(discord.Object(int(pm.user)))
            await dm.send(content=text)
        except discord.Forbidden:
            log.debug("private note not delivered: DMs closed")

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
