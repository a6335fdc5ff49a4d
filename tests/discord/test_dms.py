"""The stored memory of closed DMs (adapters/discord/dms.py): written, cleared, and
robust to a malformed row."""

from __future__ import annotations

from adapters.discord.dms import CLOSED, closed_hand, closed_hands, remember
from bot.table import Actor, FakeClock, OpenTable, TableManager

from .conftest import ADMIN, CHAT


async def test_a_failed_dm_is_stored_and_a_working_one_clears_it() -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 7)
    await manager.handle(OpenTable(chat=CHAT, actor=Actor(str(ADMIN.id), ADMIN.name, True)))
    assert closed_hand(manager, CHAT.key, "5") is None
    await remember(manager, CHAT.key, "5", 2)
    await remember(manager, CHAT.key, "6", 3)
    assert closed_hand(manager, CHAT.key, "5") == 2
    assert closed_hand(manager, CHAT.key, "6") == 3
    await remember(manager, CHAT.key, "5", None)  # a DM went through
    assert closed_hand(manager, CHAT.key, "5") is None
    assert closed_hand(manager, CHAT.key, "6") == 3
    assert closed_hand(manager, "dc:0:0", "6") is None  # no such table: nothing kept


def test_a_malformed_row_is_read_as_nothing_closed() -> None:
    assert closed_hands({}) == {}
    assert closed_hands({CLOSED: [1, 2]}) == {}
    assert closed_hands({CLOSED: {"5": "2", "6": True, "7": 4}}) == {"7": 4}
