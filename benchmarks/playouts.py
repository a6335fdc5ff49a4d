"""Playout speed, and a digest of what the playouts did (the compiled engine's check).

Run: ``python benchmarks/playouts.py [--presets dagang,qingdao,match] [--repeat 5]``
(a timing figure: on a quiet machine). ``--digest`` prints only the digest.

The positions are the decisions of ``normal`` self-play (hands 500-505, every twelfth
decision of each); from each, three playouts (``rollout.rollout``, seeds fixed) play the
hand to its end. The figure is the best of ``--repeat`` timed passes over them. The
digest hashes every playout's whole history and result: two builds of the engine (the
Python modules and the mypyc-compiled wheel, setup.py) that print the same digest played
every move of every playout alike. The ``engine build`` line says which build ran: ``compiled``
when the hot modules were imported from their extension modules.

This script imports the ``bot`` on ``sys.path`` as Python finds it (the installed package
first), so run with a wheel's interpreter it measures that wheel; from a checkout that is
not installed it falls back to the checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

try:
    import bot  # noqa: F401  (the installed package, if there is one)
except ImportError:
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from selfplay_states import Sample, hand_decisions

from bot.ai import rollout as rollout_module
from bot.ai.rollout import rollout
from bot.engine import transition
from bot.engine.rules import make_rules

HANDS = range(500, 506)
PER_HAND = 12  # positions from each hand's decisions
PLAYOUTS = 3  # from each position


def positions(preset: str) -> list[Sample]:
    rules = make_rules(preset)
    out: list[Sample] = []
    for hand in HANDS:
        seen = hand_decisions(rules, hand, 7)
        out.extend(seen[:: max(1, len(seen) // PER_HAND)])
    return out


def play(samples: list[Sample], digest: hashlib._Hash | None = None) -> int:
    """Every playout of every position; the moves played, in all."""
    moves = 0
    for i, (state, _) in enumerate(samples):
        for k in range(PLAYOUTS):
            end = rollout(state, random.Random(i * 100 + k))
            moves += len(end.history) - len(state.history)
            if digest is not None:
                digest.update(repr((end.result, end.history)).encode())
    return moves


def build() -> str:
    compiled = all(
        not m.__file__ or not m.__file__.endswith(".py") for m in (transition, rollout_module)
    )
    return "compiled" if compiled else "python"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presets", default="dagang,qingdao,match")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--digest", action="store_true", help="print the digest only")
    args = ap.parse_args()
    presets = [p for p in args.presets.split(",") if p]
    digest = hashlib.sha256()
    lines: list[str] = []
    total_s = total_playouts = 0.0
    for preset in presets:
        samples = positions(preset)
        moves = play(samples, digest)
        if args.digest:
            continue
        best = min(_timed(samples) for _ in range(args.repeat))
        n = len(samples) * PLAYOUTS
        total_s += best
        total_playouts += n
        print(f"{preset}: {n} playouts, {moves} moves, best of {args.repeat}: {best:.3f} s")
        lines.append(f"playout_ms_{preset} {best / n * 1000:.3f} ms")
        lines.append(f"playout_move_us_{preset} {best / moves * 1e6:.1f} us")
    if args.digest:
        print(digest.hexdigest())
        return
    print(f"engine build: {build()}; playouts digest {digest.hexdigest()[:16]}")
    for line in lines:
        print(line)
    print(f"playouts_per_s {total_playouts / total_s:.0f} playouts/s")


def _timed(samples: list[Sample]) -> float:
    t0 = time.perf_counter()
    play(samples)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
