"""What a group would feel after a restart is kept with its table: a 429's pause (the
lane's ``PauseMemory``: a bot restarted inside Telegram's pause makes no call to the
group before it has passed — one more would lengthen the mute) and the refusals already
shown (adapters/telegram/refusals.py: asking again costs the group no call)."""

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


async def test_a_restart_lets_no_repeated_refusal_into_the_group(tmp_path: Path) -> None:
    """A spectator's refused command shows once a hand under the table; what was shown is
    kept with the table, so asking again after a restart costs the group no call."""
    stranger = USERS[2]  # has not opened the bot: the refusal goes to the group
    h = await Harness(tmp_path).open()
    h.fake.opened.update({wang["id"], li["id"]})
    await h.say(wang, "/gouji")
    await h.drain()
    before = len(h.fake.sends_to(GROUP_ID))
    await h.say(stranger, "/leave")
    await h.drain()
    assert len(h.fake.sends_to(GROUP_ID)) == before + 1  # a line under the table
    assert stranger["first_name"] in (h.table_message().caption or "")
    await h.restart()
    await h.drain()
    settled = len(h.fake.sends_to(GROUP_ID))
    await h.say(stranger, "/leave")
    await h.drain()
    assert len(h.fake.sends_to(GROUP_ID)) == settled
    await h.close()
