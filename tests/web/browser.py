"""Debian's chromium driven by Playwright for Python (never ``playwright install``): the
browser the CI image installs with apt. Without it the browser tests are skipped on a
developer's machine and fail in CI (``CI=true``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GOUJI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def need_chromium() -> None:
    missing = not Path(CHROMIUM).exists()
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing = True
    if missing and os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI needs chromium at {CHROMIUM} and the playwright package (.ci/run)")
    if missing:
        pytest.skip("no chromium / playwright here (CI installs both)")


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


def shot_dir(tmp_path: Path) -> Path:
    """Where the screenshots go: ``GOUJI_WEB_SCREENSHOTS`` (docs/images for the README),
    else the test's own temporary directory."""
    target = Path(os.environ.get("GOUJI_WEB_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target
