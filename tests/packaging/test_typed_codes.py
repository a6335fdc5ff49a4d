"""Front ends compare codes, not strings (issue 33.3): a reply carries a ``ReplyCode`` (or
the engine's ``ErrorCode``), a notice a ``NoticeCode``, a private note a ``NoteCode``.
No module of adapters/ (nor of bot/) compares a ``.key`` with a string or a collection of
strings."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.engine.errors import ErrorCode
from bot.engine.events import EventKind
from bot.i18n.texts import has_text
from bot.table import NoteCode, NoticeCode, ReplyCode

ROOT = Path(__file__).resolve().parents[2]


def _has_string(node: ast.AST, names: dict[str, ast.AST]) -> bool:
    """Whether an operand is a string, or a literal collection (or a module-level name
    bound to one, or ``frozenset({...})``) holding one."""
    match node:
        case ast.Constant(value=str()):
            return True
        case ast.Tuple(elts=elts) | ast.List(elts=elts) | ast.Set(elts=elts):
            return any(_has_string(e, names) for e in elts)
        case ast.Call(func=ast.Name(id="frozenset" | "set" | "tuple"), args=[arg]):
            return _has_string(arg, names)
        case ast.Name(id=name) if name in names:
            return _has_string(names[name], names)
    return False


def _is_key(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "key"


def string_key_compares(source: str) -> list[int]:
    tree = ast.parse(source)
    names: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = stmt.value
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(map(_is_key, sides)) and any(_has_string(s, names) for s in sides):
                found.append(node.lineno)
    return found


def test_no_adapter_compares_a_key_with_a_string() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in ("adapters", "bot")
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in string_key_compares(path.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_check_finds_string_compares() -> None:
    code = """
QUIET = frozenset({"ok"})
CODES = frozenset({ReplyCode.OK})
if reply.key == "stale": ...
if out.key in ("a", "b"): ...
if reply.key not in QUIET: ...
if reply.key in CODES or reply.key == ReplyCode.STALE or chat.name == "x": ...
"""
    assert string_key_compares(code) == [4, 5, 6]


def test_every_code_is_its_text_key() -> None:
    """The catalogue texts did not change: each code's value is a key with a text."""
    errors = {e.value for e in ErrorCode}
    for code in ReplyCode:  # the engine's refusals a table also answers have their own
        assert code.value in errors or (has_text(code, "zh") and has_text(code, "en")), code
    for note in NoteCode:
        assert has_text(note, "zh") and has_text(note, "en"), note
    events = {NoticeCode.of_event(kind) for kind in EventKind}
    assert {NoticeCode(f"ev_{kind.value}") for kind in EventKind} == events
    for notice in set(NoticeCode) - events:
        assert has_text(notice, "zh") and has_text(notice, "en"), notice
