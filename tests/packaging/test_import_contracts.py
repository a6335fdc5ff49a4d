"""The seams are contracts, not promises (issue 33.6): import-linter checks them.

The contracts live in pyproject.toml (`[tool.importlinter]`); each test here runs the
linter on the real tree, and one runs it on a tree with a forbidden import added, so a
contract that silently checks nothing fails too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ("engine-pure", "bot-no-adapters", "adapters-public-bot")


def _lint(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    # importlinter.cli has no __main__ guard: call the click command `lint-imports` runs.
    run = "from importlinter.cli import lint_imports_command as c; c()"
    args = [sys.executable, "-c", run, "--no-cache"]
    for contract in contracts:
        args += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'data'}"}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_tree_keeps_every_contract() -> None:
    result = _lint(ROOT, *CONTRACTS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def _copy_tree(dest: Path) -> None:
    for name in ("bot", "adapters", "render", "data"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def test_a_forbidden_import_breaks_its_contract(tmp_path: Path) -> None:
    _copy_tree(tmp_path)
    cards = tmp_path / "bot" / "engine" / "cards.py"
    cards.write_text(cards.read_text(encoding="utf-8") + "\nimport bot.table  # noqa\n")
    console = tmp_path / "adapters" / "console" / "__init__.py"
    console.write_text(console.read_text(encoding="utf-8") + "\nimport bot.engine.movegen\n")
    result = _lint(tmp_path, *CONTRACTS)
    assert result.returncode != 0
    assert "1 kept, 2 broken" in result.stdout, result.stdout
