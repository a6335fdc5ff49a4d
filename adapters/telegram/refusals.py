"""Refusals any group member can trigger at will cost the group (almost) nothing.

A group has about 20 calls a minute for everything, and the table's edits need most of
them. A reply to every refused command (a spectator's /count, a /begin from a
non-admin, a bad argument) spent one of those calls each time, and the table edit
waited behind it. So a refusal goes:

- privately, when the bot may write to the person (their own chat, not the group's budget);
- else as a line under the table picture — it rides on the table's next edit, so it
  never goes ahead of one — at most once per person per hand;
- with no table at the chat, as a reply, at most once per person per ``COOL_DOWN``.

And the same refusal to the same person again within ``COOL_DOWN`` is not repeated.

What was given when is kept with the chat's table (``MEMORY`` in its adapter meta, in
wall-clock seconds; a cluster keeps a chat with no table under its own key), so a
restart does not let one more refusal into the group.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from telegram import User

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import ChatRef
from bot.table.cache import BoundedDict
from bot.table.outputs import Json

from ..bounded import CHATS
from .context import Context

COOL_DOWN = 60.0  # seconds before the same refusal is given to the same person again
MEMORY = "tg_refused"  # the chat's recent refusals, in its table's meta


def _short(text: str) -> str:
    """A refusal's text as kept: a short digest (the texts are long, the meta small)."""
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


@dataclass
class _Chat:
    """One chat's refusals still in force (wall-clock seconds)."""

    given: dict[tuple[str, str], float] = field(default_factory=dict)  # (user, text) -> when
    hand: dict[str, int] = field(default_factory=dict)  # user -> hand of the last line
    posted: dict[str, float] = field(default_factory=dict)  # user -> when (no table)

    def prune(self, now: float, hand_no: int | None = None) -> None:
        """Forget what no longer holds anything back (a chat's entries stay few)."""
        self.given = {k: at for k, at in self.given.items() if now - at < COOL_DOWN}
        self.posted = {k: at for k, at in self.posted.items() if now - at < COOL_DOWN}
        if hand_no is not None:
            self.hand = {k: n for k, n in self.hand.items() if n == hand_no}

    def stored(self) -> Json:
        given: list[Json] = [[uid, text, at] for (uid, text), at in self.given.items()]
        hand: list[Json] = [[uid, n] for uid, n in self.hand.items()]
        posted: list[Json] = [[uid, at] for uid, at in self.posted.items()]
        return {"given": given, "hand": hand, "posted": posted}

    @staticmethod
    def recalled(stored: object) -> _Chat:
        chat = _Chat()
        if not isinstance(stored, dict):
            return chat
        for row in _rows(stored.get("given"), 3):
            if isinstance(row[2], int | float):
                chat.given[(str(row[0]), str(row[1]))] = float(row[2])
        for row in _rows(stored.get("hand"), 2):
            if isinstance(row[1], int):
                chat.hand[str(row[0])] = row[1]
        for row in _rows(stored.get("posted"), 2):
            if isinstance(row[1], int | float):
                chat.posted[str(row[0])] = float(row[1])
        return chat


def _rows(value: object, width: int) -> list[list[object]]:
    if not isinstance(value, list):
        return []
    return [row for row in value if isinstance(row, list) and len(row) == width]


class Refusals:
    def __init__(self, ctx: Context, line: Callable[[ChatRef, str], None]) -> None:
        self.ctx = ctx
        self.line = line  # adds a line under the chat's table picture
        self.wall = ctx.sender.rules.wall  # what outlives the process: wall-clock seconds
        self._chats: BoundedDict[str, _Chat] = BoundedDict(CHATS)
        self._saving: set[asyncio.Task[None]] = set()

    def _chat(self, key: str) -> _Chat:
        """The chat's refusals; the first time this process meets it, what an earlier
        one gave there."""
        chat = self._chats.get(key)
        if chat is None:
            chat = self._chats[key] = _Chat.recalled(self.ctx.manager.remembered(key).get(MEMORY))
        return chat

    def fresh(self, chat: ChatRef, uid: str, text: str) -> bool:
        """Whether this answer was not given to this person within ``COOL_DOWN`` (and,
        if so, note it as given now)."""
        now, book = self.wall(), self._chat(chat.key)
        given = book.given.get((uid, _short(text)))
        if given is not None and now - given < COOL_DOWN:
            return False
        book.prune(now)
        book.given[(uid, _short(text))] = round(now, 3)
        self._save(chat.key, book)
        return True

    def refuse(self, chat: ChatRef, user: User, text: str, lang: Lang, reply_to: int) -> None:
        uid = str(user.id)
        if not self.fresh(chat, uid, text):
            return  # they have this answer already
        if self.ctx.reach.known(uid, chat.key):
            title = self.ctx.group_titles.get(int(chat.chat_id)) or t("tg_this_group", lang)
            self.ctx.tell(uid, t("tg_refused_in", lang, group=title, text=text))
            return
        book = self._chat(chat.key)
        snap = self.ctx.manager.snapshot(chat.key)
        if snap is not None:
            if book.hand.get(uid) == snap.hand_no:
                return  # once a hand in the group
            book.prune(self.wall(), snap.hand_no)
            book.hand[uid] = snap.hand_no
            self._save(chat.key, book)
            self.line(chat, f"{user.full_name} · {text}")
            return
        now = self.wall()
        posted = book.posted.get(uid)
        if posted is not None and now - posted < COOL_DOWN:
            return
        book.posted[uid] = round(now, 3)
        self._save(chat.key, book)
        self.ctx.say(chat, text, reply_to=reply_to)

    def _save(self, key: str, book: _Chat) -> None:
        """Keep the chat's refusals with its table, in the background (the answer does
        not wait for the write)."""
        task = asyncio.get_running_loop().create_task(
            self.ctx.manager.set_meta(key, MEMORY, book.stored())
        )
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)
