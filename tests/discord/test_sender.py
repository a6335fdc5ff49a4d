"""The outgoing side: coalesced table edits, lost messages, DMs, warnings, real images."""

from __future__ import annotations

import pytest

from bot.table import AddBots, FakeClock, OpenTable, Start, TableManager, TableStatus

from ..live import live
from .conftest import ADMIN, ALICE, CHAT, Harness, running_bot
from .driver import find, play_until
from .fake import FakeDiscord

PNG = b"\x89PNG\r\n\x1a\n"


def admin():  # type: ignore[no-untyped-def]
    from bot.table import Actor

    return Actor(str(ADMIN.id), ADMIN.name, is_admin=True)


async def test_a_deleted_table_message_is_posted_again(harness: Harness) -> None:
    h = harness
    await h.slash(ADMIN, "new")
    first = h.fake.table_message()
    first.deleted = True
    await h.slash(ALICE, "join")
    second = h.fake.table_message()
    assert second.id != first.id and "阿丽" in second.content


async def test_turn_warnings_go_by_dm_or_as_a_mention(harness: Harness) -> None:
    h = harness
    h.settings(turn_seconds=30, match_hands=1)
    h.fake.closed_dms.add(ALICE.id)
    await h.slash(ADMIN, "new")
    await h.slash(ALICE, "join")
    await h.slash(ADMIN, "start")
    warned: set[int] = set()
    for _ in range(300):
        t = live(h.manager, CHAT.key)
        st = t.state
        assert st is not None
        who = st.to_act
        if t.deadline is not None and t.deadline.is_turn and who in (1, 2) and who not in warned:
            await h.tick(21)  # ten seconds left: the warning
            warned.add(who)
            if warned == {1, 2}:
                break
            await h.tick(10)  # time out: autoplay takes the seat
            continue
        await h.tick(3.5)
    assert warned == {1, 2}
    assert any("快到时间了" in text for text in h.fake.texts_to(ADMIN.id))
    assert any(
        f"<@{ALICE.id}>" in m.content and "快到时间了" in m.content
        for m in h.fake.channel_messages()
    )


@pytest.mark.real_images
async def test_real_images_for_the_table_and_the_result(fake: FakeDiscord) -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 7)
    async with running_bot(manager) as bot:
        await manager.handle(OpenTable(chat=CHAT, actor=admin(), sit=False))
        await manager.handle(AddBots(chat=CHAT, actor=admin(), count=6))
        await manager.handle(Start(chat=CHAT, actor=admin()))
        await bot.sender.drain()
    (result,) = fake.attachments("result.png")
    assert result.startswith(PNG)
    assert fake.attachments("table.png")[-1].startswith(PNG)


@pytest.mark.real_images
async def test_a_real_hand_image_by_dm(harness: Harness) -> None:
    h = harness
    await h.slash(ADMIN, "new")
    await h.slash(ADMIN, "start")
    hands = h.fake.attachments("hand.png")
    assert hands and hands[0].startswith(PNG)
    dm = h.fake.last_private(ADMIN.id, "dm")
    assert dm is not None and "hand.png" in dm.files
    assert find(dm, "gj:a:", "auto1") is not None


async def test_a_finished_table_leaves_the_senders_memory(harness: Harness) -> None:
    h = harness
    h.settings(match_hands=1, turn_seconds=0)
    await h.slash(ADMIN, "new")
    await h.slash(ALICE, "join")
    await h.slash(ADMIN, "start")
    assert CHAT.key in h.bot.sender.tables
    assert (CHAT.key, str(ALICE.id)) in h.bot.sender.privates
    await play_until(h, [ADMIN, ALICE], {TableStatus.FINISHED})
    await h.bot.sender.drain()
    assert any("比赛结束" in m.content for m in h.fake.channel_messages())
    assert CHAT.key not in h.bot.sender.tables
    assert not [pair for pair in h.bot.sender.privates if pair[0] == CHAT.key]
