"""/replay, /history and /why in a group, and the replay stepper's ◀ ▶ buttons.

The records desk (``bot.records.desk``) answers; this module only lays its answers out:
the summary with the record file attached, then one photo of the table at a frame whose
◀ ▶ buttons edit that same message, through the group's send budget.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.records.desk import Opened, RecordDesk, Refused, StepSession, parse_why_args
from bot.records.steps import Frame
from bot.records.summary import frame_caption
from bot.table import ChatRef
from bot.table.outputs import Json
from render.replay import frame_png

from ..frontends import TELEGRAM
from .callback import ReplayPress, encode
from .context import GROUP_TYPES, BadRecordArg, Context, record_arg, user_lang

log = logging.getLogger(__name__)

# Draws a frame (a drawing process gets the frame, not the whole record): the frame, the
# players' names, the hand number, (index, last) and the language.
ImageFn = Callable[[Frame, Sequence[str], int, tuple[int, int], Lang], bytes]
CAPTION_MAX = 1024  # Telegram's caption limit
EDIT_INTERVAL = 1.0  # seconds between two edits of one stepper (presses in between coalesce)


def stepper_keyboard(number: int, index: int, last: int) -> InlineKeyboardMarkup:
    row = []
    if index > 0:
        data = encode(ReplayPress(number, index, index - 1))
        row.append(InlineKeyboardButton("◀", callback_data=data))
    row.append(
        InlineKeyboardButton(
            f"{index}/{last}", callback_data=encode(ReplayPress(number, index, index))
        )
    )
    if index < last:
        data = encode(ReplayPress(number, index, index + 1))
        row.append(InlineKeyboardButton("▶", callback_data=data))
    return InlineKeyboardMarkup([row])


def stepper_caption(opened: Opened, index: int, lang: Lang) -> str:
    caption = frame_caption(opened.frames[index], opened.record.names, lang)
    return f"#{opened.number} · {caption}\n/why {opened.number} {index}"[:CAPTION_MAX]


def _session_key(chat_id: int, message_id: int) -> str:
    return f"{TELEGRAM.key_prefix}{chat_id}:{message_id}"


class RecordChat:
    def __init__(self, ctx: Context, image: ImageFn | None = None) -> None:
        self.ctx = ctx
        self.desk = RecordDesk(ctx.manager)
        self.image: ImageFn = image or frame_png
        # With several workers the posts and the stepper's edits are relayed (the chat's
        # one sender renders and sends them, within the group budget).
        ctx.relayed_kinds["replay"] = self._relayed_replay
        ctx.relayed_kinds["replay_step"] = self._relayed_step

    # -- /history ----------------------------------------------------------------------
    async def history(self, update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, _user, chat, lang = where
        self.ctx.say(chat, await self.desk.history(chat, lang), reply_to=message.message_id)

    # -- /replay [id] ------------------------------------------------------------------
    async def replay(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, user, chat, lang = where
        try:
            number = record_arg(context.args)
        except BadRecordArg:
            self.ctx.say(chat, t("rec_bad_id", lang), reply_to=message.message_id)
            return
        opened = await self.desk.open(chat, number)
        if isinstance(opened, Refused):
            self.ctx.say(chat, opened.text(lang), reply_to=message.message_id)
            return
        relayed: dict[str, Json] = {
            "replay": opened.number,
            "reply_to": message.message_id,
            "owner": str(user.id),
            "lang": lang,
        }
        if not self.ctx.relay(chat, relayed):
            self._post(chat, message.message_id, opened, str(user.id), lang)

    async def _relayed_replay(self, chat: ChatRef, payload: dict[str, Json]) -> None:
        number, reply_to = payload.get("replay"), payload.get("reply_to")
        lang: Lang = "en" if payload.get("lang") == "en" else "zh"
        if not isinstance(number, int) or not isinstance(reply_to, int):
            return
        opened = await self.desk.open(chat, number)
        if isinstance(opened, Refused):
            self.ctx.say(chat, opened.text(lang), reply_to=reply_to)
            return
        self._post(chat, reply_to, opened, str(payload.get("owner")), lang)

    async def _draw(self, opened: Opened, index: int, lang: Lang) -> bytes:
        rec = opened.record
        at = (index, opened.last)
        return await self.ctx.draw(
            self.image, opened.frames[index], rec.names, rec.hand_no, at, lang
        )

    def _post(self, chat: ChatRef, reply_to: int, opened: Opened, owner: str, lang: Lang) -> None:
        chat_id = int(chat.chat_id)
        thread = int(chat.thread_id) if chat.thread_id else None
        summary = opened.summary(lang)
        caption = t("rec_file_caption", lang, number=opened.number)
        api = self.ctx.api

        # One job per message: the sender counts jobs against the group's budget.
        web = self.ctx.web_replay
        markup = None
        if web is not None:  # the hand in the web table, every hand face up
            link = web(chat.key, opened.number)
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(t("tg_btn_web_replay", lang), url=link)]]
            )

        async def send_summary() -> bool:
            await api.send_message(chat_id, summary, message_thread_id=thread, reply_markup=markup)
            return True

        async def send_file() -> bool:
            await api.send_document(
                chat_id,
                opened.file_bytes(),
                filename=opened.file_name(),
                caption=caption,
                message_thread_id=thread,
            )
            return True

        async def send_stepper() -> bool:
            png = await self._draw(opened, 0, lang)
            msg = await api.send_photo(
                chat_id,
                png,
                caption=stepper_caption(opened, 0, lang),
                reply_markup=stepper_keyboard(opened.number, 0, opened.last),
                message_thread_id=thread,
                filename="replay.png",
            )
            session = StepSession(chat.group_key, opened.number, 0, owner, lang)
            await self.desk.remember(_session_key(chat_id, msg.message_id), session)
            return True

        # A reply to /replay: shed, like any reply to a command, if it waits too long.
        for job in (send_summary, send_file, send_stepper):
            self.ctx.sender.post(chat_id, job, expendable=True)

    # -- ◀ ▶ -----------------------------------------------------------------------------
    async def press(self, query: CallbackQuery, press: ReplayPress) -> None:
        message = query.message
        uid = str(query.from_user.id)
        if message is None or message.chat.type not in GROUP_TYPES:
            await query.answer(t("rec_stale", user_lang(query.from_user)))
            return
        key = _session_key(message.chat.id, message.message_id)
        session = await self.desk.session(key)
        lang = session.lang if session is not None else user_lang(query.from_user)
        if session is not None and session.number != press.number:
            await query.answer(t("rec_stale", lang))
            return
        if press.to == press.shown:
            await query.answer()  # the position label: nothing to do
            return
        moved = await self.desk.step(key, uid, press.shown, press.to)
        if isinstance(moved, Refused):
            await query.answer(moved.text(lang))
            return
        await query.answer()
        relayed: dict[str, Json] = {
            "replay_step": message.message_id,
            "number": moved.number,
            "index": moved.index,
            "lang": moved.lang,
        }
        if not self.ctx.relay(ChatRef(TELEGRAM.platform, str(message.chat.id)), relayed):
            self._edit(message.chat.id, message.message_id, moved)

    async def _relayed_step(self, chat: ChatRef, payload: dict[str, Json]) -> None:
        message_id, number, index = (payload.get(k) for k in ("replay_step", "number", "index"))
        if not (isinstance(message_id, int) and isinstance(number, int)):
            return
        if not isinstance(index, int):
            return
        lang: Lang = "en" if payload.get("lang") == "en" else "zh"
        session = StepSession(chat.group_key, number, index, "", lang)
        self._edit(int(chat.chat_id), message_id, session)

    def _edit(self, chat_id: int, message_id: int, session: StepSession) -> None:
        api = self.ctx.api
        group_chat = ChatRef(TELEGRAM.platform, str(chat_id))

        async def job() -> bool:
            opened = await self.desk.open(group_chat, session.number)
            if isinstance(opened, Refused):
                return False
            index = min(session.index, opened.last)
            png = await self._draw(opened, index, session.lang)
            media = InputMediaPhoto(
                png, caption=stepper_caption(opened, index, session.lang), filename="replay.png"
            )
            try:
                await api.edit_message_media(
                    media,
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=stepper_keyboard(opened.number, index, opened.last),
                )
            except BadRequest as err:
                if "not modified" not in err.message.lower():
                    raise
                return False
            return True

        self.ctx.sender.touch(chat_id, ("replay", message_id), job, EDIT_INTERVAL)

    # -- /why ----------------------------------------------------------------------------
    async def why(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        where = await self.ctx.group_call(update)
        if where is None:
            return
        message, _user, chat, lang = where
        args = context.args or []
        answer = await self._why(message, chat, args, lang)
        self.ctx.say(chat, answer, reply_to=message.message_id)

    async def _why(self, message: Message, chat: ChatRef, args: list[str], lang: Lang) -> str:
        if args:
            parsed = parse_why_args([a.lstrip("#") for a in args])
            if parsed is None:
                return t("why_usage", lang)
            number, step, seat, cards, burn = parsed
            return await self.desk.why(chat, number, step, lang, seat, cards, burn)
        target = message.reply_to_message
        if target is None:
            return t("why_usage", lang)
        session = await self.desk.session(_session_key(target.chat.id, target.message_id))
        if session is not None:
            return await self.desk.why(chat, session.number, session.index, lang)
        ref = self.ctx.book.table(chat.key)
        if ref is not None and ref.message_id == target.message_id:
            if await self.desk.in_play(chat):
                return t("rec_in_play", lang)
            opened = await self.desk.open(chat, None)
            if isinstance(opened, Refused):
                return opened.text(lang)
            return opened.why(opened.last, lang)
        return t("why_usage", lang)
