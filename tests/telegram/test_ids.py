"""Short table ids on a worker that never saw the table's outputs: with several workers a
button reaches any of them, and a worker started mid-hand knows no ids at all."""

from __future__ import annotations

from pathlib import Path

from adapters.telegram.ids import TableIds, short_id

from .harness import USERS, Harness


async def test_an_id_made_elsewhere_is_found_among_the_live_tables(tmp_path: Path) -> None:
    h = await Harness(tmp_path, seed=5).open()
    try:
        wang = USERS[0]
        h.fake.opened.add(wang["id"])
        await h.say(wang, "/gouji")
        await h.say(wang, "/addbot 5")
        await h.say(wang, "/begin")
        await h.drain()
        snap = h.manager.snapshot(h.key)
        assert snap is not None
        tid = short_id(h.key, snap.match_id)

        fresh = TableIds(h.manager)  # heard no output of this table
        seeds_asked = 0
        ask = h.manager.match_seeds

        def counted(prefix: str) -> dict[str, int]:
            nonlocal seeds_asked
            seeds_asked += 1
            return ask(prefix)

        h.manager.match_seeds = counted  # type: ignore[method-assign]
        assert await fresh.resolve(tid) == h.key
        assert await fresh.resolve(tid) == h.key
        assert seeds_asked == 1  # found once, then remembered
        assert await fresh.resolve(short_id(h.key, snap.match_id + 1)) is None  # another match
        assert await fresh.resolve("aaaaaaaa") is None
    finally:
        await h.close()
