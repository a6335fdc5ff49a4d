"""The leaderboard as lines of text, the same on every platform."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import t
from ..i18n.catalogue import Lang
from ..store import PlayerStats


def leaderboard_lines(rows: Sequence[PlayerStats], lang: Lang) -> list[str]:
    """One line per player, best first, numbered from 1."""
    return [
        t(
            "stats_line",
            lang,
            i=i,
            name=r.name,
            points=r.points,
            hands=r.hands,
            firsts=r.firsts,
            lasts=r.lasts,
        )
        for i, r in enumerate(rows, start=1)
    ]
