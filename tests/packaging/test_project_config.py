"""The project's declared dependencies and CI checks say what the code needs (issue 9, 16-17)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirement(reqs: list[str], name: str) -> str:
    found = [r for r in reqs if re.match(rf"{re.escape(name)}\b", r, re.IGNORECASE)]
    assert len(found) == 1, (name, reqs)
    return found[0]


def test_discord_py_floor_is_the_version_with_dynamic_items() -> None:
    req = _requirement(PROJECT["project"]["dependencies"], "discord.py")
    assert ">=2.4" in req and "<3" in req


def test_no_unused_job_queue_extra() -> None:
    req = _requirement(PROJECT["project"]["dependencies"], "python-telegram-bot")
    assert "job-queue" not in req


def test_linters_have_upper_bounds() -> None:
    test_extra = PROJECT["project"]["optional-dependencies"]["test"]
    for tool in ("ruff", "mypy"):
        assert "<" in _requirement(test_extra, tool), tool


def test_font_builder_tool_is_a_dev_extra() -> None:
    assert any(
        r.startswith("fonttools") for r in PROJECT["project"]["optional-dependencies"]["dev"]
    )


def test_mypy_is_strict_on_all_shipped_packages() -> None:
    mypy = PROJECT["tool"]["mypy"]
    assert mypy["strict"] is True
    assert set(mypy["packages"]) >= {"bot", "adapters", "render"}
    for override in mypy.get("overrides", []):
        assert override.get("follow_imports") != "skip", override
        assert not override.get("ignore_errors"), override


def test_pytest_asyncio_loop_scope_is_set() -> None:
    assert PROJECT["tool"]["pytest"]["ini_options"]["asyncio_default_fixture_loop_scope"]


def test_ci_runs_style_and_type_checks_before_the_tests() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in script.splitlines() if not ln.strip().startswith("#")]
    body = "\n".join(lines)
    assert "set -euo pipefail" in body
    positions = [body.find(s) for s in ("ruff check", "ruff format --check", "mypy", "pytest")]
    assert all(p >= 0 for p in positions), positions
    assert positions == sorted(positions)
