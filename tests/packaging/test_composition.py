"""The table manager is composed, not inherited (issue 33, item 2): its repository and
publisher are ports (``bot.table.ports``), so nothing subclasses it, and neither side of
the manager/cluster seam reaches into the other's private members.

Both rules are read from the code with ``ast``:

* no class in bot/ or adapters/ has ``TableManager`` among its bases;
* in the modules on either side of the seam (the manager, its local implementation and
  ports, the cluster), no attribute starting with ``_`` is read or written on anything
  but ``self`` / ``cls``; and nowhere in bot/ or adapters/ is a private member of the
  manager or of its repositories (a ``self._x`` they define) reached through another
  object.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "adapters")
# The modules on both sides of the manager/cluster seam.
SEAM = (
    "bot/table/manager.py",
    "bot/table/local.py",
    "bot/table/ports.py",
    "bot/table/memory.py",
    "bot/table/sinks.py",
    "bot/table/persist.py",
    "bot/cluster",
)
# The classes whose private members are theirs alone.
OWNERS = {
    "bot/table/manager.py": "TableManager",
    "bot/table/local.py": "LocalRepository",
    "bot/table/memory.py": "TableMemory",
    "bot/table/sinks.py": "Sinks",
    "bot/cluster/shell.py": "SharedTables",
}


def _modules(root: Path, packages: tuple[str, ...]) -> list[tuple[str, ast.Module]]:
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            out.append((rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)))
    return out


def _base_name(base: ast.expr) -> str:
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def subclasses_of(name: str, modules: list[tuple[str, ast.Module]]) -> list[str]:
    return [
        f"{rel}:{node.name}"
        for rel, tree in modules
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(_base_name(b) == name for b in node.bases)
    ]


def _private(attr: str) -> bool:
    return attr.startswith("_") and not attr.startswith("__")


def _own(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def private_reaches(modules: list[tuple[str, ast.Module]], seam: tuple[str, ...]) -> list[str]:
    """``path:line attr`` for each private attribute reached on another object."""
    return [
        f"{rel}:{node.lineno} {node.attr}"
        for rel, tree in modules
        if any(rel == s or rel.startswith(s + "/") for s in seam)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and _private(node.attr) and not _own(node)
    ]


def private_members(modules: list[tuple[str, ast.Module]]) -> set[str]:
    """The private names the seam's classes define: ``self._x = …`` and ``def _x``."""
    names: set[str] = set()
    for rel, tree in modules:
        owner = OWNERS.get(rel)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ClassDef) and node.name == owner):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(inner.name)
                if isinstance(inner, ast.Attribute) and _own(inner):
                    names.add(inner.attr)
    return {n for n in names if _private(n)}


def test_nothing_subclasses_the_table_manager() -> None:
    found = subclasses_of("TableManager", _modules(ROOT, SHIPPED))
    assert not found, f"subclasses of TableManager: {found}"


def test_no_private_member_is_reached_across_the_seam() -> None:
    modules = _modules(ROOT, SHIPPED)
    assert not private_reaches(modules, SEAM)
    members = private_members(modules)
    assert {"_thinking", "_privates", "_sync", "_versions", "_tables"} <= members
    reached = [
        f"{rel}:{node.lineno} {node.attr}"
        for rel, tree in modules
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in members and not _own(node)
    ]
    assert not reached, f"private members reached from outside: {reached}"


def test_the_checks_see_a_subclass_and_a_reach(tmp_path: Path) -> None:
    pkg = tmp_path / "bot" / "cluster"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text(
        "from bot.table import manager\n"
        "class Shell(manager.TableManager):\n"
        "    def f(self, m):\n"
        "        self._mine = 1\n"
        "        return m._reply_sinks\n",
        encoding="utf-8",
    )
    modules = _modules(tmp_path, ("bot",))
    assert subclasses_of("TableManager", modules) == ["bot/cluster/x.py:Shell"]
    assert private_reaches(modules, ("bot/cluster",)) == ["bot/cluster/x.py:5 _reply_sinks"]
