"""The expert's race checked: do its early stops change decisions, and what would other rules
pick?

Run: ``nice -n 10 python benchmarks/race.py [--presets match,qingdao,dagang] [--hands 8]
[--seed 7300] [--every 3] [--processes 2] [--rows FILE] [--report FILE ...]``.

Hands of ``normal`` self-play (seeds ``seed`` … ``seed + hands - 1``) give the states;
every ``every``-th decision of a seat to act where the expert searches by playouts is a
sample. At a sample:

- **rows**: every candidate plays the same deals without the race, as many as the race
  could ever give one candidate (half the decision's playouts, at most ``MAX_DEALS``);
- **the judge**: every candidate plays 64 other deals (seeds the search never uses), so a
  rule's pick is scored on deals it did not choose from — by the playouts' own measure
  (a won hand 1, a tie ½, plus a twelfth of the place points), not by the true hands
  (that is ``benchmarks/oracle.py``);
- **the shipped race replayed**: ``ExpertPolicy.evaluate`` itself runs on a pool that
  serves the rows, so its drops, its clear-leader stop and its pick are exactly a
  table's; the **whole race** is ``pick`` on every candidate's full share of deals (what
  the race would decide if nobody left and nothing ended it); the **grid** applies other
  margins and ``z`` to the full shares.

The last lines are ``<name> <value> <unit>`` figures: per stage (early: more than a third
of the deck in the hands), how often the shipped race picks as the whole race does, the
deals it spends, and each rule's judged gain over ``normal``'s choice per decision, with
``_lo``/``_hi`` 95% bounds for its difference from the shipped rule on the same decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.oracle import decisions, mean_ci
from bot.ai import endgame, search_pool
from bot.ai.base import masked_state, options
from bot.ai.deal import hand_sizes, hidden_cards, pass_caps
from bot.ai.expert import DEFAULT_MARGIN, DEFAULT_Z, LATE_Z, MAX_DEALS, ExpertPolicy
from bot.ai.playouts import Batch
from bot.ai.playouts import Row as DealRow
from bot.ai.search_pool import SearchPool
from bot.engine import Action, make_rules
from bot.engine.state import HandState
from bot.engine.views import SeatView, seat_view

JUDGE_DEALS = 64
JUDGE_SEEDS = 10**9  # the judge's deals are seeded this far from the search's
GRID = ((2.0, 0.03), (1.5, 0.03), (1.0, 0.03), (1.5, 0.0), (1.0, 0.0), (0.5, 0.03))
Sample = dict[str, Any]


class Served(SearchPool):
    """A pool that serves deals already played (``rows``) instead of playing them."""

    def __init__(self, rows: Sequence[DealRow], processes: int) -> None:
        super().__init__(processes)
        self.rows = rows

    def run(self, batch: Batch) -> list[DealRow]:
        last = batch.first + batch.deals
        if last > len(self.rows):
            raise ValueError(f"the race asked for deal {last - 1}; {len(self.rows)} were played")
        return [[row[i] for i in batch.live] for row in self.rows[batch.first : last]]


def played(
    pool: SearchPool,
    view: SeatView,
    public: HandState,
    cands: Sequence[Action | None],
    seed: int,
    deals: int,
) -> list[DealRow]:
    """Deals 0 … ``deals`` - 1 of a decision seeded ``seed``, every candidate on each: the
    deals ``ExpertPolicy.evaluate`` plays (its batches hold the same values)."""
    hidden = hidden_cards(view, public)
    sizes = tuple(hand_sizes(view, hidden))
    caps = tuple((s, tuple(row)) for s, row in sorted(pass_caps(view).items()))
    live = tuple(range(len(cands)))
    job = Batch(view, public, tuple(cands), sizes, caps, hidden, seed, 0, deals, live, math.inf)
    return pool.run(job)


def collect(preset: str, seeds: range, every: int, processes: int) -> list[Sample]:
    rules = make_rules(preset)
    pool = search_pool.configure(processes)
    expert = ExpertPolicy(rules, pool=pool, max_seconds=math.inf)
    out: list[Sample] = []
    for n, (hand_seed, state, seat) in enumerate(decisions(rules, seeds, every)):
        view = seat_view(state, seat)
        legal = options(state, seat)
        rng = random.Random(hand_seed * 1000 + n)
        base = expert.normal.choose(view, legal, rng)
        public = masked_state(state, seat)
        if base is None or endgame.applies(view, public, expert.endgame):
            continue
        cands = expert.candidates(view, legal, base)
        if len(cands) < 2:
            continue
        early = expert.early(view)
        share = expert.deals(sum(hand_sizes(view, hidden_cards(view, public))), len(cands), early)
        seed = rng.getrandbits(64)
        rows = played(pool, view, public, cands, seed, min(MAX_DEALS, share * len(cands) // 2))
        judge = played(pool, view, public, cands, seed + JUDGE_SEEDS, JUDGE_DEALS)
        # The replay needs the decision itself (its view fixes the stage and the budget).
        replay = ExpertPolicy(rules, pool=Served(rows, pool.processes), max_seconds=math.inf)
        scores = replay.evaluate(view, public, cands, seed)
        shipped = replay.pick(scores, replay.z_for(view))
        out.append(
            {
                "preset": preset,
                "hand": hand_seed,
                "early": early,
                "share": share,
                "rows": rows,
                "judge": judge,
                "shipped": shipped,
                "shipped_deals": len(scores[0]),
            }
        )
    search_pool.shared().close()
    return out


def judged(s: Sample, pick: int) -> float:
    """The judge's gain of candidate ``pick`` over normal's choice."""
    return sum(r[pick] - r[0] for r in s["judge"]) / len(s["judge"])


def whole(s: Sample, margin: float, z: float) -> int:
    share = s["rows"][: s["share"]]
    scores = [[r[i] for r in share] for i in range(len(share[0]))]
    return ExpertPolicy(margin=margin).pick(scores, z)


def report(samples: Sequence[Sample], tag: str, figures: bool) -> None:
    """Per stage: the shipped race against the whole race, and the grid (comment lines);
    ``figures``: the ``<name> <value> <unit>`` lines too."""
    for stage in ("early", "late"):
        part = [s for s in samples if s["early"] == (stage == "early")]
        if not part:
            continue
        z_stage = DEFAULT_Z if stage == "early" else LATE_Z
        shipped = [judged(s, s["shipped"]) for s in part]
        full = [whole(s, DEFAULT_MARGIN, z_stage) for s in part]
        agree = sum(1 for s, w in zip(part, full, strict=True) if s["shipped"] == w) / len(part)
        deals = sum(s["shipped_deals"] for s in part) / len(part)
        over = sum(1 for s in part if s["shipped"]) / len(part)
        m, lo, hi = mean_ci(shipped)
        print(
            f"# {tag} {stage}, {len(part)} decisions — the shipped race: overrules {over:.1%},"
            f" {deals:.1f} deals, picks as the whole race in {agree:.1%}, gain {m:+.4f}"
            f" ({lo:+.4f} … {hi:+.4f})"
        )
        rules = [("whole", DEFAULT_MARGIN, z_stage)] + [(f"z{z}_m{mg}", mg, z) for z, mg in GRID]
        diffs: dict[str, tuple[float, float, float]] = {}
        for name, margin, z in rules:
            picks = full if name == "whole" else [whole(s, margin, z) for s in part]
            gains = [judged(s, p) for s, p in zip(part, picks, strict=True)]
            diffs[name] = mean_ci([g - b for g, b in zip(gains, shipped, strict=True)])
            dm, dlo, dhi = diffs[name]
            share = sum(1 for p in picks if p) / len(part)
            print(
                f"#   {name}: overrules {share:.1%}, gain {sum(gains) / len(gains):+.4f},"
                f" minus the shipped race's {dm:+.4f} ({dlo:+.4f} … {dhi:+.4f})"
            )
        if not figures:
            continue
        name = f"race_{tag}_{stage}"
        print(f"{name}_agrees {agree:.3f} fraction")
        print(f"{name}_deals {deals:.1f} deals")
        print(f"{name}_shipped_gain {m:+.4f} per_decision")
        for rule in ("whole", "z1.0_m0.03"):
            dm, dlo, dhi = diffs[rule]
            key = f"{name}_{rule.replace('.', '_')}_minus_shipped"
            print(f"{key} {dm:+.4f} per_decision")
            print(f"{key}_lo {dlo:+.4f} per_decision")
            print(f"{key}_hi {dhi:+.4f} per_decision")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default="match,qingdao,dagang")
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7300)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--rows", help="append every sample to this JSON-lines file")
    ap.add_argument("--report", nargs="+", help="only report on saved rows")
    args = ap.parse_args()
    if args.report:
        samples = []
        for name in args.report:
            with open(name) as f:
                samples += [json.loads(line) for line in f]
    else:
        samples = []
        for preset in args.presets.split(","):
            t = time.time()
            got = collect(
                preset, range(args.seed, args.seed + args.hands), args.every, args.processes
            )
            print(f"# {preset}: {len(got)} samples in {time.time() - t:.0f} s", flush=True)
            samples += got
            if args.rows:
                with open(args.rows, "a") as f:
                    f.writelines(json.dumps(s) + "\n" for s in got)
    presets = sorted({s["preset"] for s in samples})
    for preset in presets:
        report([s for s in samples if s["preset"] == preset], preset, len(presets) == 1)
    if len(presets) > 1:
        report(samples, "all", True)


if __name__ == "__main__":
    main()
