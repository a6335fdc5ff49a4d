"""bot/ names no platform (issue 33.5): what it needs of one is declared by the front end
(``bot.frontend``, ``adapters/frontends.py``). Comments and docstrings may explain with a
platform's name; code — names, strings, SQL — may not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = re.compile(r"telegram|discord|\btg:|\bdc:", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _words(node: ast.AST) -> str | None:
    """The text of a node a reader could find a platform in: a name or a string."""
    match node:
        case ast.Constant(value=str(text)):
            return text
        case ast.Name(id=text) | ast.Attribute(attr=text) | ast.arg(arg=text):
            return text
        case ast.FunctionDef(name=text) | ast.AsyncFunctionDef(name=text) | ast.ClassDef(name=text):
            return text
        case ast.alias(name=text):
            return text
    return None


def platform_names(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    docs = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        text = None if id(node) in docs else _words(node)
        if text is not None and PLATFORM.search(text):
            hits.append((getattr(node, "lineno", 0), text))
    return hits


def test_bot_names_no_platform_in_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for line, text in platform_names(path.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_check_sees_code_and_not_comments() -> None:
    code = '''
"""Telegram in a docstring is fine."""
# so is discord in a comment
def f(key):
    """And tg: here."""
    return key.startswith("tg:")
TOKEN = "GOUJI_DISCORD_TOKEN"
import telegram
class TelegramBot: ...
'''
    lines = sorted(line for line, _ in platform_names(code))
    assert lines == [6, 7, 8, 9]
    assert platform_names("x = 'console:local'  # telegram\n") == []
