"""The private chat: /start (with the deep-link payloads) and the action keyboard's presses."""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.present.controls import Control
from bot.table import ChatRef, Join
from bot.table.describe import reply_text

from ..frontends import TELEGRAM
from ..press import Pressed, Redraw, Verdict
from ..press import press as judge
from .callback import ActPress
from .context import Context, actor_of, user_lang
from .ids import TID_RE
from .keyboards import action_keyboard
from .presses import control_of
from .publisher import Publisher

log = logging.getLogger(__name__)


class PrivateChat:
    def __init__(self, ctx: Context, pub: Publisher) -> None:
        self.ctx = ctx
        self.pub = pub
        self._edits: set[asyncio.Task[None]] = set()  # played keyboards being replaced

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None or message.chat.type != ChatType.PRIVATE:
            return
        uid = str(user.id)
        await self.ctx.reach.mark(uid, True)  # they opened the chat: the bot may write now
        payload = (context.args or [""])[0]
        kind, _, tid = payload.partition("_")
        key = await self.ctx.ids.resolve(tid) if kind in ("j", "h") and TID_RE.match(tid) else None
        if kind in ("j", "h") and key is None:
            self.ctx.tell(uid, t("tg_link_expired", user_lang(user)))
            return
        if key is None:
            self.ctx.tell(uid, t("tg_welcome", user_lang(user)))
            for table_key in await self._playing(uid):
                self.pub.touch_hand(table_key, uid, fresh=True)
            return
        chat = ChatRef.from_key(key)
        lang = await self.ctx.lang(chat)
        await self.ctx.reach.mark(uid, True, key)
        if kind == "h":
            if self.ctx.manager.private_snapshot(key, uid) is None:
                self.ctx.tell(uid, t("tg_no_hand", lang))
            else:
                self.pub.touch_hand(key, uid, fresh=True)
            return
        reply = await self.ctx.manager.handle(Join(chat=chat, actor=actor_of(user)))
        if reply.ok:
            self.ctx.tell(uid, t("tg_joined_private", lang, seat=reply.param("seat")))
        else:
            self.ctx.tell(uid, reply_text(reply, lang))

    async def _playing(self, uid: str) -> list[str]:
        """The tables where this user holds a hand now (any worker may have seated them:
        the manager asks its store, and a table not in this worker's memory is read)."""
        manager = self.ctx.manager
        playing = []
        for key in await manager.tables_of(uid, TELEGRAM.platform):
            if manager.snapshot(key) is None:
                await manager.current(ChatRef.from_key(key))
            if manager.private_snapshot(key, uid) is not None:
                playing.append(key)
        return playing

    async def press(self, query: CallbackQuery, press: ActPress) -> None:
        """A press on a private keyboard: decoded to its ``Control``, judged by the one
        press protocol (adapters/press.py), then answered and redrawn as it says."""
        key = await self.ctx.ids.resolve(press.tid)
        control = control_of(press)
        if key is None:
            await query.answer(t("stale", "zh"))
            return
        snap = self.ctx.manager.snapshot(key)
        lang: Lang = snap.settings.lang if snap is not None else "zh"
        if control is None:
            await query.answer(t("tg_bad_button", lang))
            return
        actor = actor_of(query.from_user)
        chat = ChatRef.from_key(key)
        pressed = await judge(self.ctx.manager, chat, actor, control, press.version)
        if pressed.table is not None:
            lang = pressed.table.settings.lang
        await self._answer(query, press, control, pressed, key, lang)

    async def _answer(
        self,
        query: CallbackQuery,
        press: ActPress,
        control: Control,
        pressed: Pressed,
        key: str,
        lang: Lang,
    ) -> None:
        uid = str(query.from_user.id)
        if pressed.verdict is Verdict.NO_HAND:
            await query.answer(t("tg_no_hand", lang))
        elif pressed.verdict is Verdict.HINT and pressed.hint is not None:
            # 💡: the expert's choice now, in an alert only the presser sees.
            await query.answer(pressed.hint.text(lang), show_alert=True)
        elif pressed.verdict is Verdict.NAVIGATE:
            await self._navigate(query, press, control, pressed)
        elif pressed.redraw is Redraw.SWAP and pressed.reply is not None:
            await self._answer_play(query, press, pressed, lang)
        else:
            await query.answer(reply_text(pressed.reply, lang) if pressed.reply else None)
            if pressed.redraw is Redraw.REFRESH:
                self.pub.touch_hand(key, uid)  # bring the keyboard up to date

    async def _navigate(
        self, query: CallbackQuery, press: ActPress, screen: Control, pressed: Pressed
    ) -> None:
        """Another screen of the same keyboard (rank, size, mode): only the markup changes."""
        priv, snap = pressed.priv, pressed.table
        assert priv is not None and snap is not None
        web_url = self.ctx.web_url(priv.key)
        markup = action_keyboard(
            priv, press.tid, snap.settings.lang, snap, screen, web_url, pressed.controls
        )
        await query.answer()
        try:
            await query.edit_message_reply_markup(markup)
        except BadRequest as err:
            if "not modified" not in err.message.lower():
                raise

    async def _answer_play(
        self, query: CallbackQuery, press: ActPress, pressed: Pressed, lang: Lang
    ) -> None:
        """The answer first: it is the command's verdict, true from the commit on, and it
        needs no place in the bot-wide rate limiter (no chat) — the keyboard's edit does,
        and under load waiting for that held the player's spinner for seconds."""
        assert pressed.reply is not None
        await query.answer(reply_text(pressed.reply, lang))
        # The edit waits its turn in the bot-wide rate limiter. Awaited here it would hold
        # one of the few updates PTB handles at once, and under load every other player's
        # press queued behind those waits (seconds before its answer).
        edit = asyncio.create_task(self._replace_keyboard(query, pressed, press.tid))
        self._edits.add(edit)
        edit.add_done_callback(self._edit_done)

    def _edit_done(self, task: asyncio.Task[None]) -> None:
        self._edits.discard(task)
        if not task.cancelled() and task.exception() is not None:
            err = task.exception()
            log.warning("replacing a played keyboard failed: %r", err, exc_info=err)

    async def _replace_keyboard(self, query: CallbackQuery, pressed: Pressed, tid: str) -> None:
        """The action went through: its keyboard gives way at once to the new state's
        (the new picture follows when rendered), so nothing stale stays pressable."""
        priv, snap = pressed.priv, pressed.table
        if priv is None or snap is None:
            markup = None
        else:
            url = self.ctx.web_url(priv.key)
            markup = action_keyboard(priv, tid, priv.lang, snap, None, url, pressed.controls)
        try:
            await query.edit_message_reply_markup(markup)
        except BadRequest as err:
            if "not modified" not in err.message.lower():
                log.info("could not replace a played keyboard: %s", err.message)
