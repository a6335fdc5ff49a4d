"""The AI ladder: each level against the yardsticks and against each other, per preset.

Run: ``nice -n 10 python benchmarks/ai.py [--hands N] [--expert-hands N] [--quick]``.

A pairing plays matches of ``MATCH_HANDS`` hands (tributes, 还贡 and the next leader carry
over, as at a real table). Every match is played twice from the same first deal, once
with the tested team at seats 1-3-5 and once at 2-4-6. A hand is won by the team whose
finish places score more (4 2 0 0 −2 −4 per seat, before doubling or positive-only); a
tie counts half; voided hands (two revolts) are not counted. Intervals are 95% Wilson
intervals over hands. Decision times are CPU-bound wall times of every decision the
tested team's policy took (on a shared machine they include waiting for the core).

The expert stands for a table's expert with ``--search-processes`` search processes (the
bot's default: the cores, at most 2). With ``--workers 1`` it spreads its playouts over
them for real, so its decision times are a table's; with two matches at a time it
searches in its match's process with the same work and the clock times the processes —
the same decisions (``bot.ai.search_pool``), reported as ``expert_inprocess`` times.
``expert_default_budget`` always times decisions one at a time in real search processes.

Every figure is a ``<name> <value> <unit>`` line; ``<name>_lo``/``_hi`` give its interval.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.baselines import CarefulPolicy, GreedyPolicy
from benchmarks.lecture import LecturePolicy
from bot.ai import Policy, RandomPolicy, play_hand, policy_for, search_pool
from bot.ai.search_pool import SearchPool, search_processes
from bot.engine import Action, Tribute, make_rules, new_hand, next_leader
from bot.engine.state import HandState
from bot.engine.views import SeatView

PRESETS = ("dagang", "qingdao", "match")
MATCH_HANDS = 4
SEAT_POINTS = (4, 2, 0, 0, -2, -4)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, mid - half), min(1.0, mid + half))


class Timed:
    """Wraps a policy and records how long each decision took."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.times: list[float] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        t0 = time.perf_counter()
        choice = self.inner.choose(view, legal, rng)
        self.times.append(time.perf_counter() - t0)
        return choice

    def __getattr__(self, name: str) -> object:
        if name == "choose_searching":  # the expert: time its searching decisions too
            search = self.inner.choose_searching  # type: ignore[attr-defined]

            def timed(*args: object) -> Action | None:
                t0 = time.perf_counter()
                choice: Action | None = search(*args)
                self.times.append(time.perf_counter() - t0)
                return choice

            return timed
        return getattr(self.inner, name)


@dataclass(frozen=True)
class ExpertSetup:
    """How the ladder's expert searches.

    ``processes``: the search processes it stands for (the product's default: the cores,
    at most 2). ``spread``: whether it really spreads its playouts over them (a ladder of
    one match at a time); two matches at a time search in their own process instead, with
    the same work and the clock scaled to match — the same decisions, since a decision
    does not depend on how its deals were spread (``bot.ai.search_pool``)."""

    processes: int
    spread: bool
    work: int | None = None  # a budget of the run's own (``--expert-work``)
    seconds: float | None = None  # a clock of the run's own (``--expert-seconds``)


def make_policy(name: str, preset: str, setup: ExpertSetup) -> Policy:
    rules = make_rules(preset)
    if name == "greedy":
        return GreedyPolicy()
    if name == "careful":
        return CarefulPolicy()
    if name == "lecture":
        return LecturePolicy()
    if name == "random":
        return RandomPolicy()
    if name == "expert":
        from bot.ai.expert import (
            DEFAULT_SECONDS,
            EARLY_WORK_PER_PROCESS,
            WORK_PER_PROCESS,
            ExpertPolicy,
        )

        processes = max(1, setup.processes)
        work = setup.work or WORK_PER_PROCESS * processes
        # a budget of the run's own holds at every stage of the hand
        early = setup.work or EARLY_WORK_PER_PROCESS * processes
        if setup.spread:
            seconds = setup.seconds or DEFAULT_SECONDS
            pool = search_pool.configure(processes)
        else:
            seconds = setup.seconds or DEFAULT_SECONDS * processes
            pool = SearchPool(1)
        return ExpertPolicy(rules, work=work, max_seconds=seconds, pool=pool, early_work=early)
    return policy_for(name, rules)


