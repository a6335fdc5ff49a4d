"""What both repositories write of a step, and how both rebuild a deal: once.

A table's record is saved whole at each step, its deal's actions only as they are
added (``LogSync`` remembers how many the store holds); a table read back replays its
deal's actions from the deal's seed (or from a held copy of the same deal)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.game import apply, new_hand
from ..engine.state import HandState, Tribute
from ..store import HandWrite, TableWrite
from .core import FinishedHand
from .model import GroupSettings
from .record import Table


@dataclass(slots=True)
class LogSync:
    """What the store already holds of a table's current deal: its number (None:
    nothing of this table yet) and how many of its actions."""

    deal: int | None = None
    saved: int = 0


def step_write(
    t: Table,
    record: dict[str, Any],
    sync: LogSync,
    finished: Iterable[FinishedHand],
    settings: GroupSettings | None,
    now: float,
) -> TableWrite:
    """One step of ``t`` as one transaction: its record, the actions the store lacks
    (all of a new deal), log housekeeping, finished hands, the group's new settings."""
    # A new table at this chat, or a new deal: earlier actions are of no further use
    # (finished hands keep their full record in the hands table).
    new_deal = sync.deal != t.deal_no
    start = 0 if new_deal else sync.saved
    group = t.chat.group_key
    return TableWrite(
        t.key,
        record,
        t.live(),
        updated=now,
        new_actions=tuple(
            (t.deal_no, i, seat, action.to_json())
            for i, (seat, action) in enumerate(t.log[start:], start=start)
        ),
        drop_all_actions=new_deal and sync.deal is None,
        drop_actions_before=t.deal_no if new_deal and sync.deal is not None else None,
        hands=tuple(HandWrite(group, h.deal_no, h.record, h.players) for h in finished),
        settings=None if settings is None else (group, settings.to_json()),
    )


def saved(sync: LogSync, t: Table) -> None:
    """The store now holds every action of ``t``'s deal."""
    sync.deal, sync.saved = t.deal_no, len(t.log)


def deal_start(
    t: Table,
    owed: tuple[Tribute, ...] | None = None,
    streaks: tuple[int, ...] | None = None,
) -> HandState:
    """The state ``t``'s deal began in (its seed, leader and tributes owed; ``owed`` and
    ``streaks`` when they are not the table's own: a hand that has ended)."""
    assert t.rules is not None
    owed = t.hand_owed if owed is None else owed
    streaks = t.hand_streaks if streaks is None else streaks
    state, _ = new_hand(t.rules, t.hand_seed, t.hand_leader, owed, streaks=streaks)
    return state


def replay(
    t: Table,
    state: HandState,
    played: list[tuple[int, Action]],
    logged: Iterable[tuple[int, dict[str, Any]]],
) -> None:
    """Put the deal back on ``t``: ``state`` after ``played``, then each ``logged``
    action (as stored) applied in order. Raises the engine's error for one that no
    longer applies."""
    for seat, raw in logged:
        action = Action.from_json(raw)
        state, _ = apply(state, seat, action)
        played.append((seat, action))
    t.log = tuple(played)
    t.run.state = state
