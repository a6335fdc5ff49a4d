"""Whether a table offers 报户 (asking a seat how many cards it holds), decided once here
for every front end: under ``ask_le10`` / ``ask_lt10`` a player may ask; under
``always`` every count is already on the table, and ``never`` answers nothing."""

from __future__ import annotations

from typing import Final

from ..engine.rules import Rules

ASKABLE_RULES: Final = frozenset({"ask_le10", "ask_lt10"})


def count_askable(rules: Rules | None) -> bool:
    return rules is not None and rules.count_rule in ASKABLE_RULES
