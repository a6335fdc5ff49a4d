"""``custom_id`` codes for every button and menu the bot sends.

Each id names its table (guild and channel), and where it matters the seat and the
table version it was drawn for, so a button still works after a restart (it is a
DynamicItem matched by ``TEMPLATE``, not a view kept in memory) and can be refused
when stale. Discord allows 100 characters; ids and versions are written in base 36 and
cards as 15 base-36 counts, so the longest id stays under 70.

    gj:t:<guild>.<channel>:<version>:<op>          table message button
    gj:q:<guild>.<channel>:<version>:<op>          table message menu (报户)
    gj:a:<guild>.<channel>:<seat>:<version>:<op>   a seat's private button
    gj:m:<guild>.<channel>:<seat>:<version>:<op>   a seat's private menu
    gj:s:<guild>.<channel>:<op>                    settings menu
    gj:e:<guild>.<channel>:<op>                    settings button
    gj:r:<guild>.<channel>:<hand>.<shown>.<to>     replay stepper (adapters/discord/records)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.cards import NUM_RANKS, Counts
from bot.table import ChatRef

from ..frontends import DISCORD

PLATFORM = DISCORD.platform
TEMPLATE = r"gj:(?P<kind>[tqamser]):(?P<body>[0-9A-Za-z.:~_\-]{1,94})"
PATTERN = re.compile(TEMPLATE)
TABLE_KINDS = frozenset("tq")
SEAT_KINDS = frozenset("am")
SETTINGS_KINDS = frozenset("se")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_OP = re.compile(r"[0-9A-Za-z.~_\-]{1,40}")


def b36(n: int) -> str:
    if n < 0:
        raise ValueError(n)
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _DIGITS[r] + out
        if n == 0:
            return out


def from_b36(text: str) -> int | None:
    if not text or len(text) > 14 or any(c not in _DIGITS for c in text):
        return None
    return int(text, 36)


def encode_counts(counts: Counts) -> str:
    """A count vector as 15 base-36 digits (no count reaches 36)."""
    return "".join(_DIGITS[n] for n in counts)


def decode_counts(text: str) -> Counts | None:
    if len(text) != NUM_RANKS or any(c not in _DIGITS for c in text):
        return None
    counts = tuple(int(c, 36) for c in text)
    return counts if any(counts) else None


@dataclass(frozen=True, slots=True)
class Ref:
    """A table's place: the guild owns settings and stats, the channel or thread the table."""

    guild: int
    channel: int

    @property
    def chat(self) -> ChatRef:
        return ChatRef(PLATFORM, str(self.guild), str(self.channel))

    @property
    def key(self) -> str:
        return self.chat.key

    def encode(self) -> str:
        return f"{b36(self.guild)}.{b36(self.channel)}"

    @staticmethod
    def from_chat(chat: ChatRef) -> Ref:
        return Ref(int(chat.chat_id), int(chat.thread_id or chat.chat_id))

    @staticmethod
    def from_key(key: str) -> Ref:
        return Ref.from_chat(ChatRef.from_key(key))

    @staticmethod
    def decode(text: str) -> Ref | None:
        guild, dot, channel = text.partition(".")
        g, c = from_b36(guild), from_b36(channel)
        if not dot or g is None or c is None:
            return None
        return Ref(g, c)


@dataclass(frozen=True, slots=True)
class Cid:
    kind: str
    ref: Ref
    op: str
    seat: int | None = None
    version: int | None = None

    def encode(self) -> str:
        parts = ["gj", self.kind, self.ref.encode()]
        if self.kind in SEAT_KINDS:
            parts.append(str(self.seat))
        if self.kind in TABLE_KINDS | SEAT_KINDS:
            parts.append(b36(self.version or 0))
        parts.append(self.op)
        text = ":".join(parts)
        if len(text) > 100 or not PATTERN.fullmatch(text):
            raise ValueError(f"custom_id too long or malformed ({len(text)} characters)")
        return text

    def with_op(self, op: str) -> Cid:
        return Cid(self.kind, self.ref, op, self.seat, self.version)


def table_cid(ref: Ref, version: int, op: str, menu: bool = False) -> str:
    return Cid("q" if menu else "t", ref, op, version=version).encode()


def seat_cid(ref: Ref, seat: int, version: int, op: str, menu: bool = False) -> str:
    return Cid("m" if menu else "a", ref, op, seat=seat, version=version).encode()


def settings_cid(ref: Ref, op: str, menu: bool = True) -> str:
    return Cid("s" if menu else "e", ref, op).encode()


def parse(custom_id: str) -> Cid | None:
    """The parsed id, or None when it is not one of ours or is malformed."""
    match = PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    kind, body = match["kind"], match["body"]
    fields = body.split(":")
    need = 3 if kind in TABLE_KINDS else 4 if kind in SEAT_KINDS else 2
    if len(fields) != need:
        return None
    ref = Ref.decode(fields[0])
    op = fields[-1]
    if ref is None or not _OP.fullmatch(op):
        return None
    seat: int | None = None
    version: int | None = None
    if kind in SEAT_KINDS:
        if fields[1] not in ("1", "2", "3", "4", "5", "6"):
            return None
        seat = int(fields[1])
    if kind in TABLE_KINDS | SEAT_KINDS:
        version = from_b36(fields[-2])
        if version is None:
            return None
    return Cid(kind, ref, op, seat, version)
