"""A whole hand played through Discord interactions, end to end."""

from __future__ import annotations

import logging

import pytest

from bot.engine.cards import fmt
from bot.table import TableStatus

from ..live import live
from .conftest import ADMIN, ALICE, BOB, CHAT, Harness
from .driver import find, play_until


async def test_a_hand_played_through_buttons(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    h = harness
    h.settings(match_hands=1, turn_seconds=0)
    h.fake.closed_dms.add(BOB.id)
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "join") or "")
    await h.press(BOB, table, find(table, "gj:t:", "join") or "")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "bot") or "")
    await h.press(ALICE, table, find(table, "gj:t:", "start") or "")
    t = live(h.manager, CHAT.key)
    hands = {seat: fmt(t.state.hands[seat - 1]) for seat in range(1, 7)}
    table = h.fake.table_message()
    assert "table.png" in table.files
    # Bob's DMs are closed: the channel is told, and the table's [我的牌] shows his hand.
    assert any(f"<@{BOB.id}>" in m.content for m in h.fake.channel_messages())
    await h.press(BOB, table, find(table, "gj:t:", "hand") or "")
    assert h.fake.last_private(BOB.id, "ephemeral") is not None
    presses = await play_until(h, [ADMIN, ALICE, BOB], {TableStatus.FINISHED})
    assert presses > 3
    channel = h.fake.channel_messages()
    assert any("result.png" in m.files for m in channel)
    assert any("比赛结束" in m.content for m in channel)

    # Bob played from his ephemeral view, Alice from her DMs.
    def sources(player_id: int) -> set[str]:
        tokens = [tok for tok in h.fake.tokens.values() if tok.user == player_id and tok.source]
        return {h.fake.messages[tok.source].place for tok in tokens if tok.source}

    assert sources(BOB.id) == {"channel", "ephemeral"}
    assert sources(ALICE.id) == {"channel", "dm"}
    # Hands only ever went privately: DMs to Alice and Admin, ephemeral to Bob.
    assert not [m for m in h.fake.messages.values() if m.place == "dm" and m.user == BOB.id]
    assert any(m.place == "dm" and "hand.png" in m.files for m in h.fake.private_messages(ALICE.id))
    for version in h.fake.public_versions():
        assert set(version["files"]) <= {"table.png", "result.png"}
        assert not [c for c in version["ids"] if c.startswith(("gj:a:", "gj:m:"))]
        for cards in hands.values():
            assert cards not in version["content"]
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            text = record.getMessage()
            assert "gj:a:" not in text and "gj:m:" not in text
            assert not any(cards in text for cards in hands.values())
