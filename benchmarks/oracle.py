"""The expert's decision rule, checked against an oracle: do its overrules of ``normal`` pay?

Run: ``nice -n 10 python benchmarks/oracle.py [--preset match] [--hands 20] [--seed 5000]
[--every 5] [--rows FILE] [--report FILE ...]``.

Hands of ``normal`` self-play (seeds ``seed`` … ``seed + hands - 1``, never the ladder's)
give the states; every ``every``-th decision of a seat to act is a sample. At a sample:

- **playouts** (where the expert searches by playouts): the expert scores its candidates
  on the same deals *without the race* (every candidate plays every deal of its even
  share of the budget), so that any decision rule can be applied afterwards; then each
  candidate gets its **oracle value**: the candidate played on the *true* state and the
  hand finished by ``normal`` at every seat, scored as a playout is (1 won, ½ tied, 0
  lost, plus a twelfth of the team's place points). ``normal`` is deterministic, so the
  oracle is one exact continuation — noisy per decision (a hand is chaotic), unbiased
  over many.
- **endgame** (where the expert's endgame search applies instead): the oracle value of
  the expert's endgame choice against that of ``normal``'s own choice (``normal``
  searches smaller endgames itself).

A decision rule is judged by its mean oracle gain over ``normal``'s choice per sampled
decision (an overrule that does not pay costs as much as one that does gains), early and
late in the hand (the expert's ``z_for``). The rule ``pick`` is ``ExpertPolicy.pick``:
an alternative overrules when its mean paired gain exceeds ``margin`` plus ``z``
standard errors. The shipped rule is margin 0.03 with z 2 early and 1 late; a grid of
others follows. The oracle stands for a table of ``normal`` seats, not of experts.

``--rows FILE`` appends every sample to FILE (JSON lines); ``--report FILE ...`` only
reports on saved rows. The last lines are ``<name> <value> <unit>`` figures with
``_lo``/``_hi`` 95% bounds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay_states import hand_decisions
from bot.ai import endgame, selfplay
from bot.ai.base import Policy, masked_state, options
from bot.ai.expert import DEFAULT_MARGIN, DEFAULT_Z, LATE_Z, ExpertPolicy
from bot.ai.playouts import SEAT_POINTS
from bot.engine import Action, make_rules
from bot.engine.game import apply
from bot.engine.rules import Rules
from bot.engine.state import HandState, same_team
from bot.engine.views import seat_view

SHIPPED = (DEFAULT_MARGIN, DEFAULT_Z, LATE_Z)
GRID = tuple((m, z) for m in (0.0, 0.03) for z in (0.0, 0.5, 1.0, 2.0))
Row = dict[str, Any]


def hand_value(state: HandState, seat: int) -> float:
    """A finished hand's worth to ``seat``'s team, as a playout scores it."""
    res = state.result
    if res is None or res.voided:
        return 0.5
    mine = sum(SEAT_POINTS[i] for i, s in enumerate(res.places) if same_team(s, seat))
    return (1.0 if mine > 0 else 0.5 if mine == 0 else 0.0) + mine / 12


def oracle(state: HandState, seat: int, action: Action | None, normal: Policy) -> float:
    """The true state after ``action``, finished by ``normal`` at every seat."""
    if action is not None:
        state, _ = apply(state, seat, action)
    log = selfplay.play_hand(state, [normal] * 6, random.Random(7))
    return hand_value(log.state, seat)


def decisions(rules: Rules, seeds: range, every: int) -> Iterator[tuple[int, HandState, int]]:
    """(hand seed, state, seat) at every ``every``-th decision of ``normal`` self-play
    where the seat is the one to act."""
    for hand_seed in seeds:
        for k, (st, seat) in enumerate(hand_decisions(rules, hand_seed, hand_seed)):
            if not k % every and st.to_act == seat:
                yield hand_seed, st, seat


def sample(state: HandState, seat: int, expert: ExpertPolicy, seed: int) -> Row | None:
    """One sample's row (see the module docstring), or None where nothing is searched."""
    normal = expert.normal
    view = seat_view(state, seat)
    legal = options(state, seat)
    public = masked_state(state, seat)
    base = normal.choose(view, legal, random.Random(seed))
    if base is None:
        return None
    if endgame.applies(view, public, expert.endgame):
        mine = endgame.choose(view, public, legal, base, random.Random(seed), expert.endgame)
        theirs = normal.choose_searching(view, public, legal, random.Random(seed))
        vals = [oracle(state, seat, a, normal) for a in (theirs, mine)]
        return {"kind": "endgame", "changed": mine != theirs, "oracle": vals}
    cands = expert.candidates(view, legal, base)
    if len(cands) < 2:
        return None
    scores = expert.evaluate(view, public, cands, seed)
    return {
        "kind": "playouts",
        "late": expert.z_for(view) == expert.late_z,
        "scores": scores,
        "oracle": [oracle(state, seat, a, normal) for a in cands],
    }


