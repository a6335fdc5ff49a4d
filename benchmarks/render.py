"""Render benchmark: median time to render and PNG-encode a hand, a table and a result.

Run from a checkout: ``python benchmarks/render.py [--repeat N]``. Targets: hand ≤ 30 ms,
table ≤ 50 ms, every PNG ≤ 200 KB. The last lines are ``<name> <value> <unit>``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from bot.engine.game import new_hand
from bot.engine.rules import make_rules
from bot.engine.views import public_view, seat_view
from render import render_hand, render_result, render_table, to_png
from render.samples import SAMPLE_NAMES, sample_state


def measure(make: Callable[[], Image.Image], repeat: int) -> tuple[float, float, int]:
    """(cold ms, median ms, PNG bytes): cold is the first call, with empty caches."""
    t = time.perf_counter()
    data = to_png(make())
    cold = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        data = to_png(make())
        times.append((time.perf_counter() - t) * 1000)
    return cold, statistics.median(times), len(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)

    fresh, _ = new_hand(make_rules("dagang"), 7)  # 36 cards
    hand_view = seat_view(fresh, 3)
    highlight = tuple(min(n, 2) if i == 10 else 0 for i, n in enumerate(hand_view.hand))
    mid = public_view(sample_state("weifang", 1, 337))
    over = sample_state("qingdao", 7, None)
    assert over.result is not None
    result = over.result

    cases = {
        "hand": lambda: render_hand(hand_view, highlight=highlight, autoplay=True, name="张三丰"),
        "table": lambda: render_table(mid, SAMPLE_NAMES, 5, autoplay={4}),
        "result": lambda: render_result(result, SAMPLE_NAMES, (12, -12), hand_no=3),
    }
    rows = {name: measure(make, args.repeat) for name, make in cases.items()}
    for name, (cold, med, size) in rows.items():
        print(f"# {name}: cold {cold:.1f} ms, median {med:.1f} ms, PNG {size / 1024:.1f} KB")
    for name, (_, med, _) in rows.items():
        print(f"{name}_render_median {med:.2f} ms")
    for name, (_, _, size) in rows.items():
        print(f"{name}_png_size {size / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
