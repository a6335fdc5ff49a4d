"""AI levels: ``policy_for(level, rules)`` is how a table picks the policy for its AI seats.

- ``easy``: ``HeuristicPolicy``, the first rule-of-thumb player (fast, no card counting).
- ``normal``: ``NormalPolicy``, the lecture's rule player with card tracking, which
  searches free-play endgames (``endgame``).
- ``expert``: ``ExpertPolicy``, determinized playouts on top of ``normal``.

A searching level (``expert``, and ``normal`` in endgames: both have ``choose_searching``)
is best asked off the event loop: ``decide_async``.

To add a level: write a Policy (``bot.ai.base.Policy``), add its name to ``Level`` and a
branch to ``policy_for``, and a pairing to ``benchmarks/ai.py``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, get_args

from ..engine.rules import Rules
from .base import Policy
from .heuristic import HeuristicPolicy
from .normal import NormalPolicy


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    EXPERT = "expert"


# The level names as a type, for settings that store one (``GroupSettings.ai_level``).
LevelName = Literal["easy", "normal", "expert"]
LEVELS: tuple[LevelName, ...] = get_args(LevelName)
DEFAULT_LEVEL = Level.NORMAL


class UnknownLevel(ValueError):
    """A level name that is not one of ``LEVELS``."""


def policy_for(level: str, rules: Rules | None = None) -> Policy:
    """A fresh policy for ``level``; ``rules`` default to the rules each view carries."""
    try:
        lv = Level(level)
    except ValueError:
        raise UnknownLevel(
            f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}"
        ) from None
    if lv is Level.EASY:
        return HeuristicPolicy(rules)
    if lv is Level.NORMAL:
        return NormalPolicy(rules)
    from .expert import ExpertPolicy

    return ExpertPolicy(rules)


def without_search(policy: Policy) -> Policy:
    """The policy a table uses where it cannot wait for a search (还贡, 革命/明点, burn
    windows): a searching policy's own ``fallback`` (the expert's is ``normal``)."""
    fallback = getattr(policy, "fallback", None)
    return fallback if fallback is not None else policy