def collect(args: argparse.Namespace) -> list[Row]:
    rules = make_rules(args.preset)
    # No race: every candidate plays all its deals, so that any rule can be applied to the
    # scores afterwards (until 2026-12-06 a margin of -inf stood for that, which the
    # quicker race's clear-leader stop of 2026-12-05 read as "ahead": it ended the rows
    # after one batch). No clock: the same rows on any machine.
    expert = ExpertPolicy(rules, work=args.work, race=False, max_seconds=math.inf)
    rows: list[Row] = []
    out = open(args.rows, "a") if args.rows else None  # noqa: SIM115 (closed below)
    try:
        seeds = range(args.seed, args.seed + args.hands)
        for n, (hand_seed, state, seat) in enumerate(decisions(rules, seeds, args.every)):
            row = sample(state, seat, expert, hand_seed * 1000 + n)
            if row is None:
                continue
            row["preset"] = args.preset
            row["hand"] = hand_seed
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
    finally:
        if out is not None:
            out.close()
    return rows


def picks(rows: Sequence[Row], margin: float, z_early: float, z_late: float) -> list[int]:
    """Per row, the candidate the rule picks (0: normal's choice)."""
    rule = ExpertPolicy(margin=margin)
    return [rule.pick(r["scores"], z_late if r["late"] else z_early) for r in rows]


def gains(rows: Sequence[Row], chosen: Sequence[int]) -> list[float]:
    """Per row, the oracle gain of the chosen candidate over normal's choice."""
    return [r["oracle"][c] - r["oracle"][0] for r, c in zip(rows, chosen, strict=True)]


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1) / n)
    return m, m - 1.96 * se, m + 1.96 * se


def figure(name: str, xs: Sequence[float], unit: str) -> None:
    if not xs:
        return
    m, lo, hi = mean_ci(xs)
    print(f"{name} {m:+.4f} {unit}")
    print(f"{name}_lo {lo:+.4f} {unit}")
    print(f"{name}_hi {hi:+.4f} {unit}")


def report(rows: Sequence[Row], tag: str) -> None:
    plays = [r for r in rows if r["kind"] == "playouts"]
    ends = [r for r in rows if r["kind"] == "endgame"]
    early = [r for r in plays if not r["late"]]
    late = [r for r in plays if r["late"]]
    print(f"# {tag}: {len(early)} early and {len(late)} late playout samples, {len(ends)} endgame")
    for stage, part in (("early", early), ("late", late)):
        for m, z in GRID if part else ():
            chosen = picks(part, m, z, z)
            mean, lo, hi = mean_ci(gains(part, chosen))
            share = sum(1 for c in chosen if c) / len(part)
            ci = f"{mean:+.4f} ({lo:+.4f} … {hi:+.4f})"
            print(f"#  {stage} margin {m} z {z}: overrules {share:.1%}, gain {ci}")
    changed = sum(1 for r in ends if r["changed"])
    if ends:
        print(f"#  endgame: the expert's choice differs from normal's in {changed / len(ends):.1%}")
    for stage, part in (("early", early), ("late", late)):
        figure(
            f"oracle_{tag}_shipped_{stage}_gain", gains(part, picks(part, *SHIPPED)), "per_decision"
        )
    figure(
        f"oracle_{tag}_endgame_gain",
        [r["oracle"][1] - r["oracle"][0] for r in ends],
        "per_decision",
    )
    best = [max(r["oracle"]) - r["oracle"][0] for r in plays]
    figure(f"oracle_{tag}_best_candidate_gain", best, "per_decision")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="match")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--work", type=int, default=64_000, help="the expert's work (2 processes)")
    ap.add_argument("--rows", help="append every sample to this JSON-lines file")
    ap.add_argument("--report", nargs="+", help="only report on saved rows")
    args = ap.parse_args()
    if args.report:
        rows = [json.loads(line) for f in args.report for line in open(f)]  # noqa: SIM115
        for preset in sorted({r["preset"] for r in rows}):
            report([r for r in rows if r["preset"] == preset], preset)
        return
    report(collect(args), args.preset)


if __name__ == "__main__":
    main()
