"""Golden images of the replay stepper, checked by tests/replay/test_render.py.

Regenerate after an intended visual change (then look at every image before committing)::

    python -m render.replay_golden       # writes tests/replay/golden/*.png
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from bot.engine.events import Burned
from bot.engine.scenario import decode
from bot.i18n.catalogue import Lang
from bot.records.scenario import replay_scenario
from bot.records.steps import Frame, FrameKind, frames

from .golden import Case, write_cases
from .replay import render_replay
from .samples import SAMPLE_NAMES

TESTS = Path(__file__).resolve().parent.parent / "tests" / "replay"
GOLDEN_DIR = TESTS / "golden"
SAMPLE_FILE = TESTS / "data" / "golden_hand.json"  # an exported record: tributes, a burn


def sample_frames() -> list[Frame]:
    (played,) = replay_scenario(decode(SAMPLE_FILE.read_bytes()))
    return frames(played)


def _at(pick: Callable[[list[Frame]], Frame], lang: Lang = "zh") -> Callable[[], Image.Image]:
    def make() -> Image.Image:
        shown = sample_frames()
        frame = pick(shown)
        return render_replay(frame, SAMPLE_NAMES, 2, (frame.index, len(shown) - 1), lang)

    return make


def _burn_trick(shown: list[Frame]) -> Frame:
    return next(
        f
        for f in shown
        if f.kind is FrameKind.TRICK and any(isinstance(e, Burned) for e in f.events)
    )


CASES: dict[str, Case] = {
    "replay_start": _at(lambda s: s[0]),
    "replay_burn_trick": _at(_burn_trick),
    "replay_trick_en": _at(lambda s: s[3], "en"),
    "replay_end": _at(lambda s: s[-1]),
}


def regenerate(out_dir: Path = GOLDEN_DIR) -> list[Path]:
    return write_cases(CASES, out_dir)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Regenerate the replay golden images.")
    ap.add_argument("--out", type=Path, default=GOLDEN_DIR)
    args = ap.parse_args(argv)
    for path in regenerate(args.out):
        print(path)


if __name__ == "__main__":
    main()
