"""A 429's pause outlives the process: it is kept with the group's table (the lane's
``PauseMemory``), so a bot restarted in the middle of Telegram's pause makes no call
to the group before it has passed — one more would lengthen the mute."""

from __future__ import annotations

from pathlib import Path

from .fakeapi import too_many
from .harness import GROUP_ID, USERS, Harness

wang, li = USERS[0], USERS[1]
PAUSE = 30


async def test_a_restart_in_a_flood_pause_keeps_the_group_quiet(tmp_path: Path) -> None:
    h = await Harness(tmp_path).open()
    h.fake.opened.update({wang["id"], li["id"]})
    await h.say(wang, "/gouji")
    await h.drain()
    h.fake.fail("editMessageMedia", too_many(PAUSE), GROUP_ID)
    await h.say(li, "/join")
    for _ in range(4):  # the table edit is due and refused
        await h.tick(1.0)
    refused = [c for c in h.fake.calls if c.method == "editMessageMedia"]
    assert refused, "the edit was tried"
    flooded_at = refused[-1].at
    await h.restart()
    calls_then = len(h.fake.sends_to(GROUP_ID))
    await h.say(wang, "/addbot 2")
    for _ in range(PAUSE + 5):
        await h.tick(1.0)
    after = h.fake.sends_to(GROUP_ID)[calls_then:]
    assert after, "the group hears from the bot once the pause is over"
    assert min(c.at for c in after) >= flooded_at + PAUSE
    assert "4/6" in (h.table_message().caption or "")
    await h.close()
