"""Golden images: each case in render.golden must still look like its stored PNG.

After an intended visual change, regenerate with ``python -m render.golden tests/render/golden``
and look at every image before committing (docs/render.md). The tolerance is
``render.golden.TOLERANCE``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from render.golden import CASES, golden_problem

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, tmp_path: Path) -> None:
    problem = golden_problem(name, CASES[name], GOLDEN_DIR, tmp_path)
    assert problem is None, f"{problem} (regenerate: python -m render.golden)"
