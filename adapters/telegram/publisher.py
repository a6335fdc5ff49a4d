"""From the manager's outputs to Telegram: one table message edited in place, one hand
message per player, and new messages only for results, match ends and 报户 answers."""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import assert_never

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import (
    ChatRef,
    HandChanged,
    HandFinished,
    MatchOver,
    NoteCode,
    Notice,
    NoticeCode,
    Out,
    PrivateNote,
    PrivateSnapshot,
    TableChanged,
    TableSnapshot,
)
from bot.table.cache import BoundedDict
from bot.table.describe import note_text, notice_text

from ..bounded import CHATS, USERS, BoundedSet
from .book import MessageRef
from .callback import ReviewPress, encode
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


@dataclass(frozen=True, slots=True)
class Shown:
    """What a table or hand message should show now."""

    image: Hashable
    caption: str
    markup: InlineKeyboardMarkup | None

    @property
    def markup_key(self) -> Hashable:
        return markup_key(self.markup)

    def is_on(self, ref: MessageRef) -> bool:
        return (ref.image, ref.caption, ref.markup) == (self.image, self.caption, self.markup_key)

    def mark(self, ref: MessageRef) -> None:
        ref.image, ref.caption, ref.markup = self.image, self.caption, self.markup_key

    def ref(self, msg: Message, snap: TableSnapshot) -> MessageRef:
        return MessageRef(
            msg.chat.id,
            msg.message_id,
            snap.hand_no,
            self.image,
            self.caption,
            self.markup_key,
            match=snap.match_id,
        )


