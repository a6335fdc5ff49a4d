"""/review in a group and the 📝 button on a hand's result: the asker's own review, sent
to their private chat with the bot.

The records desk (``bot.records.desk``) finds the asker's seat in the finished hand and
words the review (``bot.ai.review``); this module only sends it, privately. The group
sees a short acknowledgement or refusal, never a card. The review is CPU work that runs
off the event loop; "正在分析…" goes out first when it is not already at hand.
"""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery, Message, Update, User
from telegram.ext import ContextTypes

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.records.desk import Opened, RecordDesk, Refused
from bot.table import ChatRef

from .callback import ReviewPress
from .context import GROUP_TYPES, BadRecordArg, Context, chat_of, record_arg, user_lang
from .keyboards import link_keyboard

log = logging.getLogger(__name__)


class ReviewChat:
    def __init__(self, ctx: Context, desk: RecordDesk) -> None:
        self.ctx = ctx
        self.desk = desk
        self._tasks: set[asyncio.Task[None]] = set()  # reviews being worked out

    # -- /review [id] -------------------------------------------------------------------
    async def command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        try:
            number = record_arg(context.args)
        except BadRecordArg:
            self.ctx.say(chat, t("rec_bad_id", lang), reply_to=message.message_id)
            return
        answer, blocked = await self.start(chat, user, lang, number)
        markup = None
        if blocked:  # a button that opens the private chat, where the review will go
            markup = link_keyboard(t("tg_btn_open_bot", lang), self.ctx.deep_link("review"))
        self.ctx.say(chat, answer, reply_to=message.message_id, markup=markup)

    # -- 📝 on a hand's result ------------------------------------------------------------
    async def press(self, query: CallbackQuery, press: ReviewPress) -> None:
        message = query.message
        if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
            await query.answer(t("rec_stale", user_lang(query.from_user)))
            return
        chat = chat_of(message)
        lang = await self.ctx.lang(chat)
        answer, _blocked = await self.start(chat, query.from_user, lang, press.number)
        await query.answer(answer, show_alert=True)

    async def start(
        self, chat: ChatRef, user: User, lang: Lang, number: int | None
    ) -> tuple[str, bool]:
        """Check the asker and start their review: the short answer for the group, and
        whether the bot cannot write to them privately (they must open the chat first)."""
        opened = await self.desk.open(chat, number)
        if isinstance(opened, Refused):
            return opened.text(lang), False
        seat = self.desk.review_seat(opened, str(user.id))
        if isinstance(seat, Refused):
            return seat.text(lang), False
        uid = str(user.id)
        if not await self.ctx.probe_dm(uid, t("tg_dm_hello", lang)):
            return t("tg_review_need_start", lang, name=user.full_name), True
        if not self.desk.review_ready(chat, opened, seat):
            self.ctx.tell(uid, t("review_busy", lang, number=opened.number))
        task = asyncio.create_task(self._send(chat, opened, seat, uid, lang))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return t("review_coming", lang), False

    async def _send(self, chat: ChatRef, opened: Opened, seat: int, uid: str, lang: Lang) -> None:
        try:
            text = await self.desk.review(chat, opened, seat, lang)
        except Exception:  # a bug must not leave the asker waiting in silence
            log.exception("review of hand %s failed", opened.number)
            text = t("review_failed", lang)
        self.ctx.tell(uid, text)

    async def join(self) -> None:
        """Wait for the reviews under way (tests; a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