@dataclass
class Tally:
    hands: int = 0
    wins: float = 0.0
    ties: int = 0
    margin: int = 0  # team score difference (the preset's own scoring)
    times: list[float] | None = None  # the tested team's decisions
    other_times: list[float] | None = None
    first: int = 0  # hands the tested team went out first (头科)
    tie_first: int = 0  # … and tied: 头科 and 大落 on one team
    tie_first_caught: int = 0  # … where the tested team's 大落 was caught (被闷)
    tie_first_unopened: int = 0  # … where it had not opened (打点)
    caught: int = 0  # the tested team's seats caught (被闷), all hands
    caught_other: int = 0  # the other team's
    unopened: int = 0  # the tested team's seats that never opened (打点 presets)
    unopened_other: int = 0

    def add(self, p: Tally) -> None:
        for f in (
            "hands", "wins", "ties", "margin", "first", "tie_first", "tie_first_caught",
            "tie_first_unopened", "caught", "caught_other", "unopened", "unopened_other",
        ):  # fmt: skip
            setattr(self, f, getattr(self, f) + getattr(p, f))
        self.times = (self.times or []) + (p.times or [])
        self.other_times = (self.other_times or []) + (p.other_times or [])


def _why(tally: Tally, state: HandState, mine: int, ours: Callable[[int], bool]) -> None:
    """Who went out first, who was caught (闷) or never opened, and what the ties were."""
    res = state.result
    assert res is not None
    caught = {c for c, _ in state.caught}
    tally.caught += sum(1 for c in caught if ours(c))
    tally.caught_other += sum(1 for c in caught if not ours(c))
    if state.rules.dadian:
        shut = [s for s in range(1, 7) if s not in state.opened and s not in state.revolters]
        tally.unopened += sum(1 for s in shut if ours(s))
        tally.unopened_other += sum(1 for s in shut if not ours(s))
    if not ours(res.places[0]):
        return
    tally.first += 1
    last = res.places[-1]
    if mine == 0 and ours(last):
        tally.tie_first += 1
        tally.tie_first_caught += int(last in caught)
        tally.tie_first_unopened += int(state.rules.dadian and last not in state.opened)


def _match(job: tuple[str, str, str, int, int, ExpertSetup]) -> Tally:
    """One match of MATCH_HANDS hands; ``side`` 0 puts the tested team at 1-3-5."""
    tested, other, preset, seed, side, setup = job
    rules = make_rules(preset)
    a = Timed(make_policy(tested, preset, setup))
    b = Timed(make_policy(other, preset, setup))
    policies: list[Policy] = [a if (s % 2 == 1) == (side == 0) else b for s in range(1, 7)]
    tally = Tally(times=a.times, other_times=b.times)
    owed: tuple[Tribute, ...] = ()
    leader: int | None = None
    for k in range(MATCH_HANDS):
        state, _ = new_hand(rules, seed * 100 + k, leader=leader, owed=owed)
        log = play_hand(state, policies, random.Random(seed * 7919 + k))
        res = log.state.result
        assert res is not None
        if res.voided:
            continue
        leader = next_leader(log.state)
        owed = res.tributes
        mine = sum(SEAT_POINTS[i] for i, s in enumerate(res.places) if (s % 2 == 1) == (side == 0))
        tally.hands += 1
        _why(tally, log.state, mine, lambda s: (s % 2 == 1) == (side == 0))
        if mine > 0:
            tally.wins += 1
        elif mine == 0:
            tally.wins += 0.5
            tally.ties += 1
        team = 0 if side == 0 else 1
        tally.margin += res.team_scores[team] - res.team_scores[1 - team]
    return tally


