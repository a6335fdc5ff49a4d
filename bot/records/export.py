"""Export records as RULES §15 scenario files that ``gouji referee FILE`` replays.

A hand becomes the six hands as dealt, the tributes given at its start (the referee takes
the givers' cards itself, as the table did), ``buy_three`` (the table runs 买3/买4 on
every deal), and every applied action. A match adds its later hands under ``next_hands``:
the referee then carries tributes, the next leader and the match totals itself, so the
export only chains hands whose carry-over the table did the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.match import MatchCarry, carry_over
from ..engine.rules import overrides_of
from .record import HandRecord
from .replay import RecordCode, RecordError, replay

ExportError = RecordError


def _actions(rec: HandRecord) -> list[dict[str, Any]]:
    return [{"seat": seat, **action.to_json()} for seat, action in rec.actions]


def describe(rec: HandRecord) -> str:
    """The file's ``description`` (a documentation key the referee skips): which hand it
    is and who sat where, so a file passed around a chat still says what it records."""
    seats = ", ".join(f"{s} {name}" for s, name in enumerate(rec.names, start=1))
    return (
        f"gouji record #{rec.number} (match {rec.match_id}, hand {rec.hand_no}, "
        f"seed {rec.seed}); seats: {seats}"
    )


def hand_scenario(rec: HandRecord) -> dict[str, Any]:
    """One hand as a scenario; raises ExportError if the record does not replay."""
    played = replay(rec)
    out: dict[str, Any] = {
        "preset": rec.rules.preset,
        "switches": overrides_of(rec.rules),
        "hands": list(played.dealt),
        "leader": rec.leader,
    }
    if rec.owed and rec.rules.tribute:
        out["tributes"] = [t.to_json() for t in rec.owed]
    out["buy_three"] = True
    out["actions"] = _actions(rec)
    out["description"] = describe(rec)
    return out


def _chains(prev: HandRecord, carry: MatchCarry, rec: HandRecord) -> bool:
    """Whether the table dealt ``rec`` right after ``prev`` as the referee carries a match."""
    if rec.match_id is None or rec.match_id != prev.match_id or rec.deal_no != prev.deal_no + 1:
        return False
    if rec.rules != prev.rules:
        return False  # the group changed its settings between the hands
    return tuple(rec.owed) == tuple(carry.owed) and rec.leader == carry.leader


def match_scenario(recs: Sequence[HandRecord]) -> tuple[dict[str, Any], int]:
    """The first record and the later hands of its match that chain on from it, under
    ``next_hands``. Returns the scenario and how many hands it holds."""
    if not recs:
        raise ValueError("no records")
    first = recs[0]
    scenario = hand_scenario(first)
    prev, carry = first, carry_over(MatchCarry(first.leader, first.owed), replay(first).final)
    later: list[dict[str, Any]] = []
    for rec in recs[1:]:
        try:
            played = replay(rec)
        except RecordError:
            break
        if not _chains(prev, carry, rec):
            break
        later.append(
            {
                "hands": list(played.dealt),
                "leader": rec.leader,
                "buy_three": True,
                "actions": _actions(rec),
            }
        )
        prev, carry = rec, carry_over(carry, played.final)
    if later:
        scenario["next_hands"] = later
        scenario["description"] += f"; {len(later)} later hands follow"
    return scenario, 1 + len(later)


__all__ = ["ExportError", "RecordCode", "describe", "hand_scenario", "match_scenario"]
