"""The adapters' bounded memory: least recently used entries leave first."""

from __future__ import annotations

from adapters.bounded import BoundedMap, BoundedSet


def test_a_bounded_set_keeps_its_most_recent_members() -> None:
    seen: BoundedSet[str] = BoundedSet(3)
    for user in ("a", "b", "c", "d"):
        seen.add(user)
    assert "a" not in seen and len(seen) == 3
    seen.add("b")  # used again: now the most recent
    seen.add("e")
    assert "c" not in seen and {"b", "d", "e"} == set(seen)
    seen.discard("d")
    seen.discard("zz")  # absent: nothing happens
    assert set(seen) == {"b", "e"}


def test_a_bounded_map_lists_values_without_growing() -> None:
    tables: BoundedMap[str, int] = BoundedMap(2)
    for i, key in enumerate(("x", "y", "z")):
        tables[key] = i
    assert tables.values() == [1, 2] and "x" not in tables
