"""Which Telegram message shows what: each table's message, each player's hand message.

The ids are kept in the table's adapter meta (``TableManager.set_meta``), which the
manager stores with the table, so after a restart the bot edits the same messages
instead of posting new ones. A new match at the same chat starts with empty meta, so it
gets new messages — and a stored ref names its match, so a cluster's worker that reads
the previous match's ids back from the store (rows that outlive a table) before the new
match stored its own does not take them for the new match's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from bot.table import TableManager
from bot.table.cache import BoundedDict
from bot.table.outputs import Json

from ..bounded import CHATS, USERS

TABLE = "tg_table"
HANDS = "tg_hands"


@dataclass
class MessageRef:
    chat_id: int
    message_id: int
    hand_no: int = 0
    # What the message shows now (in memory only: after a restart the first update
    # re-sends the picture, which is harmless).
    image: Hashable | None = None
    caption: str | None = None
    markup: Hashable | None = None
    # The match it shows (``TableSnapshot.match_id``; None: stored before it was kept).
    match: int | None = None

    def to_json(self) -> dict[str, Json]:
        ref: dict[str, Json] = {
            "chat": self.chat_id,
            "message": self.message_id,
            "hand": self.hand_no,
        }
        if self.match is not None:
            ref["match"] = self.match
        return ref

    @staticmethod
    def from_json(obj: Any) -> MessageRef | None:
        try:
            match = obj.get("match")
            return MessageRef(
                int(obj["chat"]),
                int(obj["message"]),
                int(obj["hand"]),
                match=None if match is None else int(match),
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            return None


class MessageBook:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        # A cache of the refs in the tables' meta (which stays the truth), bounded.
        self._tables: BoundedDict[str, MessageRef] = BoundedDict(CHATS)
        self._hands: BoundedDict[tuple[str, str], MessageRef] = BoundedDict(USERS)

    def _meta(self, key: str) -> dict[str, Any]:
        snap = self.manager.snapshot(key)
        return dict(snap.meta) if snap is not None else {}

    def _stored(self, key: str, pick: Callable[[dict[str, Any]], Any]) -> MessageRef | None:
        """The ref ``pick`` finds in the table's values, unless it shows another match at
        this chat: a worker of a cluster may read the previous match's values back from
        the store before the new match has stored its own (they are rows that outlive a
        table), and a new match gets messages of its own. (One snapshot for both: this
        runs before every table and hand message update.)"""
        snap = self.manager.snapshot(key)
        if snap is None:
            return None
        ref = MessageRef.from_json(pick(dict(snap.meta)))
        if ref is None or ref.match is None or ref.match == snap.match_id:
            return ref
        return None

    def table(self, key: str) -> MessageRef | None:
        ref = self._tables.get(key)
        stored = self._stored(key, lambda meta: meta.get(TABLE))
        if stored is None:
            self._tables.pop(key)  # a new match: its own message
            return None
        if ref is None or (ref.message_id, ref.match) != (stored.message_id, stored.match):
            ref = self._tables[key] = stored
        return ref

    def hand(self, key: str, user: str) -> MessageRef | None:
        ref = self._hands.get((key, user))
        stored = self._stored(key, lambda meta: meta.get(HANDS, {}).get(user))
        if stored is None:
            self._hands.pop((key, user))
            return None
        if ref is None or (ref.message_id, ref.match) != (stored.message_id, stored.match):
            ref = self._hands[(key, user)] = stored
        return ref

    async def set_table(self, key: str, ref: MessageRef | None) -> None:
        if ref is None:
            self._tables.pop(key)
        else:
            self._tables[key] = ref
        await self.manager.set_meta(key, TABLE, ref.to_json() if ref else None)

    async def set_hand(self, key: str, user: str, ref: MessageRef | None) -> None:
        hands = dict(self._meta(key).get(HANDS, {}))
        if ref is None:
            self._hands.pop((key, user))
            hands.pop(user, None)
        else:
            self._hands[(key, user)] = ref
            hands[user] = ref.to_json()
        await self.manager.set_meta(key, HANDS, hands)
