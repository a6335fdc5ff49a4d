"""CPU per AI turn and per private view, on states from self-play (issue 13's hot path).

Run: ``python benchmarks/turns.py [--hands 12] [--rounds 5]``. Self-play hands of the three
presets dagang, qingdao and match (``normal`` at every seat, fixed seeds) give every state
at which a seat was asked to decide: big hands early, small late. Over those states it
times (a) the legal actions an AI turn starts from (``options``), (b)
``NormalPolicy.choose`` on the seat's view and that list, (c) the private snapshot a
table draws for a player after a press (legal actions, view and play menu), and (d) the
whole ``decide``. Each is timed on every state in the order of play, the memo of one
state emptied before each call (a bot meets each state once); ``--rounds`` passes, each
state's fastest kept (the machine is shared: a slower run measures the neighbours, not
the code). The last lines are ``<name> <value> <unit>``
figures: median and mean in µs, and the whole decision's p95 and max in ms.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay_states import Sample, hand_decisions
from bot.ai import hand, tracking
from bot.ai.base import decide, options
from bot.ai.normal import NormalPolicy
from bot.engine import game, make_rules, plays, views
from bot.engine.actions import burn_action, play_action
from bot.engine.state import HandState
from bot.engine.views import seat_view
from bot.table.core.views import private_snapshot
from bot.table.model import ChatRef, GroupSettings, SeatInfo
from bot.table.record import Table

PRESETS = ("dagang", "qingdao", "match")


def collect(hands: int) -> list[Sample]:
    """Every (state, seat) at which self-play asked a seat to decide."""
    return [
        sample
        for preset in PRESETS
        for seed in range(hands)
        for sample in hand_decisions(make_rules(preset), 9000 + seed, seed)
    ]


def table_at(state: HandState) -> Table:
    """A table of six people holding ``state`` (what the manager draws a private view from)."""
    t = Table(
        chat=ChatRef("bench", "group", "1"),
        creator="u1",
        settings=GroupSettings(preset=state.rules.preset),
        match_seed=1,
        seats=[SeatInfo(f"u{s}", f"p{s}") for s in range(1, 7)],
        rules=state.rules,
    )
    t.run.state = state
    return t


def forget_state() -> None:
    """Empty the memos kept per state (a new state after every action in play)."""
    game._memo.clear()
    views._views.clear()


def forget() -> None:
    """Empty every memo the engine and the AI keep, so a pass starts cold."""
    forget_state()
    tracking._played_last[0] = ((), (0,) * 6)
    for cached in (
        play_action,
        burn_action,
        plays._counts,
        hand.play_of_counts,
        hand._plays_needed,
    ):
        cached.cache_clear()


def one_pass(samples: list[Sample], work: Callable[[Sample], object]) -> list[float]:
    """``work`` on every sample in the order play met them, µs each: the memo of one
    state emptied before each (a bot meets each state once; the memos across states,
    such as the actions of each play, stay as in a process that has run a while)."""
    out = []
    for sample in samples:
        forget_state()
        t0 = time.thread_time_ns()  # CPU time: a shared machine's other work left out
        work(sample)
        out.append((time.thread_time_ns() - t0) / 1000)
    return out


def measure(samples: list[Sample], rounds: int) -> dict[str, list[float]]:
    """Per sample, the fastest of ``rounds`` passes of each measured piece of work."""
    policy = NormalPolicy()
    legal = {id(s): options(*s) for s in samples}
    seen = {id(s): seat_view(*s) for s in samples}
    tables = {id(s): table_at(s[0]) for s in samples}
    rng = random.Random(0)
    work: dict[str, Callable[[Sample], object]] = {
        "options": lambda s: options(*s),
        "choose": lambda s: policy.choose(seen[id(s)], legal[id(s)], rng),
        "private": lambda s: private_snapshot(tables[id(s)], s[1]),
        "decide": lambda s: decide(s[0], s[1], policy, rng),
    }
    out: dict[str, list[float]] = {}
    gc.collect()
    gc.disable()  # a collection lands on whichever call allocates at the time: not its cost
    for name, fn in work.items():
        forget()  # each piece of work starts cold, as a fresh process would
        runs = [one_pass(samples, fn) for _ in range(rounds)]
        out[name] = [min(times) for times in zip(*runs, strict=True)]
    gc.enable()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12, help="self-play hands per preset")
    ap.add_argument("--rounds", type=int, default=5, help="timed runs per state")
    args = ap.parse_args()
    samples = collect(args.hands)
    turns = [(st, seat) for st, seat in samples if st.to_act == seat]
    measure(samples[:200], 1)  # warm caches and the allocator
    figures = measure(samples, args.rounds)
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"{len(samples)} decisions ({len(turns)} turns) from {args.hands} hands x {PRESETS}")
    print(f"load average (1 min) after the run: {load}")
    names = {
        "options": "turn_options",
        "choose": "normal_choose",
        "private": "private_snapshot",
        "decide": "normal_decide",
    }
    for key, name in names.items():
        xs = figures[key]
        print(f"{name}_median {statistics.median(xs):.1f} us")
        print(f"{name}_mean {statistics.fmean(xs):.1f} us")
    # A table waits for the whole decision, the endgame search included (issue 35: p95
    # at most 20 ms): its tail, in ms.
    xs = sorted(figures["decide"])
    print(f"normal_decide_p95 {xs[min(len(xs) - 1, int(0.95 * len(xs)))] / 1000:.2f} ms")
    print(f"normal_decide_max {xs[-1] / 1000:.2f} ms")


if __name__ == "__main__":
    main()
