"""The record of one finished hand: what the store keeps, and its typed form.

A record is the seed, the leader, the tributes given at the start and every applied action;
with the rules that is enough to rebuild the whole hand (the engine is deterministic). The
final object and the places are kept too, so a record can be checked against its replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.rules import Rules, make_rules, overrides_of, upgrade_overrides
from ..engine.state import NO_STREAKS, HandState, Tribute, tribute_kind_of

# 2: the record carries match_id, owed, overrides, names and the final object, and voided
# hands are recorded too. Records of format 1 (places, seed, actions) still load.
RECORD_FORMAT = 2


def record_json(
    *,
    match_id: int,
    hand_no: int,
    deal_no: int,
    seed: int,
    leader: int,
    owed: Sequence[Tribute],
    names: Sequence[str],
    log: Sequence[tuple[int, Action]],
    state: HandState,
    users: Sequence[str | None] = (),
) -> dict[str, Any]:
    """The JSON record of a hand that has ended (played out or voided). ``users``: who
    sat where (the platform's user id, None for an AI seat), so a player can ask for the
    review of their own seat (``/review``)."""
    res = state.result
    assert res is not None, "only an ended hand is recorded"
    rules = state.rules
    return {
        "format": RECORD_FORMAT,
        "match_id": match_id,
        "hand_no": hand_no,
        "deal_no": deal_no,
        "seed": seed,
        "leader": leader,
        "owed": [t.to_json() for t in owed],
        "streaks": list(state.streaks),
        "preset": rules.preset,
        "overrides": overrides_of(rules),
        "names": list(names),
        "users": list(users),
        "voided": res.voided,
        "places": list(res.places),
        "team_scores": list(res.team_scores),
        "sweep": res.sweep_team,
        "tributes": [t.to_json() for t in res.tributes],
        "actions": [[s, a.to_json()] for s, a in log],
        "final": state.final_json(),
    }


def _tribute(raw: Mapping[str, Any]) -> Tribute:
    kind = tribute_kind_of(raw["kind"])
    return Tribute(int(raw["from"]), int(raw["to"]), int(raw["count"]), kind)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A stored hand. ``number`` is its short id in its group (1, 2, … in play order)."""

    number: int
    match_id: int | None
    hand_no: int
    deal_no: int
    seed: int
    leader: int
    owed: tuple[Tribute, ...]
    rules: Rules
    names: tuple[str, ...]
    voided: bool
    places: tuple[int, ...]
    team_scores: tuple[int, int]
    tributes: tuple[Tribute, ...]
    actions: tuple[tuple[int, Action], ...]
    final: Mapping[str, Any] | None
    knows_owed: bool  # format 1 did not keep the tributes given at the start
    streaks: tuple[int, ...] = NO_STREAKS  # 点 streaks the hand was dealt with
    users: tuple[str | None, ...] = ()  # user id by seat (None: AI); () in older records

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` played in this hand, if the record says."""
        for seat, user in enumerate(self.users, 1):
            if user is not None and user == user_id:
                return seat
        return None

    @staticmethod
    def from_json(raw: Mapping[str, Any], number: int = 0) -> HandRecord:
        """Parse a stored record; raises KeyError/ValueError/GoujiError on a broken one."""
        if "overrides" in raw:
            rules = make_rules(str(raw["preset"]), upgrade_overrides(raw["overrides"]))
        else:  # format 1 kept every switch under "rules"
            stored = upgrade_overrides(raw.get("rules") or {})  # saved under rules v1
            switches = {k: v for k, v in stored.items() if k != "preset"}
            rules = make_rules(str(raw.get("preset", "dagang")), switches)
        scores = list(raw.get("team_scores") or [0, 0])
        names = tuple(str(n) for n in raw.get("names") or ())
        return HandRecord(
            number=number,
            match_id=None if raw.get("match_id") is None else int(raw["match_id"]),
            hand_no=int(raw.get("hand_no", 0)),
            deal_no=int(raw.get("deal_no", 0)),
            seed=int(raw["seed"]),
            leader=int(raw["leader"]),
            owed=tuple(_tribute(t) for t in raw.get("owed") or ()),
            rules=rules,
            names=names if len(names) == 6 else tuple(f"#{s}" for s in range(1, 7)),
            voided=bool(raw.get("voided", False)),
            places=tuple(int(s) for s in raw.get("places") or ()),
            team_scores=(int(scores[0]), int(scores[1])),
            tributes=tuple(_tribute(t) for t in raw.get("tributes") or ()),
            actions=tuple((int(s), Action.from_json(a)) for s, a in raw.get("actions") or ()),
            final=raw.get("final"),
            knows_owed="owed" in raw or int(raw.get("hand_no", 0)) <= 1,
            streaks=tuple(int(n) for n in raw.get("streaks") or NO_STREAKS),
            users=_users(raw.get("users")),
        )


def _users(raw: object) -> tuple[str | None, ...]:
    if not isinstance(raw, list) or len(raw) != 6:
        return ()
    return tuple(None if u is None else str(u) for u in raw)
