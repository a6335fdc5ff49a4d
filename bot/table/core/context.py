"""What every step of the core works with: the table being changed, the inputs from outside
(time, the group's settings, the AI), and what the step has to say (outputs, finished hands).

Nothing here reads a clock, a database or a network: the shell passes ``now`` and the rest
in ``Env``, so a step is a function of its inputs and replays the same way every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, assert_never

from ...ai import Policy
from ...engine import events as ev
from ...engine.actions import Action
from ...engine.events import Event, EventKind
from ...engine.game import apply
from ...engine.state import SEATS
from ..codes import NoteCode, NoteKey, NoticeCode
from ..model import GroupSettings, SeatInfo
from ..outputs import Deadline, DeadlineKind, Notice, Out, PrivateNote, Reply, params_of
from ..record import Table

# Events only their two seats see: (text for the giver, text for the receiver).
PRIVATE_NOTICES = {
    EventKind.TRIBUTE_GIVEN: (NoteCode.NOTE_TRIBUTE_PAID, NoteCode.NOTE_TRIBUTE_RECEIVED),
    EventKind.TRIBUTE_RETURNED: (NoteCode.NOTE_RETURN_PAID, NoteCode.NOTE_RETURN_RECEIVED),
}


class Announce(Enum):
    """How the table announces an event."""

    NOTICE = "notice"
    MINOR = "minor"  # plays, passes and trick ends: the table image shows them already
    NOT = "not"  # the deal, whose turn it is, 报户 (answered on its own), the hand's end


def announce(e: Event) -> Announce:
    """Whether a public event becomes a notice (text ``ev_<kind>``); a new kind of event is
    a type error here until it is decided."""
    match e:
        case ev.Played() | ev.Passed() | ev.Ranged() | ev.TrickWon():
            return Announce.MINOR
        case (
            ev.Revolted()
            | ev.Voided()
            | ev.Waived()
            | ev.Declared()
            | ev.Burned()
            | ev.BurnReleased()
            | ev.BurnSucceeded()
            | ev.BurnFailed()
            | ev.Caught()
            | ev.Opened()
            | ev.PointFailed()
            | ev.FoursDiscarded()
            | ev.WentOut()
            | ev.FreePlay()
            | ev.TributeGiven()
            | ev.TributeReturned()
            | ev.Bought()
            | ev.HuiCalled()
            | ev.ChongdianCalled()
            | ev.ChongdianResult()
        ):
            return Announce.NOTICE
        case (
            ev.Dealt()
            | ev.HandDealt()
            | ev.TributeCards()
            | ev.ReturnCards()
            | ev.PlayStarts()
            | ev.Lead()
            | ev.FoursFreed()
            | ev.CountAnswered()
            | ev.HandOver()
        ):
            return Announce.NOT
        case _:
            assert_never(e)


def seat_rng(hand_seed: int, step: int, seat: int, purpose: str) -> random.Random:
    """An AI seat's rng for one decision: a hand replays from its seed and actions, and a
    decision worked out ahead (``bot.table.ahead``) is the one taken at the turn."""
    return random.Random(f"{hand_seed}:{step}:{seat}:{purpose}")


@dataclass(frozen=True, slots=True)
class Config:
    """How long the table waits for people (seconds); 0 means it does not wait."""

    burn_window_seconds: float = 3.0
    declare_window_seconds: float = 12.0
    between_hands_seconds: float = 12.0
    warn_before_seconds: float = 10.0
    no_answer_seconds: int = 12  # the turn timer when the seat can only pass


@dataclass(frozen=True, slots=True)
class Env:
    """The inputs of one step that come from outside the table."""

    now: float
    settings: GroupSettings  # the group's settings as they are now
    config: Config
    policy: Policy
    new_seed: int = 0  # the match seed, should this step open a table
    # Told the table and the seat just before an AI seat takes its turn decision (in the
    # thread that runs the step): the shell shows a seat that thinks long (``thinking``).
    # An observer only: it reads the table at once and changes nothing.
    watch: Callable[[Table, int], None] | None = None
    # Told the step's outputs so far at the same moments (in the same thread): a front end
    # that owns its one table (the terminal) shows a run of AI moves as they are made, not
    # once the whole run is decided. An observer only: the outputs are committed and
    # published after the step as always (and a step that fails publishes none).
    live: Callable[[tuple[Out, ...]], None] | None = None
    # A player's action is answered before the AI seats move: the step applies it and
    # leaves an ``AI`` deadline due now instead of playing the AI seats' answers (the
    # shell runs them at once in a step of their own; after a crash, the deadline does).
    # The same moves follow, from the same seeds: only the step boundary moves.
    ai_later: bool = False


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand to record for /stats and replays (the shell stores it with the table)."""

    deal_no: int
    record: dict[str, Any]
    players: tuple[tuple[str, str, int, int], ...]  # user id, name, place, points


