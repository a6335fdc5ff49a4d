"""A live table as the manager keeps it, and its JSON form in the store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.rules import Rules, make_rules, overrides_of
from ..engine.state import HandResult, HandState, Tribute
from .model import ChatRef, GroupSettings, MatchRecord, SeatInfo, TableStatus
from .outputs import Deadline, Json


@dataclass
class BurnWindow:
    step: int
    declared: dict[int, Action] = field(default_factory=dict)
    queued: tuple[int, Action] | None = None


@dataclass
class Table:
    chat: ChatRef
    creator: str
    settings: GroupSettings
    match_seed: int
    seats: list[SeatInfo | None] = field(default_factory=lambda: [None] * 6)
    status: TableStatus = TableStatus.LOBBY
    spectators: set[str] = field(default_factory=set)
    match: MatchRecord = field(default_factory=MatchRecord)
    deal_no: int = 0
    hand_seed: int = 0
    hand_leader: int = 0
    hand_owed: tuple[Tribute, ...] = ()
    rules: Rules | None = None
    turn_seconds: int = 45
    state: HandState | None = None
    log: list[tuple[int, Action]] = field(default_factory=list)
    saved: int = 0
    version: int = 0
    deadline: Deadline | None = None
    warned: bool = False
    window: BurnWindow | None = None
    window_step: int = -1
    declare_open: bool = False
    thinking: int = -1  # the step a searching AI is deciding off the event loop (not stored)
    ready: set[int] = field(default_factory=set)
    next_leader: int | None = None
    last_result: HandResult | None = None
    private_sig: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    pending_records: list[tuple[dict[str, Any], list[tuple[str, str, int, int]]]] = field(
        default_factory=list
    )
    stored_deal: int | None = None  # the deal whose actions the store holds
    meta: dict[str, Json] = field(default_factory=dict)
    dirty: bool = True

    @property
    def key(self) -> str:
        return self.chat.key

    def seat_of(self, user_id: str) -> int | None:
        for i, info in enumerate(self.seats):
            if info is not None and info.user_id == user_id:
                return i + 1
        return None

    def humans(self) -> list[int]:
        return [i + 1 for i, s in enumerate(self.seats) if s is not None and not s.is_ai]

    def live(self) -> bool:
        return self.status is not TableStatus.FINISHED

    def to_json(self) -> dict[str, Any]:
        rules = self.rules
        return {
            "chat": self.chat.key,
            "creator": self.creator,
            "settings": self.settings.to_json(),
            "match_seed": self.match_seed,
            "seats": [s.to_json() if s else None for s in self.seats],
            "status": self.status.value,
            "spectators": sorted(self.spectators),
            "match": {
                "hand_no": self.match.hand_no,
                "totals": list(self.match.totals),
                "history": self.match.history,
            },
            "deal_no": self.deal_no,
            "hand_seed": self.hand_seed,
            "hand_leader": self.hand_leader,
            "hand_owed": [t.to_json() for t in self.hand_owed],
            "rules": None if rules is None else {"preset": rules.preset, **overrides_of(rules)},
            "turn_seconds": self.turn_seconds,
            "version": self.version,
            "next_leader": self.next_leader,
            "declare_open": self.declare_open,
            "ready": sorted(self.ready),
            "meta": self.meta,
        }


def table_from_json(rec: dict[str, Any]) -> Table:
    chat = ChatRef.from_key(rec["chat"])
    t = Table(
        chat=chat,
        creator=rec["creator"],
        settings=GroupSettings.from_json(rec["settings"]),
        match_seed=int(rec["match_seed"]),
    )
    t.seats = [SeatInfo.from_json(s) if s else None for s in rec["seats"]]
    t.status = TableStatus(rec["status"])
    t.spectators = set(rec.get("spectators", []))
    m = rec.get("match", {})
    t.match = MatchRecord(
        int(m.get("hand_no", 0)), list(m.get("totals", [0, 0])), list(m.get("history", []))
    )
    t.deal_no = int(rec.get("deal_no", 0))
    t.hand_seed = int(rec.get("hand_seed", 0))
    t.hand_leader = int(rec.get("hand_leader", 0))
    t.hand_owed = tuple(
        Tribute(int(x["from"]), int(x["to"]), int(x["count"]), str(x["kind"]))
        for x in rec.get("hand_owed", [])
    )
    rules = rec.get("rules")
    if rules:
        preset = rules.pop("preset")
        t.rules = make_rules(preset, rules)
    t.turn_seconds = int(rec.get("turn_seconds", t.settings.turn_seconds))
    t.version = int(rec.get("version", 0))
    t.next_leader = rec.get("next_leader")
    t.declare_open = bool(rec.get("declare_open", False))
    t.ready = set(rec.get("ready", []))
    t.meta = dict(rec.get("meta", {}))
    t.dirty = True
    return t
