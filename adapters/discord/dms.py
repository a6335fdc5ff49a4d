"""Whose DMs are closed, remembered across restarts.

Discord refuses a DM to a member who closed them (code 50007). The sender then shows that
player's hand in an ephemeral view, mentions them when they must act, and tells the
channel once per hand. Kept only in memory, a restart forgot it: the bot tried the DM
again, was refused again, and told the channel a second time in the same hand. So each
table keeps, in its adapter meta, the hand in which each such player's DMs failed; a new
hand tries the DM again (they may have opened them), and the entry is dropped once a DM
goes through.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.table import TableManager
from bot.table.outputs import Json

CLOSED = "dc_dm_closed"  # the table's meta: {user id: the hand in which their DMs failed}


def closed_hands(meta: Mapping[str, Json]) -> dict[str, int]:
    """The stored {user: hand} map, ignoring anything malformed (the meta is a JSON row)."""
    raw = meta.get(CLOSED)
    if not isinstance(raw, dict):
        return {}
    return {u: h for u, h in raw.items() if isinstance(h, int) and not isinstance(h, bool)}


def closed_hand(manager: TableManager, key: str, user: str) -> int | None:
    """The hand in which this user's DMs failed at this table, as stored (or None)."""
    snap = manager.snapshot(key)
    return closed_hands(dict(snap.meta)).get(user) if snap is not None else None


async def remember(manager: TableManager, key: str, user: str, hand: int | None) -> None:
    """Store that the user's DMs failed during ``hand`` (None: a DM went through)."""
    snap = manager.snapshot(key)
    if snap is None:
        return
    stored = closed_hands(dict(snap.meta))
    if stored.get(user) == hand:
        return
    if hand is None:
        stored.pop(user, None)
    else:
        stored[user] = hand
    value: dict[str, Json] = dict(sorted(stored.items()))
    await manager.set_meta(key, CLOSED, value)
