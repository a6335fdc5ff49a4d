"""How long one person waits on five ``expert`` seats: the wall time of an AI round.

Run: ``python benchmarks/rounds.py [--hands 2] [--presets qingdao] [--think 5]`` (a timing
figure: at normal priority, on a machine as quiet as it gets; the load is printed).

A table as the bot runs it (``TableManager``, the expert with its default budget and
clock, its playouts in ``--search-processes`` search processes): seat 1, "the person",
plays ``normal``'s choices; the other five seats are the expert. From the person's play
(the command, counted when at least one expert seat searched after it):

- a **round** (``expert_round_ms``, issue #35's "five expert seats in a row") is the wall
  time until the fifth AI decision after it is made — or until the person's next turn
  or the hand's end, if that comes first (seats out, burn windows: they do not wait);
- the **wait** (``expert_wait_ms``; this benchmark's "round" before 2026-12-07) runs
  until the person's next turn. It is longer than a round when the person passed and
  is locked out of the trick (RULES: a pass is final for the trick): the others play on
  lap after lap, every play shown as it is made, until a new trick comes to the person.

The play that takes the person out leaves the rest of the hand to the AI seats in one
go, with nobody waiting for a turn: that hand's tail is printed apart
(``expert_tail_ms``), in neither figure (before 2026-12-06 it was in the round).

Two runs: no thinking time (the person answers at once: nothing could be worked out
ahead; ``expert_round_ms_p95``, ``expert_wait_ms_p95``), and ``--think`` seconds
of the person's thinking before each play (``…_thinking``), during which the table
thinks ahead (``bot.table.ahead``) — a turn the person answers as foreseen then takes
its decisions as they were worked out. The hands are the same in both runs, decision for
decision (only when a decision is made changes); ``ahead_hits`` counts the AI turns
that found their decision worked out.

``--ai-later`` plays as the web page does (``handle(..., ai_later=True)``: the tap is
answered after the person's own move, the AI seats' moves follow in a step of their
own, after which the table thinks ahead): a round is then the tap until those moves are
made (``expert_later_round_ms``, ``expert_later_round_ms_thinking``), and
``expert_later_answer_ms`` the tap's own answer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import NormalPolicy, options, search_pool
from bot.ai.expert import ExpertPolicy
from bot.ai.search_pool import search_processes
from bot.engine import Action
from bot.engine.state import HandState, SeatStatus
from bot.engine.views import SeatView, seat_view
from bot.table import (
    Act,
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    OpenTable,
    Start,
    TableManager,
    apply_setting_changes,
)

PERSON = 1
CHAT = ChatRef("bench", "rounds")
ME = Actor("person", "玩家", is_admin=True)


class CountedExpert(ExpertPolicy):
    """The expert, noting whether a round searched (rounds without a search: left out)."""

    searched = False
    made: ClassVar[list[float]] = []  # when each AI decision since the person's play was made

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        CountedExpert.searched = True
        choice = super().choose_searching(view, public, legal, rng)
        CountedExpert.made.append(time.perf_counter())
        return choice


class HandTimes(NamedTuple):
    """One hand's figures in seconds (see the module docstring)."""

    rounds: list[float]
    waits: list[float]
    answers: list[float]  # the plays' own answers (``--ai-later``)
    tails: list[float]
    hits: int  # AI turns that took a decision worked out ahead


ROUND_SEATS = 5


async def hand(preset: str, seed: int, think: float | None, ai_later: bool = False) -> HandTimes:
    """One hand's rounds, waits, the plays' own answers and the tail."""
    expert = CountedExpert()
    m = TableManager(
        clock=FakeClock(), seed_source=lambda: seed, policy=expert,
        burn_window_seconds=0, declare_window_seconds=0,
    )  # fmt: skip
    m.think_ahead = think is not None
    settings = {"turn_seconds": 0, "match_hands": 1, "preset": preset}
    m.use_settings(CHAT, apply_setting_changes(GroupSettings(), settings))
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    person = NormalPolicy()
    got = HandTimes([], [], [], [], 0)
    for _ in range(400):
        st = m.tables[CHAT.key].state
        legal = [] if st is None or st.over else options(st, PERSON)
        if st is None or not legal:
            break
        choice = person.choose(seat_view(st, PERSON), legal, random.Random(0))
        if think:  # the person thinks; the table works ahead meanwhile
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(m.ahead.wait()), think)
        CountedExpert.searched = False
        CountedExpert.made = []
        started = time.perf_counter()
        reply = await m.handle(Act(chat=CHAT, actor=ME, action=choice or legal[0]), ai_later)
        answered = time.perf_counter()
        await m.settle()  # the AI seats' own step (ai_later)
        ended = time.perf_counter()
        if not reply.ok:
            break
        if CountedExpert.searched and st.to_act == PERSON:
            after = m.tables[CHAT.key].state
            if after is not None and after.status[PERSON - 1] is not SeatStatus.PLAYING:
                # The person went out: the rest of the hand is no round of five seats
                # (nobody waits for a turn), and it can be many rounds long.
                got.tails.append(ended - started)
            else:
                made = CountedExpert.made
                fifth = made[ROUND_SEATS - 1] if len(made) >= ROUND_SEATS else ended
                got.rounds.append(fifth - started)
                got.waits.append(ended - started)
                got.answers.append(answered - started)
    await m.drain()
    return got._replace(hits=expert.thoughts.hits)


def figures(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    if not ordered:
        print(f"{name}: no rounds")
        return
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{name}_median {statistics.median(ordered) * 1000:.0f} ms")
    print(f"{name}_p95 {p95 * 1000:.0f} ms")
    print(f"{name}_max {ordered[-1] * 1000:.0f} ms")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2, help="hands per preset")
    ap.add_argument("--presets", default="qingdao")
    ap.add_argument("--think", type=float, default=5.0, help="the person's seconds a turn")
    ap.add_argument("--search-processes", type=int, default=search_processes(None))
    ap.add_argument("--ai-later", action="store_true", help="play as the web page does")
    args = ap.parse_args()
    search_pool.configure(args.search_processes).start()
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"load average (1 min) before: {load}")
    prefix = "expert_later_" if args.ai_later else "expert_"
    for think in (None, args.think):
        every = HandTimes([], [], [], [], 0)
        for preset in args.presets.split(","):
            for k in range(args.hands):
                got = await hand(preset, 7100 + k, think, args.ai_later)
                every = HandTimes(
                    every.rounds + got.rounds,
                    every.waits + got.waits,
                    every.answers + got.answers,
                    every.tails + got.tails,
                    every.hits + got.hits,
                )
        suffix = "" if think is None else "_thinking"
        name = f"{prefix}round_ms{suffix}"
        longer = sum(w > r for r, w in zip(every.rounds, every.waits, strict=True))
        print(
            f"{len(every.rounds)} plays of the person ({name}); ahead_hits {every.hits}; "
            f"{longer} waits ran past the fifth AI decision"
        )
        figures(name, every.rounds)
        figures(f"{prefix}wait_ms{suffix}", every.waits)
        print(f"{len(every.tails)} hands' tails after the person went out (in neither figure)")
        figures(f"{prefix}tail_ms{suffix}", every.tails)
        if args.ai_later:
            figures(f"{prefix}answer_ms{suffix}", every.answers)
    search_pool.shared().close()
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"load average (1 min) after: {load}")


if __name__ == "__main__":
    asyncio.run(main())
