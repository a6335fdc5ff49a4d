"""The one build step pyproject.toml cannot say: the engine's hot modules compiled by mypyc.

The expert's playouts spend their time in the rules engine's transitions and the fast
rollout (docs/perf.md, "Compiled playouts"). Those modules are mypy --strict clean, so
mypyc compiles them to C as they are: a playout runs about 2.5 times as fast, move for move
the same (``.ci/run`` plays the same playouts on both builds and compares them).

- A wheel (``pip install .``) compiles them when a C compiler is found; without one, or
  with ``GOUJI_PURE_BUILD=1``, it installs them as Python, as does a failed compile.
- An editable install (``pip install -e .``) is always Python: the module you edit is the
  module that runs, and tests may patch it. ``COMPILED`` lists what a wheel compiles.

Only internals are compiled: ``bot.engine.game`` (the public entry that checks every
argument, a float seat included) and ``bot.engine.state`` (the records that cross process
boundaries by pickle) stay Python, as does everything above the engine but the expert's
playouts and their deals (``bot.ai.rollout``, ``bot.ai.deal``).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = (
    "bot/engine/seats.py",
    "bot/engine/cards.py",
    "bot/engine/plays.py",
    "bot/engine/movegen.py",
    "bot/engine/mutable.py",
    "bot/engine/ending.py",
    "bot/engine/tricks.py",
    "bot/engine/transition.py",
    "bot/engine/queries.py",
    "bot/engine/chongdian.py",
    "bot/ai/rollout.py",
    "bot/ai/deal.py",
)
PURE_ENV = "GOUJI_PURE_BUILD"


def wants_compiled(argv: list[str]) -> bool:
    """Compile for a wheel only (not an editable install, an sdist or metadata), where a
    C compiler is found and ``GOUJI_PURE_BUILD`` is not set."""
    if os.environ.get(PURE_ENV, "").strip() not in ("", "0"):
        return False
    if "bdist_wheel" not in argv:
        return False
    compiler = os.environ.get("CC", "cc").split() or ["cc"]  # CC may carry flags
    return shutil.which(compiler[0]) is not None


def ext_modules(argv: list[str]) -> list[Any]:
    if not wants_compiled(argv):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without mypy: the pure modules
        print("gouji: mypyc not found, the engine installs as Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(list(COMPILED), opt_level="3"))
    except Exception as exc:  # mypyc refused a module (another mypy's checks): Python
        print(
            f"gouji: mypyc cannot compile the engine ({exc}); it installs as Python",
            file=sys.stderr,
        )
        return []


class OptionalBuildExt(build_ext):
    """A compile that fails leaves the wheel pure: the .py modules are always in it, and
    no half-built set of extensions (a module without the shared runtime) is kept."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing header, a compiler error: any of them
            print(
                f"gouji: compiling the engine failed ({exc}); it installs as Python",
                file=sys.stderr,
            )
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)


setup(ext_modules=ext_modules(sys.argv), cmdclass={"build_ext": OptionalBuildExt})
