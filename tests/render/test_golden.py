"""Golden images: each case in render.golden must still look like its stored PNG.

After an intended visual change, regenerate with ``python -m render.golden tests/render/golden`` and
look at
every image before committing (docs/render.md).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render.golden import CASES
from render.style import to_png

# Mean absolute difference per channel (0–255). Small enough to catch a moved panel or a
# missing card, loose enough for FreeType/Pillow anti-aliasing differences between versions.
TOLERANCE = 1.5
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, tmp_path: Path) -> None:
    golden_path = GOLDEN_DIR / f"{name}.png"
    assert golden_path.exists(), f"missing {golden_path}: run python -m render.golden {GOLDEN_DIR}"
    actual = Image.open(io.BytesIO(to_png(CASES[name]()))).convert("RGB")
    golden = Image.open(golden_path).convert("RGB")
    if actual.size != golden.size:
        actual.save(tmp_path / f"{name}.png")
        pytest.fail(f"{name}: size {actual.size} != golden {golden.size} (see {tmp_path})")
    diff = ImageStat.Stat(ImageChops.difference(actual, golden)).mean
    score = sum(diff) / len(diff)
    if score > TOLERANCE:
        actual.save(tmp_path / f"{name}.png")
        pytest.fail(f"{name}: mean difference {score:.2f} > {TOLERANCE} (actual in {tmp_path})")
