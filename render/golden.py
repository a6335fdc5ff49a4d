"""Golden images: fixed states rendered to PNG, checked by tests/render/test_golden.py.

Regenerate after an intended visual change (then look at every image before committing)::

    python -m render.golden tests/render/golden      # the test suite's copies

The module only knows how to draw the cases; where the stored images live is the tests'
business (an installed wheel has no tests/).
"""

from __future__ import annotations

import argparse
import io
import random
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from bot.engine.game import legal_plays, new_hand
from bot.engine.rules import make_rules
from bot.engine.state import Bonus, HandResult, HandState
from bot.engine.views import public_view, seat_view

from .hand import render_hand
from .result import render_result
from .samples import SAMPLE_NAMES, burn_scenario, play, sample_state, step
from .style import to_png
from .table import render_table


def _largest_play(state: HandState) -> tuple[HandState, int, tuple[int, ...]]:
    """The first state from ``state`` on where the seat to act has a play, that seat, and
    its largest play (what a UI would highlight as a suggestion)."""
    rng = random.Random(0)
    while True:
        seat = state.to_act
        plays = legal_plays(state, seat) if seat is not None else []
        if plays and seat is not None:
            best = max(plays, key=lambda p: (p.size, p.base))
            return state, seat, best.counts()
        nxt = step(state, rng)
        if nxt is None:
            raise ValueError("no state with a play")
        state = nxt


def _hand_fresh() -> Image.Image:
    state, _ = new_hand(make_rules("dagang"), 7)
    return render_hand(seat_view(state, 3), name=SAMPLE_NAMES[2], autoplay=True)


def _hand_highlight_en() -> Image.Image:
    state, seat, cards = _largest_play(sample_state("qingdao", 2, 60))
    return render_hand(seat_view(state, seat), "en", highlight=cards, name=SAMPLE_NAMES[seat - 1])


def _hand_out_with_mates() -> Image.Image:
    # qingdao shows teammates' hands (看牌) to a seat that has played out.
    state = sample_state("qingdao", 2, 290)
    seat = state.out_order[0]
    return render_hand(seat_view(state, seat), name=SAMPLE_NAMES[seat - 1], mate_names=SAMPLE_NAMES)


def _table_trick() -> Image.Image:
    return render_table(public_view(sample_state("dagang", 1, 147)), SAMPLE_NAMES, 3, autoplay={2})


def _table_burn() -> Image.Image:
    return render_table(public_view(burn_scenario()), SAMPLE_NAMES, 1)


def _table_late_en() -> Image.Image:
    view = public_view(sample_state("weifang", 1, 337))
    return render_table(view, SAMPLE_NAMES, 5, "en", autoplay={4})


def _table_over() -> Image.Image:
    return render_table(public_view(sample_state("dazhong", 1, None)), SAMPLE_NAMES, 2)


def _result_sweep() -> Image.Image:
    state = sample_state("qingdao", 7, None)
    assert state.result is not None
    return render_result(
        state.result, SAMPLE_NAMES, (12, -12), hand_no=3, preset="qingdao", sweep_multiplier=2
    )


def _result_en() -> Image.Image:
    state, _ = new_hand(make_rules("dagang"), 5)
    state = play(state, random.Random("sample:dagang:5"))
    assert state.result is not None
    return render_result(state.result, SAMPLE_NAMES, None, "en", hand_no=1, preset="dagang")


def _result_match() -> Image.Image:
    # 比赛 scoring (score_table 2, 1, 0, 0, -1, -2) with three ±1s. 1-3-5: places 2+0-1 = 1,
    # then +1 (点) +1 (烧) -1 (闷) = 2. 2-4-6: places 1+0-2 = -1, then -1 -1 +1 = -2.
    result = HandResult(
        places=(1, 4, 3, 6, 5, 2),
        team_scores=(2, -2),
        seat_points=(2, -2, 0, 1, -1, 0),
        sweep_team=None,
        tributes=(),
        bonuses=(Bonus("point", 1, 4), Bonus("burn", 3, 2), Bonus("men", 6, 5)),
    )
    return render_result(result, SAMPLE_NAMES, (2, -2), hand_no=1, preset="match")


def _result_voided() -> Image.Image:
    voided = HandResult((), (0, 0), (0,) * 6, None, (), voided=True)
    return render_result(voided, SAMPLE_NAMES, (4, -4), hand_no=7, preset="dagang")


CASES: dict[str, Callable[[], Image.Image]] = {
    "hand_fresh": _hand_fresh,
    "hand_highlight_en": _hand_highlight_en,
    "hand_out_with_mates": _hand_out_with_mates,
    "table_trick": _table_trick,
    "table_burn": _table_burn,
    "table_late_en": _table_late_en,
    "table_over": _table_over,
    "result_sweep": _result_sweep,
    "result_en": _result_en,
    "result_voided": _result_voided,
    "result_match": _result_match,
}


Case = Callable[[], Image.Image]
# Mean absolute difference per channel (0–255) a golden image may drift by: small enough to
# catch a moved panel or a missing card, loose enough for FreeType/Pillow anti-aliasing
# differences between versions.
TOLERANCE = 1.5


def write_cases(cases: dict[str, Case], out_dir: Path) -> list[Path]:
    """Draw every case into ``out_dir/<name>.png``; the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in cases.items():
        path = out_dir / f"{name}.png"
        path.write_bytes(to_png(make()))
        written.append(path)
    return written


def golden_problem(name: str, make: Case, golden_dir: Path, keep_dir: Path) -> str | None:
    """How case ``name`` differs from its stored PNG beyond ``TOLERANCE`` (None: it does
    not); a differing image is saved in ``keep_dir`` to look at."""
    golden_path = golden_dir / f"{name}.png"
    if not golden_path.exists():
        return f"missing {golden_path}: regenerate the golden images"
    actual = Image.open(io.BytesIO(to_png(make()))).convert("RGB")
    golden = Image.open(golden_path).convert("RGB")
    if actual.size != golden.size:
        actual.save(keep_dir / f"{name}.png")
        return f"{name}: size {actual.size} != golden {golden.size} (see {keep_dir})"
    diff = ImageStat.Stat(ImageChops.difference(actual, golden)).mean
    score = sum(diff) / len(diff)
    if score > TOLERANCE:
        actual.save(keep_dir / f"{name}.png")
        return f"{name}: mean difference {score:.2f} > {TOLERANCE} (actual in {keep_dir})"
    return None


def regenerate(out_dir: Path) -> list[Path]:
    return write_cases(CASES, out_dir)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Regenerate the golden render images.")
    ap.add_argument("out", type=Path, help="folder for the PNGs (tests/render/golden)")
    args = ap.parse_args(argv)
    for path in regenerate(args.out):
        print(path)


if __name__ == "__main__":
    main()