class Publisher:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # Per-table and per-player marks, bounded like every adapter cache.
        self._repost: BoundedSet[str] = BoundedSet(CHATS)
        self._declare: BoundedDict[str, bool] = BoundedDict(CHATS)
        self._blocked_told: BoundedSet[tuple[str, str, int]] = BoundedSet(USERS)
        self._fresh: BoundedSet[tuple[str, str]] = BoundedSet(USERS)

    # -- the manager's outputs -----------------------------------------------------------
    async def on_out(self, out: Out) -> None:
        key = out.table  # a Telegram table's (subscribed for TELEGRAM's alone)
        snap = out.snapshot if isinstance(out, TableChanged) else self.ctx.manager.snapshot(key)
        lang = snap.settings.lang if snap is not None else "zh"
        chat = ChatRef.from_key(key)
        match out:
            case TableChanged():
                if snap is not None:
                    self._declare_changed(snap)
                self.touch_table(key)
            case Notice():
                self._notice(out, lang)
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
                if out.key == NoteCode.SEAT_LEFT:
                    self._retire_hand(key, user)
            case HandChanged(user=user):
                self.touch_hand(key, user)
            case _:
                assert_never(out)

    def _notice(self, out: Notice, lang: Lang) -> None:
        key = out.table
        if out.key == NoticeCode.COUNT_ANSWER:
            self.ctx.say(ChatRef.from_key(key), notice_text(out, lang), urgent=True)
            return
        if out.minor:
            return  # plays and passes: the table image shows them
        if out.key == NoticeCode.HAND_STARTED:
            self.ctx.notices.pop(key)  # the lobby's or the last hand's lines are done with
        self.table_line(key, notice_text(out, lang))

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
            png = await self.ctx.draw(
                self.ctx.renderer.result, result, names, (ta, tb), lang, hand_no, preset, multiplier
            )
            await self.ctx.api.send_photo(
                chat_id,
                png,
                caption=caption,
                message_thread_id=thread,
                filename="result.png",
                reply_markup=await self._review_button(chat, lang),
            )
            return True

        self.ctx.sender.post(chat_id, job, urgent=True)

    async def _review_button(self, chat: ChatRef, lang: Lang) -> InlineKeyboardMarkup | None:
        """📝 under a hand's result: the asker's own review of it (the hand is the group's
        latest record: the result is sent after the hand is stored)."""
        rows = await self.ctx.manager.recent_hands(chat.group_key, 1)
        if not rows:
            return None
        data = encode(ReviewPress(rows[0][0]))
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(t("tg_btn_review", lang), callback_data=data)]]
        )

    # -- the table message ---------------------------------------------------------------
    def table_line(self, key: str, text: str) -> None:
        """A short public line under the table picture (e.g. who sat down)."""
        lines = self.ctx.notices.get(key)
        if lines is None:
            lines = self.ctx.notices[key] = deque(maxlen=NOTICE_LINES)
        lines.append(text)
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
        markup = table_keyboard(snap, tid, lang)
        caption = table_caption(snap, list(ctx.notices.get(key) or ()), lang)
        shown = Shown(table_image_key(snap), caption, markup)
        ref = ctx.book.table(key)
        repost = key in self._repost
        self._repost.discard(key)
        if ref is None or repost:
            await self._post_table(snap, shown)
            if ref is not None:
                self._delete_later(ref)
            return True
        if shown.is_on(ref):
            return False
        try:
            await self._edit(ref, shown, "table.png", ctx.renderer.table, snap)
        except BadRequest as err:
            if not _gone(err):
                raise
            # Deleted by someone: the next run posts a fresh table message.
            await ctx.book.set_table(key, None)
            self.touch_table(key)
        return True

    async def _post_table(self, snap: TableSnapshot, shown: Shown) -> None:
        ctx = self.ctx
        chat = ChatRef.from_key(snap.key)
        png = await ctx.draw(ctx.renderer.table, snap)
        msg = await ctx.api.send_photo(
            int(chat.chat_id),
            png,
            caption=shown.caption,
            reply_markup=shown.markup,
            message_thread_id=_thread(chat),
            filename="table.png",
        )
        await ctx.book.set_table(snap.key, shown.ref(msg, snap))

    async def _edit(
        self,
        ref: MessageRef,
        shown: Shown,
        filename: str,
        render: Callable[..., bytes],
        *args: object,
    ) -> None:
        """Bring a message up to ``shown``: a new picture (``render(*args)``, drawn by the
        context's drawer) only when it changed (the caption-only edit needs no rendering);
        "not modified" counts as done."""
        api = self.ctx.api
        try:
            if ref.image != shown.image:
                png = await self.ctx.draw(render, *args)
                media = InputMediaPhoto(png, caption=shown.caption, filename=filename)
                await api.edit_message_media(
                    media, chat_id=ref.chat_id, message_id=ref.message_id, reply_markup=shown.markup
                )
            else:
                await api.edit_message_caption(
                    chat_id=ref.chat_id,
                    message_id=ref.message_id,
                    caption=shown.caption,
                    reply_markup=shown.markup,
                )
        except BadRequest as err:
            if not _not_modified(err):
                raise
        shown.mark(ref)

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
        markup = action_keyboard(priv, tid, priv.lang, snap, web_url=ctx.web_url(key))
        shown = Shown(hand_image_key(priv), private_caption(priv, snap, priv.lang), markup)
        ref = ctx.book.hand(key, user)
        try:
            if ref is None or ref.hand_no != snap.hand_no or fresh:
                await self._post_hand(priv, snap, shown)
                if fresh and ref is not None and ref.hand_no == snap.hand_no:
                    self._delete_later(ref)  # the same hand, posted again lower down
                return True
            if shown.is_on(ref):
                return False
            await self._edit(ref, shown, "hand.png", ctx.renderer.hand, priv, snap.names)
        except Forbidden:
            await ctx.reach.mark(user, False, key)
            self._tell_group_blocked(snap, user)
        except BadRequest as err:
            if not _gone(err):
                raise
            await ctx.book.set_hand(key, user, None)
            self.touch_hand(key, user)
        return True

    async def _post_hand(self, priv: PrivateSnapshot, snap: TableSnapshot, shown: Shown) -> None:
        ctx = self.ctx
        png = await ctx.draw(ctx.renderer.hand, priv, snap.names)
        msg = await ctx.api.send_photo(
            int(priv.user_id),
            png,
            caption=shown.caption,
            reply_markup=shown.markup,
            filename="hand.png",
        )
        await ctx.reach.mark(priv.user_id, True, snap.key)
        await ctx.book.set_hand(snap.key, priv.user_id, shown.ref(msg, snap))

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
