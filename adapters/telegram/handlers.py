"""Wiring: which update goes to which handler, unknown commands, button routing, errors."""

from __future__ import annotations

import logging

from telegram import MessageEntity, Update
from telegram.constants import ChatType
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.i18n import t

from .callback import ActPress, BadPayload, GroupPress, ReplayPress, ReviewPress, decode
from .context import GROUP_TYPES, Context, chat_of, user_lang
from .group import GroupCommands
from .private import PrivateChat
from .records import RecordChat
from .review import ReviewChat
from .settings_menu import SettingsMenu

log = logging.getLogger(__name__)

GROUP_COMMANDS = (
    "gouji",
    "join",
    "leave",
    "addbot",
    "removebot",
    "begin",
    "stop",
    "count",
    "score",
    "stats",
    "rules",
    "settings",
    "help",
    "replay",
    "history",
    "why",
    "review",
)


class Router:
    def __init__(
        self,
        ctx: Context,
        group: GroupCommands,
        private: PrivateChat,
        menu: SettingsMenu,
        records: RecordChat | None = None,
    ) -> None:
        self.ctx = ctx
        self.records = records or RecordChat(ctx)
        self.review = ReviewChat(ctx, self.records.desk)
        self.group = group
        self.private = private
        self.menu = menu

    def register(self, app: Application) -> None:  # type: ignore[type-arg]
        fresh = ~filters.UpdateType.EDITED  # an edited command is not a new command
        group = self.group
        app.add_handler(CommandHandler("start", self.start, filters=fresh))
        commands = {
            "gouji": group.gouji,
            "join": group.join,
            "leave": group.leave,
            "addbot": group.addbot,
            "removebot": group.removebot,
            "begin": group.begin,
            "stop": group.stop,
            "count": group.count,
            "score": group.score,
            "stats": group.stats,
            "rules": group.rules,
            "settings": group.settings,
            "help": self.help,
            "replay": self.records.replay,
            "history": self.records.history,
            "why": self.records.why,
            "review": self.review.command,
        }
        for name, callback in commands.items():
            app.add_handler(CommandHandler(name, callback, filters=fresh))
        app.add_handler(MessageHandler(filters.COMMAND & fresh, self.unknown))
        app.add_handler(CallbackQueryHandler(self.button))
        app.add_error_handler(self.error)

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is not None and message.chat.type == ChatType.PRIVATE:
            await self.private.start(update, context)
        else:
            await self.help(update, context)

    async def help(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        if message.chat.type in GROUP_TYPES:
            chat = chat_of(message)
            lang = await self.ctx.lang(chat)
            self.ctx.say(chat, t("tg_help", lang), reply_to=message.message_id)
        elif update.effective_user is not None:
            user = update.effective_user
            self.ctx.tell(str(user.id), t("tg_help", user_lang(user)))

    async def unknown(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not message.text:
            return
        entity = next(
            (e for e in message.entities if e.type == MessageEntity.BOT_COMMAND and e.offset == 0),
            None,
        )
        if entity is None:
            return
        command = message.parse_entity(entity)
        addressee = command.partition("@")[2]
        if addressee and addressee.lower() != (self.ctx.api.username or "").lower():
            return  # meant for another bot in the group
        if message.chat.type in GROUP_TYPES:
            chat = chat_of(message)
            lang = await self.ctx.lang(chat)
            self.group.refuse(chat, message, t("unknown_command", lang), lang)
        elif update.effective_user is not None:
            user = update.effective_user
            name = command[1:].partition("@")[0].lower()
            key = "tg_group_only" if name in GROUP_COMMANDS else "unknown_command"
            self.ctx.tell(str(user.id), t(key, user_lang(user)))

    async def button(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        try:
            press = decode(query.data)
        except BadPayload as err:
            # The payload itself is never logged: a private button's data names cards.
            size = len((query.data or "").encode())
            log.warning(
                "bad button payload from user %s (%d bytes): %s", query.from_user.id, size, err
            )
            await query.answer(t("tg_bad_button", user_lang(query.from_user)))
            return
        if isinstance(press, GroupPress):
            await self.group.press(query, press)
        elif isinstance(press, ActPress):
            await self.private.press(query, press)
        elif isinstance(press, ReplayPress):
            await self.records.press(query, press)
        elif isinstance(press, ReviewPress):
            await self.review.press(query, press)
        else:
            await self.menu.press(query, press)

    async def error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        # Log the failure, not the update: updates carry private button data.
        err = context.error
        kind = type(update).__name__
        log.error("handling a %s failed", kind, exc_info=err)