def pairing(
    tested: str,
    other: str,
    preset: str,
    hands: int,
    seed: int,
    workers: int,
    setup: ExpertSetup,
) -> Tally:
    matches = max(1, hands // (2 * MATCH_HANDS))
    jobs = [
        (tested, other, preset, seed + m, side, setup) for m in range(matches) for side in (0, 1)
    ]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(_match, jobs, chunksize=1)
    else:
        parts = [_match(j) for j in jobs]
    total = Tally(times=[], other_times=[])
    for p in parts:
        total.add(p)
    return total


def report(name: str, t: Tally) -> None:
    rate = t.wins / t.hands if t.hands else 0.0
    lo, hi = wilson(t.wins, t.hands)
    print(f"{name}_win_rate {rate:.3f} fraction")
    print(f"{name}_win_rate_lo {lo:.3f} fraction")
    print(f"{name}_win_rate_hi {hi:.3f} fraction")
    print(f"{name}_points {t.margin / max(t.hands, 1):+.2f} points/hand")
    print(f"{name}_hands {t.hands} hands")
    n = max(t.hands, 1)
    print(f"{name}_ties {t.ties / n:.3f} fraction")
    print(f"{name}_first_out {t.first / n:.3f} fraction")
    print(f"{name}_first_out_tied {t.tie_first / max(t.first, 1):.3f} fraction")
    if t.tie_first:
        print(f"{name}_tied_last_caught {t.tie_first_caught / t.tie_first:.3f} fraction")
        print(f"{name}_tied_last_unopened {t.tie_first_unopened / t.tie_first:.3f} fraction")
    print(f"{name}_caught {t.caught / n:.3f} seats/hand")
    print(f"{name}_caught_other {t.caught_other / n:.3f} seats/hand")
    if t.unopened or t.unopened_other:
        print(f"{name}_unopened {t.unopened / n:.3f} seats/hand")
        print(f"{name}_unopened_other {t.unopened_other / n:.3f} seats/hand")
    sys.stdout.flush()


def times_report(name: str, times: Sequence[float]) -> None:
    if not times:
        return
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{name}_decision_median {statistics.median(ordered) * 1000:.2f} ms")
    print(f"{name}_decision_p95 {p95 * 1000:.2f} ms")
    print(f"{name}_decision_max {ordered[-1] * 1000:.2f} ms")
    sys.stdout.flush()


def expert_budget_times(preset: str, decisions: int, seed: int, processes: int) -> list[float]:
    """Times of ``decisions`` expert decisions as a table's expert takes them (its default
    budget and clock, its playouts spread over ``processes``), from normal games, one at a
    time."""
    from bot.ai import decide
    from bot.ai.expert import ExpertPolicy
    from bot.engine import apply

    rules = make_rules(preset)
    expert = ExpertPolicy(rules, pool=search_pool.configure(processes))
    normal = policy_for("normal", rules)
    out: list[float] = []
    k = 0
    while len(out) < decisions:
        state, _ = new_hand(rules, seed * 1000 + k)
        k += 1
        rng = random.Random(k)
        for _ in range(120):
            seat = state.to_act
            if state.over or seat is None:
                break
            if rng.random() < 0.15 and len(out) < decisions:
                t0 = time.perf_counter()
                decide(state, seat, expert, random.Random(k))
                out.append(time.perf_counter() - t0)
            action = decide(state, seat, normal, rng)
            if action is None:
                break
            state, _ = apply(state, seat, action)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="hands per fast pairing")
    parser.add_argument("--expert-hands", type=int, default=48, help="hands for expert vs normal")
    parser.add_argument(
        "--expert-work",
        dest="expert_playouts",
        type=int,
        default=None,
        help="expert budget: playouts x cards left per decision (default: the level's own)",
    )
    parser.add_argument(
        "--expert-seconds",
        type=float,
        default=None,
        help="the expert's clock per decision (default: the level's own, times the search"
        " processes it stands for when it searches in its match's process)",
    )
    parser.add_argument("--quick", action="store_true", help="48 hands a pairing, 16 for expert")
    parser.add_argument(
        "--expert-timing", type=int, default=20, help="expert decisions timed per preset"
    )
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--pairs", default="greedy,careful,lecture,easy,expert")
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument(
        "--search-processes",
        type=int,
        default=search_processes(None),
        help="the expert's search processes (default: as the bot, the cores up to 2)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    hands, expert_hands = args.hands, args.expert_hands
    if args.quick:
        hands, expert_hands = 48, 16
    workers = max(1, min(2, args.workers))
    setup = ExpertSetup(
        args.search_processes,
        spread=workers == 1,
        work=args.expert_playouts,
        seconds=args.expert_seconds,
    )
    pairs = args.pairs.split(",")
    times: dict[str, list[float]] = {}
    for preset in args.presets.split(","):
        for other in pairs:
            t0 = time.perf_counter()
            if other == "expert":
                t = pairing(
                    "expert",
                    "normal",
                    preset,
                    expert_hands,
                    args.seed,
                    workers,
                    setup,
                )
                name = f"{preset}_expert_vs_normal"
                # Searching in its match's process for several, the expert takes longer
                # than at a table: those times are named for what they are.
                level = "expert" if setup.spread or setup.processes <= 1 else "expert_inprocess"
                times.setdefault(level, []).extend(t.times or [])
            else:
                t = pairing("normal", other, preset, hands, args.seed, workers, setup)
                name = f"{preset}_normal_vs_{other}"
                times.setdefault("normal", []).extend(t.times or [])
                if other == "easy":
                    times.setdefault("easy", []).extend(t.other_times or [])
            report(name, t)
            print(f"{name}_seconds {time.perf_counter() - t0:.1f} s")
    for level in ("easy", "normal", "expert", "expert_inprocess"):
        times_report(level, times.get(level, []))
    if args.expert_timing:
        budget: list[float] = []
        for preset in args.presets.split(","):
            budget += expert_budget_times(
                preset, args.expert_timing, args.seed, args.search_processes
            )
        times_report("expert_default_budget", budget)
    search_pool.shared().close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
