"""The Discord channel budget and turn pings, on fake time (no test waits real seconds)."""

from __future__ import annotations

import asyncio
import itertools

from adapters.discord.pacing import (
    CHANNEL_LIMIT,
    CHANNEL_WINDOW,
    EDIT_RESERVE,
    ChannelWriter,
    channel_rules,
)
from bot.table import Actor, AddBots, FakeClock, OpenTable, RemoveBot, TableManager, TableStatus

from .conftest import ADMIN, ALICE, BOB, CHAT, Harness, SteppingTiming, running_bot
from .driver import act_once, find
from .fake import FakeDiscord


def most_in_window(times: list[float], window: float = CHANNEL_WINDOW) -> int:
    times = sorted(times)
    return max(
        (sum(1 for x in times[i:] if x < at + window) for i, at in enumerate(times)), default=0
    )


class GatedTiming(SteppingTiming):
    """Fake time that passes only when the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        await self.gate.wait()
        await super().sleep(seconds)


async def test_posts_go_first_and_edits_coalesce_within_five_writes_per_five_seconds() -> None:
    timing = SteppingTiming()
    writer = ChannelWriter(1, channel_rules(timing), timing, edit_interval=2.0)
    log: list[tuple[float, str]] = []
    state = {"n": 0}

    def post(name: str):  # type: ignore[no-untyped-def]
        async def job() -> int:
            log.append((timing.now(), name))
            return 1

        return job

    async def edit() -> int:
        log.append((timing.now(), f"edit{state['n']}"))
        return 1

    for i in range(12):
        state["n"] = i
        writer.touch(edit)
        writer.post(post(f"answer{i}"))
    assert writer.task is not None
    await writer.task
    names = [name for _, name in log]
    answers = [n for n in names if n.startswith("answer")]
    assert answers == [f"answer{i}" for i in range(12)]  # in order, none lost
    assert names[-1] == "edit11"  # the last edit shows the latest state
    assert names.count("edit11") == 1 and len(names) - 12 <= 3  # 12 touches, few edits
    assert most_in_window([at for at, _ in log]) <= CHANNEL_LIMIT
    edits = [at for at, name in log if name.startswith("edit")]
    assert all(b - a >= 2.0 for a, b in itertools.pairwise(edits))
    assert most_in_window(edits) <= CHANNEL_LIMIT - EDIT_RESERVE


async def test_table_edits_are_coalesced_and_end_on_the_latest_state(fake: FakeDiscord) -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 7)
    timing = GatedTiming()
    async with running_bot(manager, table_interval=2.0, timing=timing) as bot:
        admin = Actor(str(ADMIN.id), ADMIN.name, is_admin=True)
        await manager.handle(OpenTable(chat=CHAT, actor=admin))
        await asyncio.sleep(0.05)
        table = fake.table_message()
        for _ in range(10):
            await manager.handle(AddBots(chat=CHAT, actor=admin, count=1))
            await manager.handle(RemoveBot(chat=CHAT, actor=admin))
        await manager.handle(AddBots(chat=CHAT, actor=admin, count=2))
        await asyncio.sleep(0.05)
        assert len(table.versions) == 1  # 21 changes, and the interval has not passed
        timing.gate.set()
        await bot.sender.drain()
        assert len(table.versions) == 2
        assert table.content.count("（电脑）") == 2 and table.content.count("（空）") == 3


async def test_a_player_without_dms_is_pinged_on_their_turn_and_the_ping_goes(
    harness: Harness,
) -> None:
    h = harness
    h.settings(match_hands=1, turn_seconds=0)
    h.fake.closed_dms.add(BOB.id)
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "join") or "")
    await h.press(BOB, table, find(table, "gj:t:", "join") or "")
    await h.press(ALICE, h.fake.table_message(), find(table, "gj:t:", "start") or "")
    table = h.fake.table_message()
    await h.press(BOB, table, find(table, "gj:t:", "hand") or "")
    pings_seen: set[int] = set()
    for _ in range(400):
        snap = h.manager.snapshot(CHAT.key)
        assert snap is not None
        if snap.status is TableStatus.FINISHED:
            break
        up = [m for m in h.fake.channel_messages() if "轮到你了" in m.content and not m.deleted]
        priv = h.manager.private_snapshot(CHAT.key, str(BOB.id))
        if priv is not None and priv.role is not None and priv.role != "burn":
            # Bob must act: exactly one live mention of him says so.
            assert len(up) == 1 and f"<@{BOB.id}>" in up[0].content, [m.content for m in up]
            pings_seen.add(up[0].id)
        else:
            assert not up, "the ping is deleted once Bob has moved"
        for player in (ADMIN, ALICE, BOB):
            if await act_once(h, player):
                break
        else:
            await h.tick(3.5)
    assert len(pings_seen) >= 2
    assert all(h.fake.messages[i].deleted for i in pings_seen)
    # Every write to the channel (table edits, pings, deletions, results) kept the budget.
    assert most_in_window(h.fake.channel_writes()) <= CHANNEL_LIMIT
