"""How long one person waits on five ``expert`` seats: the wall time of an AI round.

Run: ``nice -n 19 python benchmarks/rounds.py [--hands 2] [--presets qingdao]``. One seat
(seat 1, "the person") plays ``normal``'s choices; the other five are the table's expert
(its default budget and clock, its playouts in ``--search-processes`` search processes, as
the bot runs it). A round is the wall time from the person's play to the person's next
turn (or the end of the hand; once the person is out nobody waits): every AI decision in
between, the expert's searches at the five seats' turns and ``normal`` in the burn windows
(as a table asks them, ``without_search``).

The figure is ``expert_round_ms_p95`` (with median and max). Only rounds in which at least
one expert seat searched count. A table that searched during the person's own thinking
time ("think while humans think") would shorten the round by what it had found already;
the shipped expert does not, so the round is the same with or without a person's thinking
time before it, and the benchmark prints one figure. On a shared machine the searches
are cut by their 1.2 s clock more often: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import play_hand, search_pool
from bot.ai.base import Policy
from bot.ai.expert import ExpertPolicy
from bot.ai.levels import without_search
from bot.ai.normal import NormalPolicy
from bot.ai.search_pool import search_processes
from bot.engine import Action, ActionKind, make_rules, new_hand
from bot.engine.state import HandState
from bot.engine.views import SeatView

PERSON = 1


class Clocked:
    """A round's stopwatch: the person's seat starts it, every AI decision ends in it."""

    def __init__(self) -> None:
        self.rounds: list[float] = []
        self.started: float | None = None
        self.searched = False

    def person_acts(self) -> None:
        """The person is asked again: the round since its last play is over."""
        if self.started is not None and self.searched:
            self.rounds.append(time.perf_counter() - self.started)
        self.started = None
        self.searched = False


class Person:
    def __init__(self, clock: Clocked) -> None:
        self.clock = clock
        self.inner = NormalPolicy()

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if view.public.to_act == view.seat:
            self.clock.person_acts()
        choice = self.inner.choose(view, legal, rng)
        out = choice is not None and sum(choice.cards or ()) == sum(view.hand)
        if view.public.to_act == view.seat and not out:
            self.clock.started = time.perf_counter()  # the play goes in now
        return choice


class TableExpert:
    """The expert as a table asks it: searching at its turns, ``without_search`` else."""

    def __init__(self, expert: ExpertPolicy, clock: Clocked) -> None:
        self.expert = expert
        self.clock = clock

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.expert.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if view.public.to_act != view.seat or any(a.kind is ActionKind.BURN for a in legal):
            return without_search(self.expert).choose(view, legal, rng)
        self.clock.searched = True
        return self.expert.choose_searching(view, public, legal, rng)


def rounds(preset: str, hands: int, processes: int) -> list[float]:
    rules = make_rules(preset)
    clock = Clocked()
    expert = ExpertPolicy(rules, pool=search_pool.configure(processes))
    seats: list[Policy] = [Person(clock)] + [TableExpert(expert, clock) for _ in range(5)]
    for k in range(hands):
        state, _ = new_hand(rules, 7100 + k)
        play_hand(state, seats, random.Random(k))
        clock.person_acts()  # the hand's end closes the last round
    return clock.rounds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2, help="hands per preset")
    ap.add_argument("--presets", default="qingdao")
    ap.add_argument("--search-processes", type=int, default=search_processes(None))
    args = ap.parse_args()
    times: list[float] = []
    for preset in args.presets.split(","):
        times += rounds(preset, args.hands, args.search_processes)
    search_pool.shared().close()
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{len(ordered)} rounds of five expert seats; load average (1 min) after: {load}")
    print(f"expert_round_ms_median {statistics.median(ordered) * 1000:.0f} ms")
    print(f"expert_round_ms_p95 {p95 * 1000:.0f} ms")
    print(f"expert_round_ms_max {ordered[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
