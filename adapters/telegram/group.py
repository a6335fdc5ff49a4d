"""Group commands and the table message's buttons: each turns into one manager command."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Message, Update, User
from telegram.ext import ContextTypes

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import (
    Actor,
    AddBots,
    AskCount,
    ChatRef,
    FrontText,
    Join,
    Leave,
    NextHand,
    OpenTable,
    RemoveBot,
    Reply,
    ReplyCode,
    Start,
    StopMatch,
)
from bot.table.describe import reply_text
from bot.table.outputs import Json

from .callback import GroupPress
from .context import Context, actor_of
from .info import rules_text, score_text, stats_text
from .keyboards import link_keyboard
from .publisher import Publisher
from .refusals import Refusals
from .settings_menu import SettingsMenu

log = logging.getLogger(__name__)

SILENT_OK = frozenset(
    {
        ReplyCode.STARTED,
        ReplyCode.TABLE_SHOWN,
        ReplyCode.TABLE_OPENED,
        ReplyCode.COUNT_POSTED,
        ReplyCode.MATCH_STOPPED,
    }
)
# Lobby changes the table message shows: a line in its caption, not a reply of its own
# (each reply would spend one of the group's 20 calls a minute).
LOBBY_LINES = frozenset(
    {
        ReplyCode.JOINED,
        ReplyCode.LEFT,
        ReplyCode.BOTS_ADDED,
        ReplyCode.BOT_REMOVED,
        ReplyCode.SWAPPED,
        ReplyCode.KICKED,
    }
)


def _int_arg(args: list[str], lo: int, hi: int) -> int | None:
    """The single integer argument in lo..hi, or None when it is missing or bad."""
    if len(args) != 1:
        return None
    try:
        value = int(args[0])
    except ValueError:
        return None
    return value if lo <= value <= hi else None


class GroupCommands:
    def __init__(self, ctx: Context, pub: Publisher, menu: SettingsMenu) -> None:
        self.ctx = ctx
        self.pub = pub
        self.menu = menu
        # With several workers the table is posted again, and a lobby line added under
        # it, by the chat's one sender (an edit from the worker that took the command
        # would be a second sender in the group, outside its budget).
        ctx.relayed_kinds["repost"] = self._relayed_repost
        ctx.relayed_kinds["line"] = self._relayed_line
        self.refusals = Refusals(ctx, self._line)

    # -- helpers ---------------------------------------------------------------------------
    def _answer(self, chat: ChatRef, message: Message, reply: Reply, lang: Lang) -> None:
        if reply.ok and reply.key in SILENT_OK:
            return  # the table message or a notice shows it
        user = message.from_user
        if reply.ok and reply.key in LOBBY_LINES:
            name = user.full_name if user is not None else ""
            self._line(chat, f"{name} · {reply_text(reply, lang)}")
            return
        if not reply.ok and user is not None:
            self.refuse(chat, message, reply_text(reply, lang), lang)
            return
        self.ctx.say(chat, reply_text(reply, lang), reply_to=message.message_id)

    def refuse(self, chat: ChatRef, message: Message, text: str, lang: Lang) -> None:
        """A refusal anyone can trigger at will: privately, or once a hand in the group
        (adapters/telegram/refusals.py)."""
        user = message.from_user
        if user is None:
            self.ctx.say(chat, text, reply_to=message.message_id)
            return
        self.refusals.refuse(chat, user, text, lang, message.message_id)

    def _line(self, chat: ChatRef, line: str) -> None:
        """A line under the table picture, added by the chat's one sender."""
        if not self.ctx.relay(chat, {"line": line}):
            self.pub.table_line(chat.key, line)

    async def _admin(self, message: Message, user: User) -> bool:
        sender_chat = message.sender_chat.id if message.sender_chat else None
        return await self.ctx.is_admin(message.chat.id, user.id, sender_chat)

    def _anonymous(self, message: Message) -> bool:
        return message.sender_chat is not None

    async def _relayed_repost(self, chat: ChatRef, payload: dict[str, Json]) -> None:
        """``/gouji`` at a table: posted again by the chat's one sender, under its lease
        and within the group budget (any worker may take the command)."""
        self.pub.touch_table(chat.key, repost=True)

    async def _relayed_line(self, chat: ChatRef, payload: dict[str, Json]) -> None:
        """A lobby line (who sat down, bots added) under the table picture, shown by the
        chat's one sender: its table message is the one edited."""
        line = payload.get("line")
        if isinstance(line, str):
            self.pub.table_line(chat.key, line)

    # -- commands --------------------------------------------------------------------------
    async def gouji(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        if await self.ctx.manager.current(chat) is not None:
            # Post the table again at the bottom of the chat, where people are looking.
            await self.ctx.manager.handle(OpenTable(chat=chat, actor=actor_of(user)))
            if not self.ctx.relay(chat, {"repost": chat.key}):
                self.pub.touch_table(chat.key, repost=True)
            return
        can_dm = not self._anonymous(message) and await self.ctx.probe_dm(
            str(user.id), t("tg_dm_hello", lang)
        )
        reply = await self.ctx.manager.handle(
            OpenTable(chat=chat, actor=actor_of(user), sit=can_dm)
        )
        self._answer(chat, message, reply, lang)
        if reply.ok and not can_dm and not self._anonymous(message):
            self._ask_to_start(chat, message, user, lang)

    def _ask_to_start(self, chat: ChatRef, message: Message, user: User, lang: Lang) -> None:
        tid = self.ctx.ids.tid(chat.key)
        if tid is None or not self.refusals.fresh(chat, str(user.id), "need_start"):
            return  # the link is in the group already (asked again within a minute)
        button = link_keyboard(t("tg_btn_open_join", lang), self.ctx.deep_link(f"j_{tid}"))
        text = t("tg_need_start", lang, name=user.full_name)
        self.ctx.say(chat, text, reply_to=message.message_id, markup=button)

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        args = context.args or []
        seat = _int_arg(args, 1, 6) if args else None
        if args and seat is None:
            self.refuse(chat, message, t("bad_seat", lang), lang)
            return
        if self._anonymous(message):
            self.refuse(chat, message, t("tg_anon_join", lang), lang)
            return
        join = Join(chat=chat, actor=actor_of(user), seat=seat)
        verdict = await self.ctx.manager.check(join)
        if not verdict.ok:
            # Nobody is sent to open the bot for a table that cannot take them.
            self._answer(chat, message, verdict, lang)
            return
        if not await self.ctx.probe_dm(str(user.id), t("tg_dm_hello", lang), chat.key):
            self._ask_to_start(chat, message, user, lang)
            return
        reply = await self.ctx.manager.handle(join)
        self._answer(chat, message, reply, lang)

    async def leave(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        await self._simple(update, Leave, admin_check=False)

    async def addbot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        args = context.args or []
        count = _int_arg(args, 1, 5) if args else 1
        if count is None:
            self.refuse(chat, message, t("tg_usage_addbot", lang), lang)
            return
        actor = actor_of(user, await self._admin(message, user))
        reply = await self.ctx.manager.handle(AddBots(chat=chat, actor=actor, count=count))
        self._answer(chat, message, reply, lang)

    async def removebot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        args = context.args or []
        seat = _int_arg(args, 1, 6) if args else None
        if args and seat is None:
            self.refuse(chat, message, t("tg_usage_removebot", lang), lang)
            return
        reply = await self.ctx.manager.handle(RemoveBot(chat=chat, actor=actor_of(user), seat=seat))
        self._answer(chat, message, reply, lang)

    async def begin(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        await self._simple(update, Start)

    async def stop(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        await self._simple(update, StopMatch)

    async def _simple(
        self, update: Update, command: type[Leave | Start | StopMatch], admin_check: bool = True
    ) -> None:
        """A command with no arguments: pass it to the manager and answer."""
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        admin = admin_check and await self._admin(message, user)
        reply = await self.ctx.manager.handle(command(chat=chat, actor=actor_of(user, admin)))
        self._answer(chat, message, reply, lang)

    async def count(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        target = _int_arg(context.args or [], 1, 6)
        if target is None:
            self.refuse(chat, message, t("tg_usage_count", lang), lang)
            return
        reply = await self.ctx.manager.handle(
            AskCount(chat=chat, actor=actor_of(user), target=target)
        )
        self._answer(chat, message, reply, lang)

    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        if not await self._admin(message, user):
            self.refuse(chat, message, t("not_admin", lang), lang)
            return
        args = context.args or []
        if not args:
            # The menu goes to the admin's private chat: its screens and edits then cost
            # the group nothing. An anonymous admin, or one who never opened the bot,
            # gets it in the group.
            private = not self._anonymous(message) and await self.ctx.probe_dm(
                str(user.id), t("tg_dm_hello", lang)
            )
            if private:
                await self.menu.open_private(chat, user.id)
            else:
                await self.menu.open(chat, message.message_id)
            return
        if len(args) < 2:
            self.ctx.say(chat, t("tg_usage_settings", lang), reply_to=message.message_id)
            return
        reply = await self.menu.set_by_text(chat, actor_of(user, True), args[0], " ".join(args[1:]))
        self.ctx.say(chat, reply_text(reply, lang), reply_to=message.message_id)

    async def rules(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, _user, chat, lang = where
        settings = await self.ctx.manager.group_settings(chat)
        self.ctx.say(chat, rules_text(settings, lang), reply_to=message.message_id)

    async def score(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, _user, chat, lang = where
        self.ctx.say(chat, score_text(self.ctx.manager, chat, lang), reply_to=message.message_id)

    async def stats(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, _user, chat, lang = where
        text = await stats_text(self.ctx.manager, chat, lang)
        self.ctx.say(chat, text, reply_to=message.message_id)

    # -- the table message's buttons -------------------------------------------------------
    async def press(self, query: CallbackQuery, press: GroupPress) -> None:
        ctx = self.ctx
        user = query.from_user
        key = await ctx.ids.resolve(press.tid)
        message = query.message
        if key is None or message is None or str(message.chat.id) != ChatRef.from_key(key).chat_id:
            await query.answer(t("stale", "zh"))
            return
        chat = ChatRef.from_key(key)
        lang = await ctx.lang(chat)
        actor = actor_of(user)
        manager = ctx.manager
        reply: Reply | None
        if press.op == "j":
            reply = await self._press_join(query, chat, actor, press.tid)
        elif press.op == "h":
            reply = await self._press_hand(query, chat, actor.user_id, press.tid)
        elif press.op == "l":
            reply = await manager.handle(Leave(chat=chat, actor=actor))
        elif press.op == "c":
            reply = await manager.handle(AskCount(chat=chat, actor=actor, target=press.seat or 0))
            if reply.ok:
                reply = Reply.yes(FrontText("tg_count_done"))
        else:
            admin = await ctx.is_admin(int(chat.chat_id), user.id)
            actor = actor_of(user, admin)
            if press.op == "s":
                reply = await manager.handle(Start(chat=chat, actor=actor))
            elif press.op == "a":
                reply = await manager.handle(AddBots(chat=chat, actor=actor, count=1))
            else:
                reply = await manager.handle(NextHand(chat=chat, actor=actor))
        if reply is not None:  # None: answered already (with a link)
            await query.answer(reply_text(reply, lang))

    async def _press_join(
        self, query: CallbackQuery, chat: ChatRef, actor: Actor, tid: str
    ) -> Reply | None:
        """[加入]: seated at once when the bot may write to them, else sent to open it —
        only while the table can take them (a forged press mid-match gets no probe and
        no start link, just the table's refusal)."""
        join = Join(chat=chat, actor=actor)
        verdict = await self.ctx.manager.check(join)
        if not verdict.ok:
            return verdict
        lang = await self.ctx.lang(chat)
        if not await self.ctx.probe_dm(actor.user_id, t("tg_dm_hello", lang), chat.key):
            # Opening the bot through this link sends /start j_<tid>, which seats them.
            await query.answer(url=self.ctx.deep_link(f"j_{tid}"))
            return None
        return await self.ctx.manager.handle(join)

    async def _press_hand(
        self, query: CallbackQuery, chat: ChatRef, uid: str, tid: str
    ) -> Reply | None:
        """[我的牌]: the hand posted again (the bot knows, across restarts too, whether it
        may write to them), else the link that opens the bot."""
        if self.ctx.manager.private_snapshot(chat.key, uid) is None:
            return Reply.no(FrontText("tg_no_hand"))
        if not self.ctx.reach.known(uid, chat.key):
            await query.answer(url=self.ctx.deep_link(f"h_{tid}"))
            return None
        self.pub.touch_hand(chat.key, uid, fresh=True)
        return Reply.yes(FrontText("tg_hand_sent"))
