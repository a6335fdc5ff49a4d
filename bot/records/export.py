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

from ..engine.game import next_leader
from ..engine.rules import overrides_of
from ..engine.state import HandState
from .record import HandRecord
from .replay import RecordCode, RecordError, Replayed, replay

SCENARIO_KEY = "record"  # extra metadata the referee ignores: ids and names

ExportError = RecordError


def _actions(rec: HandRecord) -> list[dict[str, Any]]:
    return [{"seat": seat, **action.to_json()} for seat, action in rec.actions]


def _meta(rec: HandRecord) -> dict[str, Any]:
    return {
        "number": rec.number,
        "match_id": rec.match_id,
        "hand_no": rec.hand_no,
        "seed": rec.seed,
        "names": list(rec.names),
    }


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
    out[SCENARIO_KEY] = [_meta(rec)]
    return out


def _carried_leader(prev: HandState) -> int:
    """The next hand's leader as the referee carries it (RULES §15: a voided hand keeps it)."""
    if prev.result is not None and prev.result.voided:
        return prev.leader
    return next_leader(prev)


def _chains(prev: HandRecord, prev_play: Replayed, rec: HandRecord) -> bool:
    """Whether the table dealt ``rec`` right after ``prev`` as the referee would carry it."""
    if rec.match_id is None or rec.match_id != prev.match_id or rec.deal_no != prev.deal_no + 1:
        return False
    if rec.rules != prev.rules:
        return False  # the group changed its settings between the hands
    final = prev_play.final
    carried = () if final.result is None or final.result.voided else final.result.tributes
    if tuple(rec.owed) != tuple(carried if rec.rules.tribute else ()):
        return False
    return rec.leader == _carried_leader(final)


def match_scenario(recs: Sequence[HandRecord]) -> tuple[dict[str, Any], int]:
    """The first record and the later hands of its match that chain on from it, under
    ``next_hands``. Returns the scenario and how many hands it holds."""
    if not recs:
        raise ValueError("no records")
    first = recs[0]
    scenario = hand_scenario(first)
    prev, prev_play = first, replay(first)
    later: list[dict[str, Any]] = []
    for rec in recs[1:]:
        try:
            played = replay(rec)
        except RecordError:
            break
        if not _chains(prev, prev_play, rec):
            break
        later.append(
            {
                "hands": list(played.dealt),
                "leader": rec.leader,
                "buy_three": True,
                "actions": _actions(rec),
            }
        )
        scenario[SCENARIO_KEY].append(_meta(rec))
        prev, prev_play = rec, played
    if later:
        scenario["next_hands"] = later
    return scenario, 1 + len(later)


__all__ = ["SCENARIO_KEY", "ExportError", "RecordCode", "hand_scenario", "match_scenario"]
