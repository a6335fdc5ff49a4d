"""The private chat: /start (with the deep-link payloads) and the action keyboard's presses."""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.engine.actions import Action, ActionKind
from bot.engine.plays import Play
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import (
    Act,
    Actor,
    ChatRef,
    Command,
    Join,
    PrivateSnapshot,
    Ready,
    Reply,
    SetAutoplay,
    TableSnapshot,
)
from bot.table.describe import reply_text

from ..frontends import TELEGRAM
from .callback import ActPress
from .context import Context, actor_of, user_lang
from .ids import TID_RE
from .keyboards import action_keyboard, action_of
from .publisher import Publisher

log = logging.getLogger(__name__)

NAVIGATION = frozenset({"r", "b", "z", "v", "R"})
# Presses honoured at any version: they say what the player wants whatever happened
# since (托管, refresh, "ready"); the manager checks that they still apply. A player with
# nothing to declare gets no keyboard update when another player's "ready" bumps the
# version, so a version check would refuse their own "ready".
ANY_VERSION = frozenset({"t", "h", "K"})


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
        ctx = self.ctx
        manager = ctx.manager
        uid = str(query.from_user.id)
        key = await ctx.ids.resolve(press.tid)
        if key is None:
            await query.answer(t("stale", "zh"))
            return
        chat = ChatRef.from_key(key)
        snap, priv = await self._views(chat, uid, press.version)
        lang = snap.settings.lang if snap is not None else "zh"
        if priv is None or snap is None:
            await query.answer(t("tg_no_hand", lang))
            return
        actor = actor_of(query.from_user)
        if press.op in ANY_VERSION:
            await self._anytime(query, press, key, actor, lang)
            return
        if press.op == "H":  # 💡: the expert's choice now, in an alert only the presser sees
            hint = await manager.hint(key, uid)
            await query.answer(hint.text(lang), show_alert=True)
            return
        if press.version != priv.version:
            await self._stale(query, press, priv, lang)
            return
        if press.op in NAVIGATION:
            await self._navigate(query, press, priv, snap)
            return
        if press.op == "n":
            await query.answer(t("ok", lang))
            return
        if press.op == "g" and not self._offered(press, priv):
            # Not one of the plays this keyboard could have offered now.
            await query.answer(t("stale", lang))
            self.pub.touch_hand(key, uid)
            return
        action = action_of(press)
        if action is None:
            await query.answer(t("tg_bad_button", lang))
            return
        reply = await manager.handle(
            Act(chat=chat, actor=actor, action=action, version=press.version)
        )
        await self._answer_play(query, press, reply, key, uid, lang)

    async def _navigate(
        self, query: CallbackQuery, press: ActPress, priv: PrivateSnapshot, snap: TableSnapshot
    ) -> None:
        """Another screen of the same keyboard (rank, size, mode): only the markup changes."""
        web_url = self.ctx.web_url(priv.key)
        markup = action_keyboard(priv, press.tid, snap.settings.lang, snap, press, web_url)
        await query.answer()
        try:
            await query.edit_message_reply_markup(markup)
        except BadRequest as err:
            if "not modified" not in err.message.lower():
                raise

    async def _views(
        self, chat: ChatRef, uid: str, pressed: int
    ) -> tuple[TableSnapshot | None, PrivateSnapshot | None]:
        """The table and this player's hand as the press must be judged. A keyboard made
        from a newer state than this worker's copy proves the copy behind (another worker
        committed that state and its notice is still on the way): read the table again
        rather than call a current button out of date."""
        manager = self.ctx.manager
        priv = manager.private_snapshot(chat.key, uid)
        if priv is not None and pressed > priv.version:
            await manager.reread(chat)
            priv = manager.private_snapshot(chat.key, uid)
        return manager.snapshot(chat.key), priv

    async def _answer_play(
        self, query: CallbackQuery, press: ActPress, reply: Reply, key: str, uid: str, lang: Lang
    ) -> None:
        """The answer first: it is the command's verdict, true from the commit on, and it
        needs no place in the bot-wide rate limiter (no chat) — the keyboard's edit does,
        and under load waiting for that held the player's spinner for seconds."""
        if not reply.ok:
            await query.answer(reply_text(reply, lang))
            return
        await query.answer(reply_text(reply, lang))
        # The edit waits its turn in the bot-wide rate limiter. Awaited here it would hold
        # one of the few updates PTB handles at once, and under load every other player's
        # press queued behind those waits (seconds before its answer).
        edit = asyncio.create_task(self._replace_keyboard(query, key, uid, press.tid))
        self._edits.add(edit)
        edit.add_done_callback(self._edit_done)

    def _edit_done(self, task: asyncio.Task[None]) -> None:
        self._edits.discard(task)
        if not task.cancelled() and task.exception() is not None:
            err = task.exception()
            log.warning("replacing a played keyboard failed: %r", err, exc_info=err)

    async def _stale(
        self, query: CallbackQuery, press: ActPress, priv: PrivateSnapshot, lang: Lang
    ) -> None:
        """Made for an older state: change nothing. A second tap on the keyboard this
        player has just played from is a double tap, not a mistake: say it went through
        (the table keeps which keyboard that was, so this holds across a restart)."""
        if priv.played == press.version:
            await query.answer(t("already_played", lang))
            return
        await query.answer(t("stale", lang))
        self.pub.touch_hand(priv.key, priv.user_id)  # bring the keyboard up to date

    async def _replace_keyboard(self, query: CallbackQuery, key: str, uid: str, tid: str) -> None:
        """The action went through: its keyboard gives way at once to the new state's
        (the new picture follows when rendered), so nothing stale stays pressable."""
        priv = self.ctx.manager.private_snapshot(key, uid)
        snap = self.ctx.manager.snapshot(key)
        if priv is None or snap is None:
            markup = None
        else:
            markup = action_keyboard(priv, tid, priv.lang, snap, web_url=self.ctx.web_url(key))
        try:
            await query.edit_message_reply_markup(markup)
        except BadRequest as err:
            if "not modified" not in err.message.lower():
                log.info("could not replace a played keyboard: %s", err.message)

    async def _anytime(
        self, query: CallbackQuery, press: ActPress, key: str, actor: Actor, lang: Lang
    ) -> None:
        chat = ChatRef.from_key(key)
        if press.op == "h":
            self.pub.touch_hand(key, actor.user_id)
            await query.answer()
            return
        if press.op == "t":
            command: Command = SetAutoplay(chat=chat, actor=actor, on=press.args[0] == "1")
        else:
            command = Ready(chat=chat, actor=actor)
        reply = await self.ctx.manager.handle(command)
        await query.answer(reply_text(reply, lang))
        # "Ready" changes no hand and no role, so the manager sends no update for it.
        self.pub.touch_hand(key, actor.user_id)

    @staticmethod
    def _offered(press: ActPress, priv: PrivateSnapshot) -> bool:
        kind = ActionKind.PLAY if press.args[0] == "p" else ActionKind.BURN
        play = Play(*(int(a) for a in press.args[1:]))
        return priv.menu.allows(Action(kind, play.counts()))
