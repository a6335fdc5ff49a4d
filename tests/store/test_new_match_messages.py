"""A new match at a chat gets table and hand messages of its own, as on one process —
also when another worker sends them. The adapters' values (message ids) are rows that
outlive a table, so a worker reading them back before the new match stored its own
got the previous match's: it edited the old match's table message instead of posting
one (a stored message ref now names its match). Both back ends."""

from __future__ import annotations

from adapters.telegram.book import MessageRef
from tests.store.group_workers import say, table_on_first, until_photos
from tests.telegram.harness import GROUP_ID, USERS


async def test_a_new_match_opened_on_another_worker_posts_its_own_table_message(
    store_target: str,
) -> None:
    async with table_on_first(store_target) as (fake, w1, w2):
        workers = [w1, w2]
        await say(w1, USERS[0], "/stop")
        await until_photos(workers, fake, 1)
        first = [c.method for c in fake.sends_to(GROUP_ID)]
        assert first.count("sendPhoto") == 1  # the first match's table message
        old = next(m.message_id for m in fake.in_chat(GROUP_ID) if m.photo is not None)
        w2.manager.seed_source = lambda: 8  # each match draws its own seed
        await say(w2, USERS[1], "/gouji")  # a new match, on the other worker
        await until_photos(workers, fake, 2)
        later = fake.sends_to(GROUP_ID)[len(first) :]
        assert [c.method for c in later].count("sendPhoto") == 1  # its own message
        edited = [c.params.get("message_id") for c in later if c.method.startswith("edit")]
        assert old not in edited  # the old match's is left alone


def test_a_stored_ref_names_its_match_and_reads_back_without_one() -> None:
    ref = MessageRef(-5, 9, 2, match=77)
    assert MessageRef.from_json(ref.to_json()) == MessageRef(-5, 9, 2, match=77)
    legacy = {"chat": -5, "message": 9, "hand": 2}  # stored before refs named matches
    assert MessageRef.from_json(legacy) == MessageRef(-5, 9, 2)
    assert MessageRef.from_json({"chat": -5, "message": 9, "hand": 2, "match": "x"}) is None
    assert MessageRef.from_json("junk") is None
