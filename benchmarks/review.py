"""CPU of the teacher's review (``bot.ai.review``): one seat of a whole hand.

Run: ``python benchmarks/review.py [--hands 3] [--deals 36] [--preset dagang]``. Self-play
hands (``normal`` at every seat, seeds 9000+) are recorded and replayed as a table's
record is; each is reviewed for seat 1 with ``ReviewConfig(deals=N)`` in this process
(one core). CPU seconds (``time.process_time``) are what count on a shared machine; the
wall time is printed too. The last lines are ``<name> <value> <unit>`` figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.normal import NormalPolicy
from bot.ai.review import ReviewConfig, decisions_of, review
from bot.ai.selfplay import play_hand
from bot.engine import make_rules
from bot.engine.game import new_hand
from bot.records import HandRecord, record_json
from bot.records.replay import replay

SEED = 9000


def recorded(preset: str, seed: int) -> HandRecord:
    state, _ = new_hand(make_rules(preset), seed, 1)
    log = play_hand(state, [NormalPolicy()] * 6, random.Random(seed))
    raw = record_json(
        match_id=1,
        hand_no=1,
        deal_no=1,
        seed=seed,
        leader=1,
        owed=(),
        names=[f"#{s}" for s in range(1, 7)],
        log=log.actions,
        state=log.state,
    )
    return HandRecord.from_json(raw, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--deals", type=int, default=ReviewConfig().deals)
    ap.add_argument("--preset", default="dagang")
    args = ap.parse_args()
    cfg = ReviewConfig(deals=args.deals)
    cpu: list[float] = []
    for k in range(args.hands):
        played = replay(recorded(args.preset, SEED + k))
        wall, start = time.perf_counter(), time.process_time()
        got = review(played, 1, cfg)
        cpu.append(time.process_time() - start)
        print(
            f"hand {k + 1}: {len(decisions_of(played, 1))} decisions, "
            f"{len(got.mistakes)} reported, {cpu[-1]:.1f} s cpu, "
            f"{time.perf_counter() - wall:.1f} s wall"
        )
    print(f"review_cpu_median {statistics.median(cpu):.1f} s")
    print(f"review_cpu_max {max(cpu):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
