"""Sample images for every preset: ``gouji render-demo DIR`` (or ``python -m render.demo DIR``).

For each preset and seed: the hand of the seat to act with its largest legal play
highlighted, the table early and late in the hand, and the result of the hand played to
its end by random legal actions. English versions follow for the first seed.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.engine.game import legal_plays, new_hand
from bot.engine.rules import PRESET_NAMES, Rules, make_rules
from bot.engine.state import HandState
from bot.engine.views import public_view, seat_view
from bot.i18n.catalogue import Lang

from .hand import render_hand
from .result import render_result
from .samples import SAMPLE_NAMES, step
from .style import to_png
from .table import render_table

EARLY, LATE = 40, 230  # random actions before the "early" and "late" tables


def _highlight(state: HandState) -> tuple[int, tuple[int, ...] | None]:
    seat = state.to_act or state.leader
    plays = legal_plays(state, seat)
    if not plays:
        return seat, None
    return seat, max(plays, key=lambda p: (p.size, p.base)).counts()


def render_demo(
    out_dir: str | Path, seeds: Sequence[int] = (1, 2), presets: Sequence[str] = PRESET_NAMES
) -> list[Path]:
    """Write sample hand, table and result PNGs into ``out_dir``; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / f"{name}.png"
        path.write_bytes(data)
        written.append(path)

    for preset in presets:
        rules = make_rules(preset)
        for k, seed in enumerate(seeds):
            langs: tuple[Lang, ...] = ("zh", "en") if k == 0 else ("zh",)
            state, snapshots = _play_out(rules, seed, random.Random(f"demo:{preset}:{seed}"))
            for lang in langs:
                _draw_hand(save, f"{preset}_s{seed}_{lang}", state, snapshots, k + 1, lang)
    return written


def _play_out(
    rules: Rules, seed: int, rng: random.Random
) -> tuple[HandState, dict[str, HandState]]:
    """Play a hand through; its final state and its "early" and "late" states."""
    state, _ = new_hand(rules, seed)
    snapshots: dict[str, HandState] = {}
    n = 0
    while not state.over:
        if n == EARLY:
            snapshots["early"] = state
        if n == LATE:
            snapshots["late"] = state
        nxt = step(state, rng)
        if nxt is None:
            break
        state, n = nxt, n + 1
    snapshots.setdefault("early", state)
    snapshots.setdefault("late", state)
    return state, snapshots


def _draw_hand(
    save: Callable[[str, bytes], None],
    tag: str,
    state: HandState,
    snapshots: dict[str, HandState],
    hand_no: int,
    lang: Lang,
) -> None:
    """One hand's images in one language: a hand, the table early and late, the result."""
    early = snapshots["early"]
    seat, hl = _highlight(early)
    view = seat_view(early, seat)
    save(f"{tag}_hand", to_png(render_hand(view, lang, hl, name=SAMPLE_NAMES[seat - 1])))
    for when in ("early", "late"):
        pub = public_view(snapshots[when])
        img = render_table(pub, SAMPLE_NAMES, hand_no, lang, autoplay={6})
        save(f"{tag}_table_{when}", to_png(img))
    if state.result is not None:
        img = render_result(
            state.result,
            SAMPLE_NAMES,
            state.result.team_scores,
            lang,
            hand_no=hand_no,
            preset=state.rules.preset,
            sweep_multiplier=state.rules.sweep_multiplier,
        )
        save(f"{tag}_result", to_png(img))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gouji render-demo", description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--preset", action="append", choices=PRESET_NAMES)
    args = ap.parse_args(argv)
    paths = render_demo(args.out_dir, args.seeds, args.preset or PRESET_NAMES)
    print(f"{len(paths)} images in {args.out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
