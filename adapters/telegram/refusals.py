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
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import User

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.table import ChatRef
from bot.table.cache import BoundedDict

from ..bounded import USERS
from .context import Context

COOL_DOWN = 60.0  # seconds before the same refusal is given to the same person again


class Refusals:
    def __init__(self, ctx: Context, line: Callable[[ChatRef, str], None]) -> None:
        self.ctx = ctx
        self.line = line  # adds a line under the chat's table picture
        # (chat, user, text) -> when that refusal was last given.
        self._given: BoundedDict[tuple[str, str, str], float] = BoundedDict(USERS)
        # (chat, user) -> the hand of the last refusal shown in the group.
        self._in_hand: BoundedDict[tuple[str, str], int] = BoundedDict(USERS)
        # (chat, user) -> when a refusal was last posted in a group with no table.
        self._posted: BoundedDict[tuple[str, str], float] = BoundedDict(USERS)

    def fresh(self, chat: ChatRef, uid: str, text: str) -> bool:
        """Whether this answer was not given to this person within ``COOL_DOWN`` (and,
        if so, note it as given now)."""
        now = self.ctx.clock.now()
        given = self._given.get((chat.key, uid, text))
        if given is not None and now - given < COOL_DOWN:
            return False
        self._given[(chat.key, uid, text)] = now
        return True

    def refuse(self, chat: ChatRef, user: User, text: str, lang: Lang, reply_to: int) -> None:
        uid = str(user.id)
        if not self.fresh(chat, uid, text):
            return  # they have this answer already
        if self.ctx.reach.known(uid, chat.key):
            title = self.ctx.group_titles.get(int(chat.chat_id)) or t("tg_this_group", lang)
            self.ctx.tell(uid, t("tg_refused_in", lang, group=title, text=text))
            return
        snap = self.ctx.manager.snapshot(chat.key)
        if snap is not None:
            if self._in_hand.get((chat.key, uid)) == snap.hand_no:
                return  # once a hand in the group
            self._in_hand[(chat.key, uid)] = snap.hand_no
            self.line(chat, f"{user.full_name} · {text}")
            return
        now = self.ctx.clock.now()
        posted = self._posted.get((chat.key, uid))
        if posted is not None and now - posted < COOL_DOWN:
            return
        self._posted[(chat.key, uid)] = now
        self.ctx.say(chat, text, reply_to=reply_to)
