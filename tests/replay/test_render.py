"""Replay stepper images: golden images (as tests/render/test_golden.py) and layout checks.

After an intended visual change regenerate with ``python -m render.replay_golden`` and look
at every image before committing.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PIL import ImageChops

from render.golden import golden_problem
from render.replay import render_replay
from render.replay_golden import CASES, GOLDEN_DIR, sample_frames
from render.samples import SAMPLE_NAMES


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, tmp_path: Path) -> None:
    problem = golden_problem(name, CASES[name], GOLDEN_DIR, tmp_path)
    assert problem is None, f"{problem} (regenerate: python -m render.replay_golden)"


def test_every_frame_has_the_same_size_and_differs_from_the_next() -> None:
    shown = sample_frames()
    images = [render_replay(f, SAMPLE_NAMES, 2, (f.index, len(shown) - 1)) for f in shown[:4]]
    assert len({im.size for im in images}) == 1
    for a, b in itertools.pairwise(images):
        assert ImageChops.difference(a, b).getbbox() is not None


def test_hands_are_drawn_face_up_below_the_table() -> None:
    shown = sample_frames()
    start = shown[0]
    full = render_replay(start, SAMPLE_NAMES, 2, (0, len(shown) - 1))
    # A state with every hand emptied draws the same table but blank hand rows.
    empty_state = start.state._replace(hands=((0,) * len(start.state.hands[0]),) * 6)
    empty = render_replay(
        type(start)(0, start.kind, 0, empty_state, 0, ()), SAMPLE_NAMES, 2, (0, len(shown) - 1)
    )
    box = ImageChops.difference(full, empty).getbbox()
    assert box is not None and box[1] >= full.height - 6 * 86 - 40
