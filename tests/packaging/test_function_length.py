"""No function in shipped code is longer than 50 lines (issue 14: a manager you can read).

ruff checks complexity (C901 at 12); length it cannot, so this test reads every function
in bot/, adapters/ and render/ with ``ast``. A function counts from its ``def`` line (or
its first decorator) to its last line, docstring and comments included.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "adapters", "render")
MAX_LINES = 50


def long_functions(root: Path, packages: tuple[str, ...]) -> dict[str, int]:
    """``path:name`` → length, for every function over MAX_LINES lines."""
    out: dict[str, int] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    assert node.end_lineno is not None
                    length = node.end_lineno - first + 1
                    if length > MAX_LINES:
                        out[f"{path.relative_to(root).as_posix()}:{node.name}"] = length
    return out


def test_no_function_is_over_fifty_lines() -> None:
    too_long = long_functions(ROOT, SHIPPED)
    assert not too_long, f"functions over {MAX_LINES} lines: {too_long}"


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (pkg / "m.py").write_text(f"def short():\n    return 1\n\n\nasync def long():\n{body}\n")
    assert long_functions(tmp_path, ("pkg",)) == {"pkg/m.py:long": MAX_LINES + 1}
