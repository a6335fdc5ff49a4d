"""No module in shipped code is over 700 lines (issue 33: small modules whose names
explain them). Lines as an editor counts them, comments and blank lines included; the
whole of bot/, adapters/ and render/, tests and benchmarks aside."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "adapters", "render")
MAX_LINES = 700


def long_files(root: Path, packages: tuple[str, ...]) -> dict[str, int]:
    """``path`` → line count, for every ``.py`` file over MAX_LINES lines."""
    out: dict[str, int] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                out[path.relative_to(root).as_posix()] = lines
    return out


def test_no_module_is_over_seven_hundred_lines() -> None:
    too_long = long_files(ROOT, SHIPPED)
    assert not too_long, f"modules over {MAX_LINES} lines (split them by concern): {too_long}"


def test_the_check_sees_a_long_module(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg" / "sub"
    pkg.mkdir(parents=True)
    (pkg / "short.py").write_text("x = 1\n" * MAX_LINES)
    (pkg / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (pkg / "notes.txt").write_text("x\n" * (MAX_LINES + 5))  # not Python: not counted
    assert long_files(tmp_path, ("pkg",)) == {"pkg/sub/long.py": MAX_LINES + 1}
