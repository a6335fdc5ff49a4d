"""The expert's search processes: the same decision for any number of processes."""

from __future__ import annotations

import math
import os
import random
import signal
import time
from pathlib import Path

import pytest

from bot.ai import decide, options
from bot.ai.base import masked_state
from bot.ai.deal import hand_sizes
from bot.ai.expert import MIN_DEALS, WORK_PER_PROCESS, ExpertPolicy
from bot.ai.playouts import Batch
from bot.ai.search_pool import (
    MAX_BROKEN,
    MAX_PROCESSES,
    SearchPool,
    SearchProcessesError,
    search_processes,
    split,
)
from bot.engine.state import HandState
from bot.engine.views import seat_view

from ..children import assert_children_leave_with_a_killed_parent
from .helpers import mid_hand

SLOW = 600.0  # the clock out of the way: these tests compare work, not time


@pytest.fixture(autouse=True)
def _whole_races(monkeypatch: pytest.MonkeyPatch) -> None:
    """No race ends on a clear leader (margin -10 would let any gain lead): these tests
    count the deals of a whole race."""
    monkeypatch.setattr("bot.ai.expert.LEAD_Z", math.inf)


def _search(state: HandState, pool: SearchPool, work: int = 12_000) -> list[list[float]]:
    seat = state.to_act
    assert seat is not None
    expert = ExpertPolicy(state.rules, work=work, margin=-10.0, max_seconds=SLOW, pool=pool)
    view = seat_view(state, seat)
    legal = options(state, seat)
    cands = expert.candidates(view, legal, expert.normal.choose(view, legal, random.Random(0)))
    assert len(cands) >= 2
    return expert.evaluate(view, masked_state(state, seat), cands, 11)


def test_split_keeps_the_deals_in_order_and_shares_them_evenly() -> None:
    job = Batch(None, None, (), (), (), (), 0, 12, 7, (), 0.0)  # type: ignore[arg-type]
    parts = split(job, 2)
    assert [(p.first, p.deals) for p in parts] == [(12, 4), (16, 3)]
    assert [(p.first, p.deals) for p in split(job, 3)] == [(12, 3), (15, 2), (17, 2)]
    assert [(p.first, p.deals) for p in split(job._replace(deals=1), 4)] == [(12, 1)]


def test_two_processes_find_exactly_what_one_finds() -> None:
    state = mid_hand()
    alone = _search(state, SearchPool(1))
    pool = SearchPool(2)
    try:
        spread = _search(state, pool)
    finally:
        pool.close()
    assert spread == alone
    cards = sum(hand_sizes(seat_view(state, state.to_act or 1)))
    assert len(alone[0]) > MIN_DEALS  # several batches, each split over the processes
    assert len(alone[0]) == ExpertPolicy(work=12_000).deals(cards, len(alone))


def test_the_budget_grows_with_the_search_processes() -> None:
    assert ExpertPolicy(pool=SearchPool(1)).budget() == WORK_PER_PROCESS
    assert ExpertPolicy(pool=SearchPool(0)).budget() == WORK_PER_PROCESS
    assert ExpertPolicy(pool=SearchPool(2)).budget() == 2 * WORK_PER_PROCESS
    assert ExpertPolicy(work=500, pool=SearchPool(2)).budget() == 500


def test_a_search_process_that_died_is_replaced_and_the_batch_still_played() -> None:
    state = mid_hand()
    alone = _search(state, SearchPool(1))
    pool = SearchPool(2)
    try:
        pool.start()
        executor = pool._pool
        assert executor is not None
        victim = next(iter(executor._processes))
        os.kill(victim, signal.SIGKILL)
        time.sleep(0.3)
        assert _search(state, pool) == alone  # that batch here, the next ones elsewhere
        assert pool._pool is not None and pool._pool is not executor
    finally:
        pool.close()


def test_out_of_time_the_search_keeps_only_whole_deals_in_order() -> None:
    state = mid_hand()
    seat = state.to_act
    assert seat is not None
    pool = SearchPool(2)
    try:
        expert = ExpertPolicy(state.rules, work=3000, margin=-10.0, max_seconds=0.0, pool=pool)
        view = seat_view(state, seat)
        legal = options(state, seat)
        base = expert.normal.choose(view, legal, random.Random(0))
        cands = expert.candidates(view, legal, base)
        scores = expert.evaluate(view, masked_state(state, seat), cands, 11)
        assert scores == [[]] * len(cands)
        assert expert.pick(scores) == 0  # no deal finished: normal's choice
        assert decide(state, seat, expert, random.Random(3)) in legal
    finally:
        pool.close()


def test_the_setting_defaults_to_the_cores_up_to_two_and_refuses_nonsense() -> None:
    default = search_processes(None)
    assert 1 <= default <= 2
    assert search_processes("  ") == default
    assert search_processes("0") == 0
    assert search_processes(f" {MAX_PROCESSES} ") == MAX_PROCESSES
    for bad in ("-1", "two", "1.5", str(MAX_PROCESSES + 1)):
        with pytest.raises(SearchProcessesError, match="GOUJI_SEARCH_PROCESSES"):
            search_processes(bad)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_the_search_processes_leave_with_a_sigkilled_worker(tmp_path: Path) -> None:
    main = """
        import time
        from bot.ai.search_pool import SearchPool

        pool = SearchPool(2)
        pool.start()
        print(*pool._pool._processes, flush=True)
        time.sleep(60)
    """
    assert_children_leave_with_a_killed_parent(tmp_path, main)


def test_the_gouji_command_sets_the_search_processes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot import __main__ as cli
    from bot.ai import search_pool

    seen: list[int] = []

    def watch(_: object) -> int:
        seen.append(search_pool.shared().processes)
        return 0

    front = cli.FrontEnds(console=watch, watch=watch, records=lambda _: 0, build_bots=lambda *_: [])
    try:
        monkeypatch.setenv("GOUJI_SEARCH_PROCESSES", "2")
        assert cli.main(["--watch", "--ai", "expert"], front) == 0
        monkeypatch.delenv("GOUJI_SEARCH_PROCESSES")
        assert cli.main(["--watch"], front) == 0
        assert seen == [2, search_processes(None)]
        monkeypatch.setenv("GOUJI_SEARCH_PROCESSES", "lots")
        assert cli.main(["--watch"], front) == 1
        err = capsys.readouterr().err
        assert err.startswith("gouji: GOUJI_SEARCH_PROCESSES must be") and err.count("\n") == 1
        assert len(seen) == 2  # nothing started
    finally:
        search_pool.configure(1)
    assert search_pool.shared().processes == 1


def test_search_processes_that_keep_dying_leave_the_search_to_this_process(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = mid_hand()
    alone = _search(state, SearchPool(1), work=3000)
    pool = SearchPool(2)
    try:
        for broken in range(1, MAX_BROKEN + 1):
            pool.start()
            assert pool._pool is not None
            for pid in pool._pool._processes:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.2)
            # every batch is still played, here
            assert _search(state, pool, work=3000) == alone
            assert pool.processes == (2 if broken < MAX_BROKEN else 1)
        assert pool._pool is None
        assert "searching in this process instead" in caplog.text
        # from now on it searches here, with one process's budget
        assert ExpertPolicy(pool=pool).budget() == WORK_PER_PROCESS
    finally:
        pool.close()
