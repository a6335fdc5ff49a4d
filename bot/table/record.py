"""A table as the core works on it: the saved record, and the runtime state beside it.

``Table`` holds what is saved (``to_json`` / ``table_from_json``) plus the actions of the
deal in play; ``Runtime`` holds what is rebuilt after a restart and never stored (the engine
state replayed from the log, the current deadline, an open burn window, what each player's
private view last showed). Adapter caches (message ids) are not here at all: the shell keeps
them beside the table (see ``TableManager.set_meta``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.actions import Action
from ..engine.rules import Rules, make_rules, overrides_of, upgrade_overrides
from ..engine.state import (
    NO_STREAKS,
    STREAK_EXEMPT,
    HandResult,
    HandState,
    Tribute,
    tribute_kind_of,
)
from .model import ChatRef, GroupSettings, MatchRecord, SeatInfo, TableStatus
from .outputs import Deadline


@dataclass(frozen=True, slots=True)
class BurnWindow:
    """Burns declared while the window around a 够级牌 is open, and the held turn action."""

    step: int
    declared: tuple[tuple[int, Action], ...] = ()
    queued: tuple[int, Action] | None = None

    def declare(self, seat: int, action: Action) -> BurnWindow:
        kept = tuple((s, a) for s, a in self.declared if s != seat)
        return replace(self, declared=(*kept, (seat, action)))


@dataclass(slots=True)
class Runtime:
    state: HandState | None = None
    deadline: Deadline | None = None
    warned: bool = False
    window: BurnWindow | None = None
    window_step: int = -1
    last_result: HandResult | None = None
    private_sig: dict[int, tuple[object, ...]] = field(default_factory=dict)
    dirty: bool = True  # the table message should be redrawn
    # 报户 questions answered at the current version: (version, asker, target seat).
    asked: frozenset[tuple[int, str, int]] = frozenset()

    def copy(self) -> Runtime:
        return replace(self, private_sig=dict(self.private_sig))


@dataclass(slots=True)
class Table:
    # -- the saved record ------------------------------------------------------------
    chat: ChatRef
    creator: str
    settings: GroupSettings
    match_seed: int
    seats: list[SeatInfo | None] = field(default_factory=lambda: [None] * 6)
    status: TableStatus = TableStatus.LOBBY
    spectators: frozenset[str] = frozenset()
    match: MatchRecord = field(default_factory=MatchRecord)
    deal_no: int = 0
    hand_seed: int = 0
    hand_leader: int = 0
    hand_owed: tuple[Tribute, ...] = ()
    hand_streaks: tuple[int, ...] = NO_STREAKS  # 点 streaks the current hand was dealt with
    rules: Rules | None = None
    turn_seconds: int = 45
    version: int = 0
    next_leader: int | None = None
    declare_open: bool = False
    ready: frozenset[int] = frozenset()
    log: tuple[tuple[int, Action], ...] = ()  # the deal in play (saved as action rows)
    # Per seat, the keyboard version its last accepted action came from (saved with the
    # table, so a double tap right after a restart is still told "already played").
    played: tuple[tuple[int, int], ...] = ()
    # -- rebuilt on load, never saved -------------------------------------------------
    run: Runtime = field(default_factory=Runtime)

    def copy(self) -> Table:
        """A copy the core may change; the caller's table stays as it was."""
        return replace(self, seats=list(self.seats), run=self.run.copy())

    @property
    def key(self) -> str:
        return self.chat.key

    # Read-only views of the runtime, for queries and tests.
    @property
    def state(self) -> HandState | None:
        return self.run.state

    @property
    def deadline(self) -> Deadline | None:
        return self.run.deadline

    def seat_of(self, user_id: str) -> int | None:
        for i, info in enumerate(self.seats):
            if info is not None and info.user_id == user_id:
                return i + 1
        return None

    def played_from(self, seat: int) -> int | None:
        """The keyboard version this seat's last accepted action came from."""
        return next((v for s, v in self.played if s == seat), None)

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
                "history": list(self.match.history),
            },
            "deal_no": self.deal_no,
            "hand_seed": self.hand_seed,
            "hand_leader": self.hand_leader,
            "hand_owed": [t.to_json() for t in self.hand_owed],
            "hand_streaks": list(self.hand_streaks),
            "rules": None if rules is None else {"preset": rules.preset, **overrides_of(rules)},
            "turn_seconds": self.turn_seconds,
            "version": self.version,
            "next_leader": self.next_leader,
            "declare_open": self.declare_open,
            "ready": sorted(self.ready),
            "played": [list(p) for p in self.played],
        }


def table_from_json(rec: dict[str, Any]) -> Table:
    """The saved record (without its actions: the shell replays those)."""
    m = rec.get("match", {})
    totals = list(m.get("totals", [0, 0]))
    rules = upgrade_overrides(rec.get("rules") or {})  # a table saved under rules v1 still loads
    settings = GroupSettings.from_json(rec["settings"])
    return Table(
        chat=ChatRef.from_key(rec["chat"]),
        creator=rec["creator"],
        settings=settings,
        match_seed=int(rec["match_seed"]),
        seats=[SeatInfo.from_json(s) if s else None for s in rec["seats"]],
        status=TableStatus(rec["status"]),
        spectators=frozenset(rec.get("spectators", [])),
        match=MatchRecord(
            int(m.get("hand_no", 0)),
            (int(totals[0]), int(totals[1])),
            tuple(m.get("history", [])),
        ),
        deal_no=int(rec.get("deal_no", 0)),
        hand_seed=int(rec.get("hand_seed", 0)),
        hand_leader=int(rec.get("hand_leader", 0)),
        hand_owed=tuple(
            Tribute(int(x["from"]), int(x["to"]), int(x["count"]), tribute_kind_of(x["kind"]))
            for x in rec.get("hand_owed", [])
        ),
        hand_streaks=_streaks(rec.get("hand_streaks")),
        rules=make_rules(rules.pop("preset"), rules) if rules else None,
        turn_seconds=int(rec.get("turn_seconds", settings.turn_seconds)),
        version=int(rec.get("version", 0)),
        next_leader=rec.get("next_leader"),
        declare_open=bool(rec.get("declare_open", False)),
        ready=frozenset(rec.get("ready", [])),
        played=_played(rec.get("played")),
    )


def _played(raw: Any) -> tuple[tuple[int, int], ...]:
    """Stored (seat, version) pairs; a record from before they were kept has none."""
    if not isinstance(raw, list):
        return ()
    return tuple(
        (p[0], p[1])
        for p in raw
        if isinstance(p, list) and len(p) == 2 and all(type(n) is int for n in p)
    )


def _streaks(raw: Any) -> tuple[int, ...]:
    """Stored 点 streaks; a record from before they were kept (or a bad one) has none."""
    if (
        isinstance(raw, list)
        and len(raw) == 6
        and all(type(n) is int and 0 <= n <= STREAK_EXEMPT for n in raw)
    ):
        return tuple(raw)
    return NO_STREAKS
