"""State shared by the handlers and the publisher: the manager, the sender, who can get a
private message, cached admin checks, and the small helpers that send through the sender."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from telegram import (
    Bot,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.cluster import receipts
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import Actor, ChatRef, Clock, TableManager
from bot.table.cache import BoundedDict
from bot.table.outputs import Json

from ..bounded import CHATS, USERS
from ..drawing import Drawer
from ..frontends import TELEGRAM
from .book import MessageBook
from .ids import TableIds
from .reach import Reach
from .sender import Sender
from .views import Renderer

log = logging.getLogger(__name__)

ADMIN_TTL = 60.0  # seconds an admin check is trusted
ADMINS = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
GROUP_TYPES = (ChatType.GROUP, ChatType.SUPERGROUP)


class BadRecordArg(Exception):
    """The argument of /replay or /review is not one record number."""


def record_arg(args: list[str] | None) -> int | None:
    """The record number typed after /replay or /review (``#12`` or ``12``), None for the
    newest; :class:`BadRecordArg` for anything else (``isdigit`` alone would let ``²`` in)."""
    parts = [a.lstrip("#") for a in args or []]
    if not parts:
        return None
    if len(parts) > 1 or not (parts[0].isascii() and parts[0].isdigit()):
        raise BadRecordArg(parts)
    return int(parts[0])


class GroupCall(NamedTuple):
    """A command sent in a group: the message, its sender, the table's chat, the language."""

    message: Message
    user: User
    chat: ChatRef
    lang: Lang


def chat_of(message: Message) -> ChatRef:
    """The table's chat: the group, and the forum topic when the message is in one."""
    thread = message.message_thread_id if message.is_topic_message else None
    return ChatRef(TELEGRAM.platform, str(message.chat.id), str(thread) if thread else None)


def user_lang(user: User | None) -> Lang:
    """For private texts not tied to a group: English for English clients, else Chinese."""
    code = (user.language_code or "") if user is not None else ""
    return "en" if code.startswith("en") else "zh"


def actor_of(user: User, is_admin: bool = False) -> Actor:
    return Actor(str(user.id), user.full_name or str(user.id), is_admin)


# A relayed reply of an adapter module's own: the chat and the payload it queued.
RelayedKind = Callable[[ChatRef, dict[str, Json]], Awaitable[None]]


@dataclass
class Context:
    manager: TableManager
    sender: Sender
    ids: TableIds
    book: MessageBook
    renderer: Renderer
    clock: Clock
    table_interval: float = 3.0
    private_interval: float = 1.0
    bot: Bot | None = None
    # Draws the pictures off the event loop (adapters/drawing.py): threads unless the
    # composition root gives it processes.
    draw: Drawer = field(default_factory=Drawer)
    # Every per-user and per-chat fact below is bounded (adapters/bounded.py).
    reach: Reach = field(init=False)  # who the bot may write to privately
    notices: BoundedDict[str, deque[str]] = field(default_factory=lambda: BoundedDict(CHATS))
    group_titles: BoundedDict[int, str] = field(default_factory=lambda: BoundedDict(CHATS))
    # Other relayed replies, by the payload's first key: e.g. "replay" (adapters/telegram/
    # records.py) — what they post is rendered where the chat's sender runs.
    relayed_kinds: dict[str, RelayedKind] = field(default_factory=dict)
    # The web table's page of a table (adapters/web), when GOUJI_WEB_URL is set: the hand
    # message gets a button that opens it as a Mini App.
    web_app: Callable[[str], str] | None = None
    web_replay: Callable[[str, int], str] | None = None  # (table, hand number) -> replay page
    _admins: BoundedDict[tuple[int, int], tuple[bool, float]] = field(
        default_factory=lambda: BoundedDict(USERS)
    )

    def __post_init__(self) -> None:
        self.reach = Reach(self.manager)

    @property
    def api(self) -> Bot:
        assert self.bot is not None, "the Telegram application is not initialized"
        return self.bot

    async def lang(self, chat: ChatRef) -> Lang:
        return (await self.manager.group_settings(chat)).lang

    def web_url(self, key: str) -> str | None:
        return self.web_app(key) if self.web_app is not None else None

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.api.username}?start={payload}"

    async def group_call(self, update: Update) -> GroupCall | None:
        """The command's group and language; None (after a polite private answer) when it
        was not sent in a group."""
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return None
        if message.chat.type not in GROUP_TYPES:
            self.tell(str(user.id), t("tg_group_only", user_lang(user)))
            return None
        if message.chat.title:
            self.group_titles[message.chat.id] = message.chat.title
        chat = chat_of(message)
        return GroupCall(message, user, chat, await self.lang(chat))

    async def is_admin(self, chat_id: int, user_id: int, sender_chat_id: int | None = None) -> bool:
        # A message an anonymous admin sends on behalf of the group carries the group
        # itself as sender_chat; only admins can do that.
        if sender_chat_id is not None and sender_chat_id == chat_id:
            return True
        now = self.clock.now()
        cached = self._admins.get((chat_id, user_id))
        if cached is not None and cached[1] > now:
            return cached[0]
        try:
            member = await self.api.get_chat_member(chat_id, user_id)
        except TelegramError as err:
            log.warning("admin check in chat %s failed: %s", chat_id, err.message)
            return False
        ok = member.status in ADMINS
        self._admins[(chat_id, user_id)] = (ok, now + ADMIN_TTL)
        return ok

    def say(
        self,
        chat: ChatRef,
        text: str,
        reply_to: int | None = None,
        markup: InlineKeyboardMarkup | None = None,
        urgent: bool = False,
    ) -> None:
        """Queue a group message (it counts against the group's budget); ``urgent`` ones
        (报户 answers, match ends, alerts before a turn) go before replies and table edits.

        With several workers a reply to a command goes through the outbox instead, so the
        worker holding the chat's lease sends it within the one group budget (the table's
        messages already come that way: ``receipts.relaying``)."""
        payload: dict[str, Json] = {
            "say": text,
            "reply_to": reply_to,
            "markup": None if markup is None else markup.to_dict(),
            "urgent": urgent,
        }
        if not self.relay(chat, payload):
            self._say(chat, text, reply_to, markup, urgent)

    def relay(self, chat: ChatRef, payload: dict[str, Json]) -> bool:
        """Queue a group reply in the outbox (several workers; not while the relay hands
        an outbox message over: that one is on its way already); False: send it here."""
        return (
            int(chat.chat_id) < 0
            and not receipts.relaying()
            and self.manager.relay_reply(chat.key, payload)
        )

    def edit(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        """Edit a message the bot sent (a settings menu): rapid edits of one message
        collapse into one showing the last text. In a group with several workers it goes
        through the outbox, as ``say``."""
        payload: dict[str, Json] = {
            "edit": message_id,
            "text": text,
            "markup": None if markup is None else markup.to_dict(),
        }
        if not self.relay(ChatRef(TELEGRAM.platform, str(chat_id)), payload):
            self._edit(chat_id, message_id, text, markup)

    async def relayed(self, chat_key: str, payload: dict[str, Json]) -> None:
        """A reply handed back by the outbox relay (``say`` or ``edit`` on any worker)."""
        if not TELEGRAM.owns(chat_key):
            return
        kind = next(iter(payload), None)
        handler = None if kind is None else self.relayed_kinds.get(kind)
        if handler is not None:
            await handler(ChatRef.from_key(chat_key), payload)
            return
        try:
            raw = payload.get("markup")
            markup = InlineKeyboardMarkup.de_json(raw, self.bot) if isinstance(raw, dict) else None
            if "edit" in payload:
                chat_id = int(ChatRef.from_key(chat_key).chat_id)
                edited = payload["edit"]
                assert isinstance(edited, int)
                self._edit(chat_id, edited, str(payload["text"]), markup)
                return
            reply_to = payload.get("reply_to")
            self._say(
                ChatRef.from_key(chat_key),
                str(payload["say"]),
                reply_to if isinstance(reply_to, int) else None,
                markup,
                bool(payload.get("urgent")),
            )
        except (AssertionError, KeyError, TypeError, ValueError) as err:
            log.error("chat %s: an unreadable reply in the outbox: %r", chat_key, err)

    def _edit(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        async def job() -> bool:
            try:
                await self.api.edit_message_text(
                    text, chat_id=chat_id, message_id=message_id, reply_markup=markup
                )
            except BadRequest as err:
                if "not modified" not in err.message.lower():
                    raise
            return True

        self.sender.touch(chat_id, ("menu", message_id), job, 0.0)

    def _say(
        self,
        chat: ChatRef,
        text: str,
        reply_to: int | None,
        markup: InlineKeyboardMarkup | None,
        urgent: bool,
    ) -> None:
        chat_id = int(chat.chat_id)
        thread = int(chat.thread_id) if chat.thread_id else None
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None

        async def job() -> bool:
            await self.api.send_message(
                chat_id,
                text,
                message_thread_id=thread,
                reply_parameters=reply,
                reply_markup=markup,
            )
            return True

        # Every group message ``say`` sends that is not urgent answers a command: the
        # Sender may shed it once stale (the game's own news is urgent, never shed).
        self.sender.post(chat_id, job, urgent=urgent, expendable=not urgent)

    def tell(self, user_id: str, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        """Queue a private message to a player."""

        async def job() -> bool:
            try:
                await self.api.send_message(int(user_id), text, reply_markup=markup)
            except Forbidden:
                self.reach.forget(user_id)
                log.info("user %s cannot get private messages", user_id)
            return True

        self.sender.post(int(user_id), job)

    async def probe_dm(self, user_id: str, text: str, key: str | None = None) -> bool:
        """Whether the bot may write to this user; a first greeting doubles as the test
        (what it shows is kept with the table at ``key``, if any)."""
        if self.reach.known(user_id, key):
            return True
        try:
            await self.api.send_message(int(user_id), text)
        except (Forbidden, BadRequest):
            await self.reach.mark(user_id, False, key)
            return False
        await self.reach.mark(user_id, True, key)
        return True
