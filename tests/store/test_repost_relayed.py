"""``/gouji`` at a table posts it again at the bottom of the chat. With several workers
that post goes through the outbox like every group message: the chat's one sender makes
it, under its lease and within the group budget — not the worker that happened to take
the command (a second sender for the group, with its own count). Both back ends."""

from __future__ import annotations

import json

from tests.store.group_workers import say, table_on_first, until_photos
from tests.telegram.harness import GROUP_ID, USERS


async def test_a_repost_asked_on_another_worker_goes_through_the_outbox(store_target: str) -> None:
    async with table_on_first(store_target) as (fake, w1, w2):
        await say(w2, USERS[1], "/gouji")  # the table is there: post it again
        await until_photos([w1, w2], fake, 2)
        photos = [c for c in fake.sends_to(GROUP_ID) if c.method == "sendPhoto"]
        assert len(photos) == 2  # the table, then the same table at the bottom
        async with w1.store.transaction(readonly=True) as tx:
            rows = await tx.tx.fetch("SELECT payload, state FROM outbox ORDER BY id")
        reposts = [str(state) for payload, state in rows if "repost" in json.loads(payload)]
        assert reposts == ["sent"]  # queued, and sent by the chat's sender