@dataclass(frozen=True, slots=True)
class Step:
    """What a step made of the table, its answer to the sender, and what it has to say."""

    table: Table | None
    reply: Reply
    outs: tuple[Out, ...] = ()
    finished: tuple[FinishedHand, ...] = ()
    fresh: bool = False  # a new table at this chat: nothing of it is stored yet


@dataclass(slots=True)
class Ctx:
    t: Table
    env: Env
    outs: list[Out] = field(default_factory=list)
    finished: list[FinishedHand] = field(default_factory=list)

    # -- the table --------------------------------------------------------------------
    def bump(self) -> None:
        """The table changed: new version (stale buttons are refused), redraw it."""
        self.t.version += 1
        self.t.run.dirty = True

    def set_seat(self, seat: int, info: SeatInfo | None) -> None:
        self.t.seats[seat - 1] = info

    def set_autoplay(self, seat: int, on: bool) -> None:
        info = self.t.seats[seat - 1]
        if info is not None:
            self.t.seats[seat - 1] = replace(info, autoplay=on)

    def ai_plays(self, seat: int) -> bool:
        info = self.t.seats[seat - 1]
        return info is None or info.ai_plays

    def name(self, seat: int) -> str:
        info = self.t.seats[seat - 1] if seat in SEATS else None
        return info.name if info else f"#{seat}"

    def ai_rng(self, seat: int, purpose: str) -> random.Random:
        st = self.t.run.state
        return seat_rng(self.t.hand_seed, st.step if st is not None else 0, seat, purpose)

    # -- the engine -------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one action through the log; raises IllegalAction, changing nothing."""
        assert self.t.run.state is not None
        state, events = apply(self.t.run.state, seat, action)
        self.t.run.state = state
        self.t.log = (*self.t.log, (seat, action))
        self.bump()
        self.notices(events)
        return events

    # -- deadlines --------------------------------------------------------------------
    def set_deadline(self, kind: DeadlineKind, seconds: float, step: int = -1) -> None:
        self.t.run.warned = False
        at = self.env.now + seconds if seconds else None
        self.t.run.deadline = Deadline(kind, at, step, float(seconds) if seconds else None)

    def waiting(self, kind: DeadlineKind, step: int = -1) -> bool:
        """Whether the table already waits for this (so its timer is not restarted)."""
        d = self.t.run.deadline
        return d is not None and d.kind is kind and d.step == step

    def clear_deadline(self) -> None:
        self.t.run.deadline = None

    def advance_later(self) -> None:
        """Leave the AI seats' moves to a step of their own, due at once (``Env.ai_later``)."""
        self.t.run.warned = False
        self.t.run.deadline = Deadline(DeadlineKind.AI, self.env.now)

    # -- outputs ----------------------------------------------------------------------
    def notice(self, key: NoticeCode, **params: object) -> None:
        seat = params.get("seat")
        if isinstance(seat, int) and "name" not in params:
            params["name"] = self.name(seat)
        self.outs.append(Notice(self.t.key, key, params_of(**params)))

    def private_note(self, seat: int, key: NoteKey, **params: object) -> None:
        info = self.t.seats[seat - 1]
        if info is not None and info.user_id is not None:
            self.outs.append(PrivateNote(self.t.key, info.user_id, key, params_of(**params)))

    def notices(self, events: list[Event]) -> None:
        for e in events:
            if not e.is_public():
                self.private_notes(e)
                continue
            how = announce(e)
            if how is Announce.NOT:
                continue
            params: dict[str, object] = dict(e.params())
            if e.seat is not None:
                params["seat"] = e.seat
                params["name"] = self.name(e.seat)
            minor = how is Announce.MINOR
            self.outs.append(
                Notice(self.t.key, NoticeCode.of_event(e.kind), params_of(**params), minor=minor)
            )

    def private_notes(self, e: Event) -> None:
        """Cards only two seats see (tribute and its return) go to those two players."""
        if not isinstance(e, ev.TributeCards | ev.ReturnCards):
            return
        keys = PRIVATE_NOTICES[e.kind]
        names = {"name": self.name(e.seat), "target_name": self.name(e.target)}
        for viewer in e.visible_to:
            key = keys[0] if viewer == e.seat else keys[1]
            self.private_note(viewer, key, giver=e.seat, **e.params(), **names)
