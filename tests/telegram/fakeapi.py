"""An in-process Telegram Bot API for tests: PTB's own request layer talks to it.

It keeps the chats, users and messages a real server would, answers each Bot API method
the adapter uses, and imitates the errors that shape the adapter: 403 for users who never
opened the bot, 400 "message is not modified" / "message to edit not found", and 429
with ``retry_after`` on demand. Every call is recorded with the fake clock's time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram.request import BaseRequest, RequestData

from bot.table import Clock

BOT_USER = {
    "id": 4242,
    "is_bot": True,
    "first_name": "够级",
    "username": "gouji_test_bot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
SENDS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "editMessageMedia",
        "editMessageCaption",
        "editMessageText",
        "editMessageReplyMarkup",
        "deleteMessage",
    }
)
ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
}


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.retry_after is not None:
            out["parameters"] = {"retry_after": self.retry_after}
        return out


def forbidden_start() -> ApiError:
    return ApiError(403, "Forbidden: bot can't initiate conversation with a user")


def not_modified() -> ApiError:
    return ApiError(
        400,
        "Bad Request: message is not modified: specified new message content and reply "
        "markup are exactly the same as a current content and reply markup of the message",
    )


def too_many(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


@dataclass
class Call:
    at: float
    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, bytes]]
    error: int | None = None
    caller: str = ""  # who made it, when the HTTP fake is reached under a prefix (/w0/bot…)

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None else None

    def texts(self) -> list[str]:
        """Every human-readable string the call carries: text, caption, button labels."""
        out = [str(self.params[k]) for k in ("text", "caption") if self.params.get(k)]
        media = self.params.get("media")
        if isinstance(media, dict) and media.get("caption"):
            out.append(str(media["caption"]))
        markup = self.params.get("reply_markup")
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                out += [b.get("text", "") for b in row]
        return out

    def upload_names(self) -> list[str]:
        return [name for name, _ in self.files.values()]


@dataclass
class Message:
    chat: dict[str, Any]
    message_id: int
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    photo_name: str | None = None
    markup: dict[str, Any] | None = None
    thread_id: int | None = None
    document: bytes | None = None
    document_name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "date": 1_700_000_000,
            "chat": self.chat,
            "from": BOT_USER,
        }
        if self.text is not None:
            out["text"] = self.text
        if self.photo is not None:
            unique = f"p{abs(hash(self.photo)) % 10**9}"
            out["photo"] = [{"file_id": unique, "file_unique_id": unique, "width": 9, "height": 9}]
            if self.caption:
                out["caption"] = self.caption
        if self.document is not None:
            unique = f"d{abs(hash(self.document)) % 10**9}"
            out["document"] = {"file_id": unique, "file_unique_id": unique}
            if self.caption:
                out["caption"] = self.caption
        if self.markup:
            out["reply_markup"] = self.markup
        if self.thread_id is not None:
            out["message_thread_id"] = self.thread_id
            out["is_topic_message"] = True
        return out

    def buttons(self) -> list[tuple[str, str]]:
        """(label, callback_data, url or Mini App url) of every button."""
        rows = (self.markup or {}).get("inline_keyboard", [])
        return [
            (
                b["text"],
                b.get("callback_data") or b.get("url") or b.get("web_app", {}).get("url", ""),
            )
            for row in rows
            for b in row
        ]

    def button(self, match: Callable[[str, str], bool]) -> str:
        for text, data in self.buttons():
            if match(text, data):
                return data
        raise LookupError(f"no such button among {[t for t, _ in self.buttons()]}")


@dataclass
class Fault:
    method: str
    error: ApiError
    chat_id: int | None
    times: int


@dataclass
class FakeTelegram(BaseRequest):
    clock: Clock
    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[int, int], Message] = field(default_factory=dict)
    chats: dict[int, dict[str, Any]] = field(default_factory=dict)
    opened: set[int] = field(default_factory=set)  # users who started the bot
    admins: dict[int, set[int]] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    updates: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    _ids: dict[int, int] = field(default_factory=dict)
    _update_id: int = 0

    # -- BaseRequest ---------------------------------------------------------------------
    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        files = {}
        if request_data is not None:
            for part, value in request_data.multipart_data.items():
                content = value[1]
                files[part] = (str(value[0]), content if isinstance(content, bytes) else b"")
        call = Call(self.clock.now(), name, params, files)
        self.calls.append(call)
        try:
            self._inject(name, call.chat_id)
            handler = getattr(self, f"api_{name}", None)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            if name == "getUpdates":
                result = await self.api_getUpdates(params, files)
            else:
                result = handler(params, files)
        except ApiError as err:
            call.error = err.code
            return err.code, json.dumps(err.body()).encode()
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def _inject(self, method: str, chat_id: int | None) -> None:
        for fault in self.faults:
            if fault.method == method and fault.chat_id in (None, chat_id) and fault.times > 0:
                fault.times -= 1
                raise fault.error

    def fail(
        self, method: str, error: ApiError, chat_id: int | None = None, times: int = 1
    ) -> None:
        self.faults.append(Fault(method, error, chat_id, times))

    # -- world ---------------------------------------------------------------------------
    def add_group(self, chat_id: int, title: str, forum: bool = False) -> dict[str, Any]:
        chat: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
        self.chats[chat_id] = chat
        return chat

    def private_chat(self, user: dict[str, Any]) -> dict[str, Any]:
        chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        self.chats[user["id"]] = chat
        return chat

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id > 0 and chat_id not in self.opened:
            raise forbidden_start()
        chat = self.chats.get(chat_id)
        if chat is None and chat_id > 0:
            chat = self.chats[chat_id] = {"id": chat_id, "type": "private"}
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        return chat

    def _new_message(self, chat_id: int, params: dict[str, Any]) -> Message:
        chat = self._chat(chat_id)
        self._ids[chat_id] = self._ids.get(chat_id, 0) + 1
        thread = params.get("message_thread_id")
        msg = Message(chat, self._ids[chat_id], thread_id=int(thread) if thread else None)
        msg.markup = params.get("reply_markup")
        self.messages[(chat_id, msg.message_id)] = msg
        return msg

    def _existing(self, params: dict[str, Any]) -> Message:
        key = (int(params["chat_id"]), int(params["message_id"]))
        msg = self.messages.get(key)
        if msg is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return msg

    # -- methods -------------------------------------------------------------------------
    def api_getMe(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return BOT_USER

    def api_setMyCommands(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    def api_deleteWebhook(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    def api_setWebhook(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    async def api_getUpdates(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        try:
            first = await asyncio.wait_for(self.updates.get(), timeout=0.05)
        except TimeoutError:
            return []
        out = [first]
        while not self.updates.empty():
            out.append(self.updates.get_nowait())
        return out

    def api_sendMessage(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._new_message(int(params["chat_id"]), params)
        msg.text = str(params["text"])
        return msg.to_dict()

    def api_sendPhoto(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._new_message(int(params["chat_id"]), params)
        msg.photo_name, msg.photo = files["photo"]
        msg.caption = params.get("caption")
        return msg.to_dict()

    def api_sendDocument(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._new_message(int(params["chat_id"]), params)
        msg.document_name, msg.document = files["document"]
        msg.caption = params.get("caption")
        return msg.to_dict()

    def api_editMessageMedia(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._existing(params)
        media = params["media"]
        part = str(media["media"]).removeprefix("attach://")
        name, photo = files[part]
        caption = media.get("caption")
        markup = params.get("reply_markup")
        if photo == msg.photo and caption == msg.caption and markup == msg.markup:
            raise not_modified()
        msg.photo_name, msg.photo, msg.caption, msg.markup = name, photo, caption, markup
        return msg.to_dict()

    def api_editMessageCaption(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._existing(params)
        caption, markup = params.get("caption"), params.get("reply_markup")
        if caption == msg.caption and markup == msg.markup:
            raise not_modified()
        msg.caption, msg.markup = caption, markup
        return msg.to_dict()

    def api_editMessageText(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._existing(params)
        text, markup = params.get("text"), params.get("reply_markup")
        if text == msg.text and markup == msg.markup:
            raise not_modified()
        msg.text, msg.markup = text, markup
        return msg.to_dict()

    def api_editMessageReplyMarkup(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        msg = self._existing(params)
        markup = params.get("reply_markup")
        if markup == msg.markup:
            raise not_modified()
        msg.markup = markup
        return msg.to_dict()

    def api_deleteMessage(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if self.messages.pop(key, None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    def api_answerCallbackQuery(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    def api_getChatMember(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        user = {"id": user_id, "is_bot": False, "first_name": f"u{user_id}"}
        if user_id in self.admins.get(chat_id, set()):
            return {"status": "administrator", "user": user, **ADMIN_RIGHTS}
        return {"status": "member", "user": user}

    # -- updates the tests feed ----------------------------------------------------------
    def next_update_id(self) -> int:
        self._update_id += 1
        return self._update_id

    def command(
        self,
        user: dict[str, Any],
        chat: dict[str, Any],
        text: str,
        thread: int | None = None,
        sender_chat: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        self._ids[chat["id"]] = self._ids.get(chat["id"], 0) + 1
        word = text.split()[0]
        message: dict[str, Any] = {
            "message_id": self._ids[chat["id"]],
            "date": 1_700_000_000,
            "chat": chat,
            "from": user,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(word)}],
        }
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        if sender_chat is not None:
            message["sender_chat"] = sender_chat
        return {"update_id": self.next_update_id(), "message": message}

    def start(self, user: dict[str, Any], payload: str = "") -> dict[str, Any]:
        """The user opens the bot (through a deep link when ``payload`` is given)."""
        self.opened.add(user["id"])
        chat = self.private_chat(user)
        text = f"/start {payload}".strip()
        return self.command(user, chat, text)

    def press(self, user: dict[str, Any], message: Message, data: str) -> dict[str, Any]:
        query = {
            "id": str(self.next_update_id() * 7),
            "from": user,
            "chat_instance": f"ci{message.chat['id']}",
            "message": message.to_dict(),
            "data": data,
        }
        return {"update_id": self.next_update_id(), "callback_query": query}

    # -- what the tests read -------------------------------------------------------------
    def sends_to(self, chat_id: int) -> list[Call]:
        return [c for c in self.calls if c.method in SENDS and c.chat_id == chat_id]

    def answers(self) -> list[dict[str, Any]]:
        return [c.params for c in self.calls if c.method == "answerCallbackQuery"]

    def in_chat(self, chat_id: int) -> list[Message]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id]

    def last_photo(self, chat_id: int, name: str) -> Message:
        found = [m for m in self.in_chat(chat_id) if m.photo_name == name]
        if not found:
            raise LookupError(f"no {name} in chat {chat_id}")
        return found[-1]
