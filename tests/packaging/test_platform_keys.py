"""A key's platform is read in one place (issue 33): each adapter asks its front end's
declaration (``adapters/frontends.py``: ``TELEGRAM.owns(key)``, ``.platform``,
``.key_prefix``) instead of testing for ``"tg:"`` or ``"dc:"`` itself."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECLARED_IN = ROOT / "adapters" / "frontends.py"
KEY_PART = re.compile(r"(tg|dc)(:|$)")  # "tg:", "dc:…", or the bare platform "tg"
# A wording is a catalogue's name for a platform's texts (bot.i18n), not a key.
WORDINGS = frozenset({"use_wording", "wording"})


def _wording_args(tree: ast.AST) -> set[int]:
    args: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in WORDINGS:
                args.update(id(a) for a in node.args)
    return args


def platform_literals(source: str) -> list[int]:
    """Lines with a string (or an f-string's text) that spells a platform's key part."""
    tree = ast.parse(source)
    skip = _wording_args(tree)
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and KEY_PART.match(node.value)
    )


def test_no_adapter_spells_a_platform_key() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "adapters").rglob("*.py"))
        if path != DECLARED_IN
        for line in platform_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_check_finds_prefix_tests_and_built_keys() -> None:
    code = """
if key.startswith("tg:"): ...
chat = ChatRef("dc", "1")
key = f"tg:{chat}:{message}"
use_wording("dc")
own = f"dc_{reply.key}"
ok = TELEGRAM.owns(key)
"""
    assert platform_literals(code) == [2, 3, 4]
    assert platform_literals(DECLARED_IN.read_text(encoding="utf-8"))  # declared there
