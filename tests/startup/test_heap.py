"""The collector and thread-switch settings of a serving process (bot.heap, bot.gil)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import heap


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_what_was_loaded_is_frozen_and_collections_come_rarely(restored: None) -> None:
    kept = [[i] for i in range(1000)]  # what a process loaded before serving
    heap.settle_heap()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (heap.YOUNG, heap.MIDDLE_AFTER, heap.OLD_AFTER)
    assert heap.YOUNG > 700 and heap.OLD_AFTER > 10  # CPython's defaults, for comparison


def test_cycles_are_still_collected(restored: None) -> None:
    heap.settle_heap()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: reference counting alone never frees it
    del a, b
    assert gc.collect() >= 2


def test_a_serving_process_asks_a_thinking_thread_to_yield_often() -> None:
    import ast
    import inspect
    import sys

    from bot import gil, service

    before = sys.getswitchinterval()
    try:
        gil.share_the_gil()
        assert sys.getswitchinterval() == pytest.approx(gil.SWITCH_SECONDS)
        assert before > gil.SWITCH_SECONDS  # longer: CPython's default 5 ms
    finally:
        sys.setswitchinterval(before)
    # bot.service serves with it (as it settles its heap): called in ``run_bots``.
    tree = ast.parse(inspect.getsource(service.run_bots))
    called = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert {"share_the_gil", "settle_heap"} <= called
