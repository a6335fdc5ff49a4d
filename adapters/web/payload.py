"""The JSON the page reads: the public table for everyone, and one seat's own hand and
controls for that seat only. Everything here is laid out from the manager's snapshots
(``TableSnapshot``, ``PrivateSnapshot.menu``): which plays are legal, which buttons are
offered and which counts are public is decided in bot/, never here.

Privacy: ``public_json`` reads no hand at all; ``private_json`` reads only the asking
seat's own hand (not 看牌's teammates: the page shows one hand)."""

from __future__ import annotations

from typing import Any

from bot.engine.actions import ActionKind
from bot.engine.cards import fmt
from bot.engine.state import opp
from bot.engine.views import SeatPublic
from bot.present.controls import Control, Controls, asks_of, controls_of
from bot.table import PrivateSnapshot, TableSnapshot

JsonObj = dict[str, Any]

# The op a page sends for each action the menu offers without cards (data-action values).
SIMPLE_OPS: dict[ActionKind, str] = {
    ActionKind.PASS: "pass",
    ActionKind.RANG: "rang",
    ActionKind.REVOLT: "revolt",
    ActionKind.DECLARE_POINT: "declare",
    ActionKind.HUI: "hui",
    ActionKind.CHONGDIAN: "chongdian",
    ActionKind.WAIVE: "waive",
}
DECLINE = "decline"  # not burning: the op of ``Controls.decline``


def _seat_json(snap: TableSnapshot, n: int, line: SeatPublic | None) -> JsonObj:
    seat = snap.seats[n - 1]
    out: JsonObj = {
        "seat": n,
        "name": snap.name_of(n),
        "ai": seat is None or seat.is_ai,
        "autoplay": bool(seat and seat.autoplay),
        "team": (n - 1) % 2,  # seats 1-3-5 and 2-4-6
        "ready": n in snap.ready,
    }
    if line is not None:
        out.update(
            status=line.status.value,
            count=line.count,  # None unless the count rule makes it public
            last=line.last,
            place=line.place,
            burning=line.burning,
            opened=line.opened,
            headless=line.headless,
            caught=line.caught,
        )
    return out


def deadline_json(snap: TableSnapshot, now: float) -> JsonObj | None:
    """The current wait and the seconds left of it (``now`` on the manager's clock)."""
    deadline = snap.deadline
    if deadline is None or deadline.at is None:
        return None
    return {"kind": deadline.kind.value, "in": round(max(0.0, deadline.at - now), 2)}


def public_json(snap: TableSnapshot) -> JsonObj:
    """The table as anyone at it sees it (the countdown apart: ``deadline_json``)."""
    pv = snap.public
    lines = {s.seat: s for s in pv.seats} if pv is not None else {}
    out: JsonObj = {
        "version": snap.version,
        "status": snap.status.value,
        "lang": snap.settings.lang,
        "preset": snap.settings.preset,
        "hand_no": snap.hand_no,
        "match_hands": snap.settings.match_hands,
        "totals": list(snap.totals),
        "seats": [_seat_json(snap, n, lines.get(n)) for n in range(1, 7)],
        "declare_open": snap.declare_open,
        "window_open": snap.window_open,
        "askable": bool(asks_of(snap)),
        "spectators": snap.spectators,
    }
    if pv is not None:
        out.update(
            phase=pv.phase.value,
            to_act=pv.to_act,
            leader=pv.leader,
            top={"seat": pv.top_seat, "cards": pv.top_cards, "gouji": pv.top_gouji},
            out_order=list(pv.out_order),
        )
    if snap.last_result is not None:
        r = snap.last_result
        out["result"] = {"places": list(r.places), "team_scores": list(r.team_scores)}
    return out


def _plays(controls: Controls) -> list[JsonObj]:
    return [
        {"cards": fmt(v.cards), "kinds": [k.value for k in v.kinds]}
        for r in controls.picks
        for s in r.sizes
        for v in s.variants
    ]


def _simple(control: Control) -> JsonObj:
    action = control.action
    if action is None:  # not burning
        return {"op": DECLINE}
    out: JsonObj = {"op": SIMPLE_OPS[action.kind]}
    if action.ranks is not None:
        out["ranks"] = action.ranks.value
    if action.pre:
        out["pre"] = True
    return out


def private_json(priv: PrivateSnapshot, snap: TableSnapshot) -> JsonObj:
    """One seat's own view: its hand, the plays it may make now and the buttons it has
    (``controls_of``: what every front end offers)."""
    controls = controls_of(priv, snap)
    simple = [*controls.simple, *(c for c in (controls.decline,) if c is not None)]
    return {
        "seat": priv.seat,
        "opposite": opp(priv.seat),  # 对头
        "hand": fmt(priv.view.hand),
        "role": priv.role.value if priv.role is not None else None,
        "autoplay": priv.autoplay,
        "plays": _plays(controls),
        "suggest": [
            {"cards": fmt(a.cards or ()), "kind": a.kind.value, "why": s.reason.value}
            for s in controls.suggestions
            if (a := s.action) is not None and s.reason is not None
        ],
        "simple": [_simple(c) for c in simple],
        "returns": [
            {"giver": r.giver, "count": r.count, "options": [fmt(o) for o in r.options]}
            for r in controls.returns
        ],
        "ready": controls.ready is not None,
    }
