"""Data saved before rules v2 (the boolean ``tribute_return``) still loads, migrated.

RULES v2 replaced ``tribute_return: bool`` with ``luo | all | none``; v1 stored ``true`` for
"return every kind" and ``false`` for "no returns". Group settings, live table records and
finished hand records written by v1 must keep the group's choice, not drop it or fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.records.record import HandRecord
from bot.table import AddBots, GroupSettings, OpenTable, Start
from bot.table.record import table_from_json

from ..live import live
from .conftest import ADMIN, CHAT


@pytest.mark.parametrize(("stored", "migrated"), [(True, "all"), (False, "none")])
def test_stored_group_settings_keep_their_tribute_return(stored: bool, migrated: str) -> None:
    settings = GroupSettings.from_json(
        {"preset": "dagang", "overrides": {"tribute_return": stored, "rang": False}}
    )
    assert settings.rules().tribute_return == migrated
    assert settings.rules().rang is False  # the other switches are kept as they were


async def test_a_live_table_and_a_hand_record_saved_under_v1_load(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=3)
    assert (await m.handle(OpenTable(chat=CHAT, actor=ADMIN, sit=False))).ok
    await m.handle(AddBots(chat=CHAT, actor=ADMIN, count=6))
    assert (await m.handle(Start(chat=CHAT, actor=ADMIN))).ok
    t = live(m, CHAT.key)
    saved: dict[str, Any] = t.to_json()
    assert saved["rules"], "a dealt table saves its rules"
    saved["rules"] = {**saved["rules"], "tribute_return": False}  # as v1 wrote it
    saved["settings"] = {**saved["settings"], "overrides": {"tribute_return": True}}
    loaded = table_from_json(saved)
    assert loaded.rules is not None and loaded.rules.tribute_return == "none"
    assert loaded.settings.rules().tribute_return == "all"

    v1_record = {
        "format": 1,
        "match_id": 1,
        "hand_no": 0,
        "deal_no": 0,
        "seed": 5,
        "leader": 1,
        "owed": [],
        "preset": "dagang",
        "rules": {"preset": "dagang", "tribute_return": True},
        "names": ["a", "b", "c", "d", "e", "f"],
        "voided": False,
        "places": [1, 2, 3, 4, 5, 6],
        "team_scores": [0, 0],
        "sweep": None,
        "tributes": [],
        "actions": [],
        "final": None,
    }
    assert HandRecord.from_json(v1_record).rules.tribute_return == "all"
