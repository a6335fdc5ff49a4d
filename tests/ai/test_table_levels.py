"""The group setting ``ai_level``: validated, stored, and the level each table's AI plays."""

from __future__ import annotations

import pytest

from bot.ai import HeuristicPolicy, NormalPolicy
from bot.ai.expert import ExpertPolicy
from bot.engine.errors import GoujiError
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    OpenTable,
    Start,
    TableManager,
    TableStatus,
    apply_setting_changes,
)

CHAT = ChatRef("test", "levels")
ME = Actor("admin", "管理员", is_admin=True)


def test_ai_level_is_a_validated_stored_setting() -> None:
    assert GroupSettings().ai_level == "normal"
    s = apply_setting_changes(GroupSettings(), {"ai_level": "expert"})
    assert s.ai_level == "expert"
    assert GroupSettings.from_json(s.to_json()).ai_level == "expert"
    with pytest.raises(GoujiError):
        apply_setting_changes(GroupSettings(), {"ai_level": "grandmaster"})
    # A stored value that is no longer a level falls back to the default.
    assert GroupSettings.from_json({"ai_level": "godlike"}).ai_level == "normal"


async def _open(m: TableManager, **changes: object) -> None:
    s = apply_setting_changes(GroupSettings(), {"match_hands": 1, "turn_seconds": 0, **changes})
    m.settings_cache[CHAT.group_key] = s
    await m.handle(OpenTable(chat=CHAT, actor=ME, sit=False))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=6))


@pytest.mark.parametrize(
    ("level", "kind"),
    [("easy", HeuristicPolicy), ("normal", NormalPolicy), ("expert", ExpertPolicy)],
)
async def test_each_table_plays_its_groups_level(level: str, kind: type) -> None:
    m = TableManager(clock=FakeClock(), seed_source=lambda: 5)
    await _open(m, ai_level=level)
    assert isinstance(m.policy_of(m.tables[CHAT.key]), kind)


async def test_a_searching_level_decides_off_the_loop_and_finishes_the_hand() -> None:
    clock = FakeClock()
    # A searching policy with too small a budget to search: the thread path, quickly.
    m = TableManager(clock=clock, seed_source=lambda: 5, policy=ExpertPolicy(playouts=1))
    await _open(m)
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    t = m.tables[CHAT.key]
    assert t.status is TableStatus.PLAYING
    for _ in range(400):
        if t.status is not TableStatus.PLAYING:
            break
        await m.settle()
        clock.advance(4)
        await m.poll_timers()
    assert t.status is not TableStatus.PLAYING
    assert t.match.hand_no >= 1 or t.last_result is not None
    assert t.thinking == -1
