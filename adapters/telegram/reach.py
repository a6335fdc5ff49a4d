"""Who the bot may write to privately, remembered across restarts.

Telegram lets a bot write to a user only once the user has opened it (and not blocked it
since). The bot learns it by writing: a hand posted, a greeting sent, a /start. Kept only
in memory, a restart forgot it, and [我的牌] then sent a player whose private chat works to
the start link. So each table keeps the players it could write to in its adapter meta
(``TableManager.set_meta``, stored with the table): written once per player and match,
read back after a restart.
"""

from __future__ import annotations

from bot.table import TableManager
from bot.table.outputs import Json

from ..bounded import USERS, BoundedSet

DM = "tg_dm"  # the table's meta: the user ids the bot could write to privately


class Reach:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.ok: BoundedSet[str] = BoundedSet(USERS)  # known to work (this process)
        self.blocked: BoundedSet[str] = BoundedSet(USERS)  # known to fail since

    def _stored(self, key: str) -> set[str]:
        snap = self.manager.snapshot(key)
        raw = dict(snap.meta).get(DM) if snap is not None else None
        return {u for u in raw if isinstance(u, str)} if isinstance(raw, list) else set()

    def known(self, user: str, key: str | None = None) -> bool:
        """Whether the bot may write to this user, as far as it knows (this process, or
        the table at ``key`` from before a restart)."""
        if user in self.ok:
            return True
        if key is None or user in self.blocked or user not in self._stored(key):
            return False
        self.ok.add(user)
        return True

    async def mark(self, user: str, works: bool, key: str | None = None) -> None:
        """What writing to this user just showed; kept with the table at ``key``."""
        if works:
            self.ok.add(user)
            self.blocked.discard(user)
        else:
            self.ok.discard(user)
            self.blocked.add(user)
        if key is None or self.manager.snapshot(key) is None:
            return
        stored = self._stored(key)
        if (user in stored) == works:
            return
        kept: list[Json] = [*sorted(stored | {user} if works else stored - {user})]
        await self.manager.set_meta(key, DM, kept)

    def forget(self, user: str) -> None:
        """Writing failed where no table is at hand (a plain private message)."""
        self.ok.discard(user)
        self.blocked.add(user)
