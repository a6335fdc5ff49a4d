"""A lobby change (who sat down, bots added) shows as a line under the table picture,
not as a reply of its own. With several workers that line goes through the outbox like
every group message, so the chat's one sender edits the table message — not the worker
that took the command, which edited it itself: a second sender in the group whose call
the holder never counted (the cluster benchmark's 21 calls in a group's minute, during
setup: ``/addbot`` taken by a worker that did not hold the group). Both back ends."""

from __future__ import annotations

import json

from tests.store.group_workers import say, table_on_first
from tests.store.test_forum import tick
from tests.telegram.harness import GROUP_ID, USERS


async def test_a_lobby_line_from_another_worker_goes_through_the_outbox(store_target: str) -> None:
    async with table_on_first(store_target) as (fake, w1, w2):
        await say(w2, USERS[0], "/addbot 2")  # the other worker takes the command
        lines: list[tuple[str, str]] = []
        for second in range(60):  # the table edits are paced: until the line is out
            await tick([w1, w2], fake.clock, second % 2)
            async with w1.store.transaction(readonly=True) as tx:
                rows = await tx.tx.fetch("SELECT payload, state FROM outbox ORDER BY id")
            lines = [(json.loads(p)["line"], str(s)) for p, s in rows if "line" in json.loads(p)]
            if second >= 8 and lines and lines[0][1] == "sent":
                break
        assert [state for _, state in lines] == ["sent"]  # queued, and sent by the sender
        calls = fake.sends_to(GROUP_ID)
        assert len(calls) >= 2  # the table, and its edit showing the bots
        last = calls[-1].params  # a caption edit, or a new picture with its caption
        media = last.get("media")
        caption = media.get("caption", "") if isinstance(media, dict) else last.get("caption", "")
        assert lines[0][0] in caption
        # One worker made (and counted) every call in the group: its budget holds them all.
        counted = [len(w.bot.sender.budget.recent(GROUP_ID)) for w in (w1, w2)]
        assert max(counted) == len(calls)
