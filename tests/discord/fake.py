"""An in-memory Discord: the HTTP and webhook layers of discord.py answered in-process.

discord.py's own routing, option conversion, view dispatch and response building run
for real; only the requests they would send are caught here, recorded, and answered
with plausible JSON. Interactions come in as raw gateway payloads.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 800000000000000002
OTHER_CHANNEL_ID = 800000000000000003
MANAGE_GUILD = 1 << 5
EPHEMERAL = 64
LOADING = 128
BOT_USER = {
    "id": str(BOT_ID),
    "username": "gouji",
    "discriminator": "0",
    "global_name": "够级",
    "avatar": None,
    "bot": True,
}
_MESSAGE_ID = re.compile(r"/messages/(\d+|@original)$")


@dataclass
class Player:
    id: int
    name: str
    admin: bool = False

    def user_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": f"user{self.id}",
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }

    def member_json(self) -> dict[str, Any]:
        return {
            "user": self.user_json(),
            "nick": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(MANAGE_GUILD if self.admin else 0),
        }


@dataclass
class Msg:
    id: int
    channel_id: int
    place: str  # "channel", "dm" or "ephemeral"
    user: int | None  # who sees a DM or ephemeral message
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    flags: int = 0
    deleted: bool = False
    versions: list[dict[str, Any]] = field(default_factory=list)

    def apply(self, payload: dict[str, Any], files: list[str]) -> None:
        if "content" in payload:
            self.content = payload["content"] or ""
        if "components" in payload:
            self.components = payload["components"] or []
        if "attachments" in payload or files:
            self.files = list(files)
        if "flags" in payload and payload["flags"] is not None:
            self.flags = (self.flags & LOADING) | int(payload["flags"])
        self.versions.append(
            {"content": self.content, "files": list(self.files), "ids": self.custom_ids()}
        )

    def custom_ids(self) -> list[str]:
        out = []
        for row in self.components:
            for comp in row.get("components", []):
                if "custom_id" in comp:
                    out.append(comp["custom_id"])
        return out

    def component(self, custom_id: str) -> dict[str, Any]:
        for row in self.components:
            for comp in row.get("components", []):
                if comp.get("custom_id") == custom_id:
                    return comp
        raise KeyError(custom_id)

    def json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "content": self.content,
            "author": BOT_USER,
            "attachments": [
                {
                    "id": str(self.id + i + 1),
                    "filename": name,
                    "size": 1,
                    "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}",
                }
                for i, name in enumerate(self.files)
            ],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": self.flags,
            "components": self.components,
        }


@dataclass
class Call:
    method: str
    path: str
    url: str
    payload: Any
    files: list[str]
    data: dict[str, bytes] = field(default_factory=dict)  # attachment bytes by file name
    at: float = 0.0  # the bot's sender time when the call was made
    channel: int | None = None


def _read(files: Any) -> dict[str, bytes]:
    out = {}
    for f in files or []:
        f.fp.seek(0)
        out[f.filename] = f.fp.read()
    return out


@dataclass
class Token:
    interaction_id: int
    user: int
    in_dm: bool
    source: int | None  # the message a component was on
    original: int | None = None
    responded: bool = False


class FakeResponse:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _payload(kwargs: dict[str, Any], form: Any) -> Any:
    if kwargs.get("json") is not None:
        return kwargs["json"]
    if kwargs.get("payload") is not None:
        return kwargs["payload"]
    for part in form or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


class FakeDiscord:
    def __init__(self) -> None:
        self.ids = itertools.count(700000000000000001)
        self.calls: list[Call] = []
        self.messages: dict[int, Msg] = {}
        self.dm_channels: dict[int, int] = {}  # user -> DM channel
        self.dm_users: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.refused_dms: list[int] = []  # each DM refused, by user: the bot's attempts
        self.tokens: dict[str, Token] = {}
        self.synced: list[Any] = []
        # Discord's enforce_nonce: a second create with a nonce already used in the channel
        # returns the first message instead of posting again.
        self.nonces: dict[tuple[int, str], Msg] = {}
        self.now: Callable[[], float] = lambda: 0.0  # the harness sets the sender's clock

    # -- what tests look at ---------------------------------------------------------------
    def channel_messages(self, channel: int = CHANNEL_ID) -> list[Msg]:
        return [
            m for m in self.messages.values() if m.place == "channel" and m.channel_id == channel
        ]

    def public_versions(self) -> list[dict[str, Any]]:
        """Every state any message visible to the whole channel has ever had."""
        return [v for m in self.messages.values() if m.place == "channel" for v in m.versions]

    def private_messages(self, user: int) -> list[Msg]:
        return [
            m
            for m in self.messages.values()
            if m.user == user and m.place in ("dm", "ephemeral") and not m.deleted
        ]

    def last_private(self, user: int, place: str | None = None) -> Msg | None:
        found = [
            m
            for m in self.private_messages(user)
            if m.components and (place is None or m.place == place)
        ]
        return found[-1] if found else None

    def channel_writes(self, channel: int = CHANNEL_ID) -> list[float]:
        """When the bot wrote to a channel (posts, edits, deletions), in sender time."""
        return [
            c.at
            for c in self.calls
            if c.channel == channel and c.path.startswith("/channels/{channel_id}/messages")
        ]

    def texts_to(self, user: int) -> list[str]:
        return [m.content for m in self.messages.values() if m.user == user]

    def attachments(self, name: str) -> list[bytes]:
        return [c.data[name] for c in self.calls if name in c.data]

    def table_message(self) -> Msg:
        tables = [
            m for m in self.channel_messages() if any(c.startswith("gj:t:") for c in m.custom_ids())
        ]
        assert tables, "no table message"
        return tables[-1]

    # -- discord.http.HTTPClient.request --------------------------------------------------------
    async def http(
        self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        await asyncio.sleep(0)
        payload = _payload(kwargs, form)
        names = [f.filename for f in files or []]
        channel = int(route.channel_id) if route.channel_id is not None else None
        call = Call(route.method, route.path, route.url, payload, names, _read(files))
        call.at, call.channel = self.now(), channel
        self.calls.append(call)
        path, method = route.path, route.method
        if path == "/users/@me/channels" and method == "POST":
            user = int(payload["recipient_id"])
            dm = self.dm_channels.setdefault(user, next(self.ids))
            self.dm_users[dm] = user
            return {
                "id": str(dm),
                "type": 1,
                "last_message_id": None,
                "recipients": [
                    {
                        "id": str(user),
                        "username": f"user{user}",
                        "discriminator": "0",
                        "avatar": None,
                    }
                ],
            }
        if path.endswith("/commands") and method == "PUT":
            self.synced.append(payload)
            return [
                dict(cmd, id=str(next(self.ids)), application_id=str(APP_ID), version="1")
                for cmd in payload
            ]
        if path == "/channels/{channel_id}/messages" and method == "POST":
            assert channel is not None
            user = self.dm_users.get(channel)
            if user is not None and user in self.closed_dms:
                self.refused_dms.append(user)
                raise discord.Forbidden(
                    FakeResponse(403, "Forbidden"),  # type: ignore[arg-type]
                    {"code": 50007, "message": "Cannot send messages to this user"},
                )
            nonce = (payload or {}).get("nonce")
            enforced = (payload or {}).get("enforce_nonce") and nonce is not None
            if enforced and (channel, str(nonce)) in self.nonces:
                return self.nonces[(channel, str(nonce))].json()
            msg = Msg(next(self.ids), channel, "dm" if user else "channel", user)
            msg.apply(payload or {}, names)
            self.messages[msg.id] = msg
            if enforced:
                self.nonces[(channel, str(nonce))] = msg
            return msg.json()
        match = _MESSAGE_ID.search(route.url)
        if path == "/channels/{channel_id}/messages/{message_id}" and match:
            msg = self.messages.get(int(match[1]))
            if msg is None or msg.deleted:
                raise discord.NotFound(
                    FakeResponse(404, "Not Found"), {"code": 10008, "message": "Unknown Message"}
                )  # type: ignore[arg-type]
            if method == "DELETE":
                msg.deleted = True
                return None
            msg.apply(payload or {}, names)
            return msg.json()
        return {}

    # -- discord.webhook.async_.AsyncWebhookAdapter.request ------------------------------------
    async def webhook(self, route: discord.http.Route, session: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0)
        payload = _payload(kwargs, kwargs.get("multipart"))
        names = [f.filename for f in kwargs.get("files") or []]
        data = _read(kwargs.get("files"))
        self.calls.append(Call(route.method, route.path, route.url, payload, names, data))
        token = self.tokens[str(route.webhook_token)]
        if route.path.endswith("/callback"):
            return self._callback(token, payload or {}, names)
        match = _MESSAGE_ID.search(route.url)
        if match:
            target = token.original if match[1] == "@original" else int(match[1])
            msg = self.messages[target] if target is not None else None
            if msg is None:
                raise discord.NotFound(
                    FakeResponse(404, "Not Found"), {"code": 10008, "message": "Unknown Message"}
                )  # type: ignore[arg-type]
            if route.method == "PATCH":
                msg.apply(payload or {}, names)
                msg.flags &= ~LOADING
            return msg.json()
        # A followup: the first one after a "thinking" defer replaces the loading message.
        original = self.messages.get(token.original or 0)
        if original is not None and original.flags & LOADING:
            original.flags &= ~LOADING
            original.apply(payload or {}, names)
            return original.json()
        msg = self._new_for(token, (payload or {}).get("flags") or 0)
        msg.apply(payload or {}, names)
        return msg.json()

    def _new_for(self, token: Token, flags: int) -> Msg:
        place = "ephemeral" if flags & EPHEMERAL else "dm" if token.in_dm else "channel"
        channel = self.dm_channels.get(token.user, 0) if token.in_dm else CHANNEL_ID
        msg = Msg(
            next(self.ids), channel, place, token.user if place != "channel" else None, flags=flags
        )
        self.messages[msg.id] = msg
        return msg

    def _callback(self, token: Token, payload: dict[str, Any], names: list[str]) -> Any:
        assert not token.responded, "interaction answered twice"
        token.responded = True
        kind = payload["type"]
        data = payload.get("data") or {}
        flags = int(data.get("flags") or 0)
        message: Msg | None = None
        if kind == 4:
            message = self._new_for(token, flags)
            message.apply(data, names)
        elif kind == 5:
            message = self._new_for(token, flags | LOADING)
            message.apply({"flags": flags}, [])
            message.flags |= LOADING
        elif kind in (6, 7) and token.source is not None:
            message = self.messages[token.source]
            if kind == 7:
                message.apply(data, names)
        if message is not None:
            token.original = message.id
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (4, 5, 7):
            resource["message"] = message.json()
        return {
            "interaction": {
                "id": str(token.interaction_id),
                "type": 3 if token.source else 2,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": resource,
        }

    # -- interaction payloads -----------------------------------------------------------------
    def _base(
        self, kind: int, player: Player, data: dict[str, Any], source: Msg | None
    ) -> dict[str, Any]:
        iid = next(self.ids)
        token = f"token{iid}"
        in_dm = source is not None and source.place == "dm"
        self.tokens[token] = Token(iid, player.id, in_dm, source.id if source else None)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8 * 1024 * 1024,
            "locale": "zh-CN",
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "data": data,
        }
        if in_dm:
            dm = self.dm_channels[player.id]
            payload["user"] = player.user_json()
            payload["channel"] = {"id": str(dm), "type": 1, "recipients": [player.user_json()]}
            payload["channel_id"] = str(dm)
            payload["context"] = 1
        else:
            channel = source.channel_id if source and source.place == "channel" else CHANNEL_ID
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = "zh-CN"
            payload["member"] = player.member_json()
            payload["channel"] = {
                "id": str(channel),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "gouji",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
            payload["channel_id"] = str(channel)
            payload["context"] = 0
        if source is not None:
            payload["message"] = source.json()
        return payload

    def slash(self, player: Player, sub: str, **options: Any) -> dict[str, Any]:
        opts = [{"name": k, "type": 4, "value": v} for k, v in options.items()]
        data = {
            "id": "1",
            "name": "gouji",
            "type": 1,
            "guild_id": str(GUILD_ID),
            "options": [{"name": sub, "type": 1, "options": opts}],
        }
        return self._base(2, player, data, None)

    def press(self, player: Player, message: Msg, custom_id: str) -> dict[str, Any]:
        comp = message.component(custom_id)
        data = {"custom_id": custom_id, "component_type": comp["type"]}
        return self._base(3, player, data, message)

    def choose(self, player: Player, message: Msg, custom_id: str, value: str) -> dict[str, Any]:
        comp = message.component(custom_id)
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": [value]}
        return self._base(3, player, data, message)

    def replies_to(self, payload: dict[str, Any]) -> list[str]:
        """What the player saw in answer to one interaction (texts, newest last)."""
        out = []
        for call in self.calls:
            if payload["token"] in call.url and isinstance(call.payload, dict):
                body = call.payload.get("data", call.payload)
                if isinstance(body, dict) and body.get("content"):
                    out.append(body["content"])
        return out
