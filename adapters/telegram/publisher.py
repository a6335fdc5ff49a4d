"""From the manager's outputs to Telegram: one table message edited in place, one hand
message per player, and new messages only for results, match ends and 报户 answers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import assert_never

from telegram import InputMediaPhoto
from telegram.error import BadRequest, Forbidden

from bot.i18n import t
from bot.table import (
    ChatRef,
    HandChanged,
    HandFinished,
    MatchOver,
    Notice,
    Out,
    PrivateNote,
    TableChanged,
    TableSnapshot,
)
from bot.table.describe import note_text, notice_text

from .book import MessageRef
from .context import Context
from .keyboards import action_keyboard, link_keyboard, markup_key, table_keyboard
from .views import hand_image_key, private_caption, table_caption, table_image_key

log = logging.getLogger(__name__)

NOTICE_LINES = 3  # recent public notices kept in the table caption


def _gone(err: BadRequest) -> bool:
    text = err.message.lower()
    return "not found" in text or "can't be edited" in text


def _not_modified(err: BadRequest) -> bool:
    return "not modified" in err.message.lower()


class Publisher:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._repost: set[str] = set()
        self._declare: dict[str, bool] = {}
        self._blocked_told: set[tuple[str, str, int]] = set()
        self._fresh: set[tuple[str, str]] = set()

    # -- the manager's outputs -----------------------------------------------------------
    async def on_out(self, out: Out) -> None:
        key = out.table
        if not key.startswith("tg:"):
            return  # another platform's table
        snap = self.ctx.manager.snapshot(key)
        lang = snap.settings.lang if snap is not None else "zh"
        chat = ChatRef.from_key(key)
        match out:
            case TableChanged():
                if snap is not None:
                    self._declare_changed(snap)
                self.touch_table(key)
            case Notice(key="count_answer"):
                self.ctx.say(chat, notice_text(out, lang), urgent=True)
            case Notice(minor=False):
                lines = self.ctx.notices.setdefault(key, deque(maxlen=NOTICE_LINES))
                if out.key == "hand_started":
                    lines.clear()  # the lobby's or the last hand's lines are done with
                lines.append(notice_text(out, lang))
                self.touch_table(key)
            case Notice():
                pass  # plays and passes: the table image shows them
            case HandFinished():
                if snap is not None:
                    self._post_result(snap, out)
            case MatchOver(totals=(a, b), stopped=stopped):
                self.ctx.say(
                    chat,
                    t("tg_match_stopped" if stopped else "match_over", lang, a=a, b=b),
                    urgent=True,
                )
            case PrivateNote(user=user):
                self.ctx.tell(user, note_text(out, lang))
                if out.key == "seat_left":
                    self._retire_hand(key, user)
            case HandChanged(user=user):
                self.touch_hand(key, user)
            case _:
                assert_never(out)

    def _declare_changed(self, snap: TableSnapshot) -> None:
        # Players with nothing to declare still hold a [准备好了] button while the
        # declaration pause runs; the manager sends them no private update when it ends.
        before = self._declare.get(snap.key)
        self._declare[snap.key] = snap.declare_open
        if before is not None and before != snap.declare_open:
            for line in snap.seats:
                if line is not None and line.user_id is not None:
                    self.touch_hand(snap.key, line.user_id)

    def _post_result(self, snap: TableSnapshot, out: HandFinished) -> None:
        result = out.result
        lang = snap.settings.lang
        names = snap.names
        hand_no = out.hand_no
        ta, tb = out.totals
        rules = snap.rules
        preset = rules.preset if rules is not None else snap.settings.preset
        multiplier = rules.sweep_multiplier if rules is not None else None
        a, b = result.team_scores
        caption = t("tg_result_caption", lang, hand_no=hand_no, a=a, b=b, ta=ta, tb=tb)
        chat = ChatRef.from_key(snap.key)
        chat_id, thread = int(chat.chat_id), _thread(chat)

        async def job() -> bool:
            png = await asyncio.to_thread(
                self.ctx.renderer.result, result, names, (ta, tb), lang, hand_no, preset, multiplier
            )
            await self.ctx.api.send_photo(
                chat_id, png, caption=caption, message_thread_id=thread, filename="result.png"
            )
            return True

        self.ctx.sender.post(chat_id, job, urgent=True)

    # -- the table message ---------------------------------------------------------------
    def table_line(self, key: str, text: str) -> None:
        """A short public line under the table picture (e.g. who sat down)."""
        self.ctx.notices.setdefault(key, deque(maxlen=NOTICE_LINES)).append(text)
        self.touch_table(key)

    def touch_table(self, key: str, repost: bool = False) -> None:
        if repost:
            self._repost.add(key)
        chat_id = int(ChatRef.from_key(key).chat_id)

        async def job() -> bool:
            return await self._table_job(key)

        self.ctx.sender.touch(chat_id, ("table", key), job, self.ctx.table_interval)

    async def _table_job(self, key: str) -> bool:
        ctx = self.ctx
        snap = ctx.manager.snapshot(key)
        tid = ctx.ids.tid(key)
        if snap is None or tid is None:
            return False
        lang = snap.settings.lang
        caption = table_caption(snap, list(ctx.notices.get(key, ())), lang)
        markup = table_keyboard(snap, tid, lang)
        image = table_image_key(snap)
        mk = markup_key(markup)
        ref = ctx.book.table(key)
        chat = ChatRef.from_key(key)
        if ref is None or key in self._repost:
            repost = key in self._repost
            self._repost.discard(key)
            png = await asyncio.to_thread(ctx.renderer.table, snap)
            msg = await ctx.api.send_photo(
                int(chat.chat_id),
                png,
                caption=caption,
                reply_markup=markup,
                message_thread_id=_thread(chat),
                filename="table.png",
            )
            new = MessageRef(msg.chat.id, msg.message_id, snap.hand_no, image, caption, mk)
            await ctx.book.set_table(key, new)
            if ref is not None and repost:
                self._delete_later(ref)
            return True
        if ref.image == image and ref.caption == caption and ref.markup == mk:
            return False
        try:
            if ref.image != image:
                png = await asyncio.to_thread(ctx.renderer.table, snap)
                media = InputMediaPhoto(png, caption=caption, filename="table.png")
                await ctx.api.edit_message_media(
                    media, chat_id=ref.chat_id, message_id=ref.message_id, reply_markup=markup
                )
            else:
                await ctx.api.edit_message_caption(
                    chat_id=ref.chat_id,
                    message_id=ref.message_id,
                    caption=caption,
                    reply_markup=markup,
                )
        except BadRequest as err:
            if _gone(err):
                # Deleted by someone: the next run posts a fresh table message.
                await ctx.book.set_table(key, None)
                self.touch_table(key)
                return True
            if not _not_modified(err):
                raise
        ref.image, ref.caption, ref.markup = image, caption, mk
        return True

    def _delete_later(self, ref: MessageRef) -> None:
        async def job() -> bool:
            # Already gone, or too old to delete: it only shows an old state.
            with contextlib.suppress(BadRequest):
                await self.ctx.api.delete_message(ref.chat_id, ref.message_id)
            return True

        self.ctx.sender.post(ref.chat_id, job)

    # -- a player's hand message ---------------------------------------------------------
    def touch_hand(self, key: str, user: str, fresh: bool = False) -> None:
        """Update a player's hand message; ``fresh`` posts it anew (it may be far up)."""
        if fresh:
            self._fresh.add((key, user))

        async def job() -> bool:
            fresh = (key, user) in self._fresh
            self._fresh.discard((key, user))
            return await self._hand_job(key, user, fresh)

        self.ctx.sender.touch(int(user), ("hand", key), job, self.ctx.private_interval)

    async def _hand_job(self, key: str, user: str, fresh: bool) -> bool:
        ctx = self.ctx
        priv = ctx.manager.private_snapshot(key, user)
        snap = ctx.manager.snapshot(key)
        tid = ctx.ids.tid(key)
        if priv is None or snap is None or tid is None:
            return False
        lang = priv.lang
        caption = private_caption(priv, snap, lang)
        markup = action_keyboard(priv, tid, lang, snap)
        image = hand_image_key(priv)
        mk = markup_key(markup)
        ref = ctx.book.hand(key, user)
        try:
            if ref is None or ref.hand_no != snap.hand_no or fresh:
                png = await asyncio.to_thread(ctx.renderer.hand, priv, snap.names)
                msg = await ctx.api.send_photo(
                    int(user), png, caption=caption, reply_markup=markup, filename="hand.png"
                )
                ctx.dm_ok.add(user)
                new = MessageRef(msg.chat.id, msg.message_id, snap.hand_no, image, caption, mk)
                await ctx.book.set_hand(key, user, new)
                if fresh and ref is not None and ref.hand_no == snap.hand_no:
                    self._delete_later(ref)  # the same hand, posted again lower down
                return True
            if ref.image == image and ref.caption == caption and ref.markup == mk:
                return False
            if ref.image != image:
                png = await asyncio.to_thread(ctx.renderer.hand, priv, snap.names)
                media = InputMediaPhoto(png, caption=caption, filename="hand.png")
                await ctx.api.edit_message_media(
                    media, chat_id=ref.chat_id, message_id=ref.message_id, reply_markup=markup
                )
            else:
                await ctx.api.edit_message_caption(
                    chat_id=ref.chat_id,
                    message_id=ref.message_id,
                    caption=caption,
                    reply_markup=markup,
                )
            ref.image, ref.caption, ref.markup = image, caption, mk
        except Forbidden:
            ctx.dm_ok.discard(user)
            self._tell_group_blocked(snap, user)
        except BadRequest as err:
            if _gone(err):
                await ctx.book.set_hand(key, user, None)
                self.touch_hand(key, user)
            elif _not_modified(err) and ref is not None:
                ref.image, ref.caption, ref.markup = image, caption, mk
            else:
                raise
        return True

    def _retire_hand(self, key: str, user: str) -> None:
        """The player left mid-match: their hand message keeps its picture, loses its buttons."""
        ref = self.ctx.book.hand(key, user)
        if ref is None:
            return

        async def job() -> bool:
            await self.ctx.book.set_hand(key, user, None)
            with contextlib.suppress(BadRequest):
                await self.ctx.api.edit_message_reply_markup(
                    chat_id=ref.chat_id, message_id=ref.message_id, reply_markup=None
                )
            return True

        self.ctx.sender.post(ref.chat_id, job)

    def _tell_group_blocked(self, snap: TableSnapshot, user: str) -> None:
        mark = (snap.key, user, snap.hand_no)
        tid = self.ctx.ids.tid(snap.key)
        if mark in self._blocked_told or tid is None:
            return
        self._blocked_told.add(mark)
        lang = snap.settings.lang
        name = next((s.name for s in snap.seats if s is not None and s.user_id == user), user)
        button = link_keyboard(t("tg_btn_open_bot", lang), self.ctx.deep_link(f"h_{tid}"))
        chat = ChatRef.from_key(snap.key)
        self.ctx.say(chat, t("tg_dm_blocked", lang, name=name), markup=button, urgent=True)


def _thread(chat: ChatRef) -> int | None:
    return int(chat.thread_id) if chat.thread_id else None
