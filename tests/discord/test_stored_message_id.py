"""The table message's id in a table's meta names its match: a worker of a cluster may
read the previous match's values back from the store (rows that outlive a table) before
a new match at the channel stored its own, and must not edit the old match's message."""

from __future__ import annotations

from adapters.discord.sender import stored_message_id


def test_an_id_of_this_match_is_used() -> None:
    assert stored_message_id({"id": 123, "match": 7}, 7) == 123


def test_an_id_of_another_match_is_none() -> None:
    assert stored_message_id({"id": 123, "match": 6}, 7) is None


def test_a_bare_id_stored_before_matches_were_kept_is_used() -> None:
    assert stored_message_id(123, 7) == 123
    assert stored_message_id("123", 7) == 123


def test_junk_is_none() -> None:
    for junk in (None, "x", {"id": "x", "match": 7}, {"match": 7}, [1], -5, True):
        assert stored_message_id(junk, 7) is None, junk
