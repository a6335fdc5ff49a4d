"""The table manager's outputs as JSON, for the outbox: what one worker commits, any
worker can relay to the adapters. Params keep their types (a tuple of ints stays one)."""

from __future__ import annotations

from typing import Any, assert_never

from ..engine.state import Bonus, HandResult, Tribute, bonus_kind_of, tribute_kind_of
from ..table.codes import NoticeCode, note_key
from ..table.outputs import (
    HandChanged,
    HandFinished,
    MatchOver,
    Notice,
    Out,
    Param,
    Params,
    PrivateNote,
    TableChanged,
)


class WireError(ValueError):
    """An outbox payload this version cannot read."""


def _param_json(value: Param) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _param(value: Any) -> Param:
    if isinstance(value, list):
        return tuple(int(v) for v in value)
    if value is None or isinstance(value, str | int):
        return value
    raise WireError(f"bad param {value!r}")


def _params_json(params: Params) -> list[list[Any]]:
    return [[k, _param_json(v)] for k, v in params]


def _params(raw: Any) -> Params:
    return tuple((str(k), _param(v)) for k, v in raw)


def result_to_json(r: HandResult) -> dict[str, Any]:
    return {
        "places": list(r.places),
        "team_scores": list(r.team_scores),
        "seat_points": list(r.seat_points),
        "sweep_team": r.sweep_team,
        "tributes": [t.to_json() for t in r.tributes],
        "voided": r.voided,
        "streaks": list(r.streaks),
        "bonuses": [[b.kind, b.earner, b.payer] for b in r.bonuses],
    }


def result_from_json(raw: dict[str, Any]) -> HandResult:
    scores = raw["team_scores"]
    return HandResult(
        places=tuple(int(s) for s in raw["places"]),
        team_scores=(int(scores[0]), int(scores[1])),
        seat_points=tuple(int(p) for p in raw["seat_points"]),
        sweep_team=raw["sweep_team"],
        tributes=tuple(
            Tribute(int(t["from"]), int(t["to"]), int(t["count"]), tribute_kind_of(t["kind"]))
            for t in raw["tributes"]
        ),
        voided=bool(raw["voided"]),
        streaks=tuple(int(s) for s in raw["streaks"]),
        bonuses=tuple(
            Bonus(bonus_kind_of(k), int(e), int(p)) for k, e, p in raw.get("bonuses", ())
        ),
    )


def out_to_json(out: Out) -> dict[str, Any]:
    match out:
        # The snapshots are never on the wire (a hand's is a player's cards): the worker
        # that delivers the output fills them in from its copy (``bot.table.sinks``).
        case TableChanged(table=table):
            return {"kind": "table", "table": table}
        case HandChanged(table=table, user=user, seat=seat):
            return {"kind": "hand", "table": table, "user": user, "seat": seat}
        case PrivateNote(table, user, key, params):
            return {
                "kind": "private",
                "table": table,
                "user": user,
                "key": key,
                "params": _params_json(params),
            }
        case Notice(table, key, params, minor):
            return {
                "kind": "notice",
                "table": table,
                "key": key,
                "params": _params_json(params),
                "minor": minor,
            }
        case HandFinished(table, hand_no, totals, result):
            return {
                "kind": "finished",
                "table": table,
                "hand_no": hand_no,
                "totals": list(totals),
                "result": result_to_json(result),
            }
        case MatchOver(table, totals, hands, stopped):
            return {
                "kind": "match_over",
                "table": table,
                "totals": list(totals),
                "hands": hands,
                "stopped": stopped,
            }
        case _:
            assert_never(out)


def out_from_json(raw: dict[str, Any]) -> Out:
    try:
        kind, table = raw["kind"], str(raw["table"])
        if kind == "table":
            return TableChanged(table)
        if kind == "hand":
            return HandChanged(table, str(raw["user"]), int(raw["seat"]))
        if kind == "private":
            return PrivateNote(
                table, str(raw["user"]), note_key(str(raw["key"])), _params(raw["params"])
            )
        if kind == "notice":
            return Notice(table, NoticeCode(raw["key"]), _params(raw["params"]), bool(raw["minor"]))
        if kind == "finished":
            totals = raw["totals"]
            return HandFinished(
                table,
                int(raw["hand_no"]),
                (int(totals[0]), int(totals[1])),
                result_from_json(raw["result"]),
            )
        if kind == "match_over":
            totals = raw["totals"]
            return MatchOver(
                table, (int(totals[0]), int(totals[1])), int(raw["hands"]), bool(raw["stopped"])
            )
    except (KeyError, TypeError, IndexError, ValueError) as err:
        raise WireError(f"bad outbox payload: {err!r}") from err
    raise WireError(f"unknown output kind {raw.get('kind')!r}")
