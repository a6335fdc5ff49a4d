"""Heuristic team against random team over seeded hands (preset ``dagang``).

Run: ``python benchmarks/ai.py [--hands N]``. Half the hands seat the heuristic team at
1-3-5, the other half at 2-4-6. A hand is won when the heuristic team's score is > 0.
The last line is ``heuristic_vs_random_win_rate <fraction>``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import HeuristicPolicy, Policy, RandomPolicy, play_hand
from bot.engine import make_rules, new_hand


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (mid - half, mid + half)


def run(hands: int, seed: int) -> tuple[int, int, int, int, float]:
    """(wins, ties, losses, score margin, seconds) of the heuristic team over ``hands``."""
    rules = make_rules("dagang")
    heuristic: Policy = HeuristicPolicy(rules)
    random_seat: Policy = RandomPolicy()
    wins = ties = losses = margin = 0
    t0 = time.perf_counter()
    for i in range(hands):
        team = i % 2  # 0: heuristic at 1-3-5, 1: heuristic at 2-4-6
        policies = [heuristic if (s % 2 == 1) == (team == 0) else random_seat for s in range(1, 7)]
        state, _ = new_hand(rules, seed + i)
        log = play_hand(state, policies, random.Random(seed * 7919 + i))
        result = log.state.result
        assert result is not None
        score = result.team_scores[team]
        margin += score - result.team_scores[1 - team]
        if score > 0:
            wins += 1
        elif score == 0:
            ties += 1
        else:
            losses += 1
    return wins, ties, losses, margin, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    wins, ties, losses, margin, seconds = run(args.hands, args.seed)
    n = wins + ties + losses
    rate = wins / n if n else 0.0
    lo, hi = wilson(wins, n)
    print(f"hands {n}: heuristic team won {wins}, tied {ties}, lost {losses}")
    print(f"win rate {rate:.3f} (95% Wilson CI {lo:.3f}-{hi:.3f})")
    print(f"mean score margin {margin / max(n, 1):+.2f} points a hand")
    print(f"time per hand {seconds / max(n, 1) * 1000:.1f} ms (total {seconds:.1f} s)")
    print(f"heuristic_vs_random_win_rate {rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
