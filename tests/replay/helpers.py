"""Play whole matches with six AI seats through the table manager and a real store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.store import Store
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    OpenTable,
    Start,
    TableManager,
    TableStatus,
    apply_setting_changes,
)
from bot.table.model import GroupSettings

CHAT = ChatRef("test", "g1")
ADMIN = Actor("admin", "管理员", is_admin=True)


async def play_match(
    db: Path, seed: int, hands: int = 2, chat: ChatRef = CHAT, **settings: Any
) -> list[tuple[int, dict[str, Any]]]:
    """Play a match of ``hands`` hands; return the group's stored records (number, record)."""
    store = Store(db)
    await store.open()
    m = TableManager(store=store, clock=FakeClock(), seed_source=lambda: seed)
    await finish_match(m, hands, chat, **settings)
    out = await store.hands_from(chat.group_key, 1, 1000)
    await store.close()
    return out


async def finish_match(
    m: TableManager, hands: int = 2, chat: ChatRef = CHAT, **settings: Any
) -> None:
    """Six AI seats play a whole match at ``chat`` on the manager's (fake) clock."""
    clock = m.clock
    assert isinstance(clock, FakeClock)
    m.settings_cache[chat.group_key] = apply_setting_changes(
        GroupSettings(), {"match_hands": hands, **settings}
    )
    await m.handle(OpenTable(chat=chat, actor=ADMIN, sit=False))
    await m.handle(AddBots(chat=chat, actor=ADMIN, count=6))
    assert (await m.handle(Start(chat=chat, actor=ADMIN))).ok
    for _ in range(400):
        if m.tables[chat.key].status is TableStatus.FINISHED:
            break
        clock.advance(15)
        await m.poll_timers()
    assert m.tables[chat.key].status is TableStatus.FINISHED
