"""What a page is sent, laid out once per change and shared by the table's pages.

Every page of a table woken by one change would otherwise build and serialise the same
public table again (five spectators, one player: six times), and the player's page its
list of plays on every wake-up. The public part is laid out once per hub generation (one
per wake-up of the table), a player's part once per private snapshot (the manager keeps
one per seat and state); each page only compares and sends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.table import PrivateSnapshot, TableManager, TableSnapshot
from bot.table.cache import BoundedDict

from ..bounded import CHATS
from .auth import Seat
from .hub import Hub
from .payload import JsonObj, deadline_json, private_json, public_json


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Laid:
    generation: int | None
    snap: TableSnapshot
    public: str  # public_json, serialised


@dataclass(frozen=True, slots=True)
class Event:
    version: int
    shown: tuple[str, str | None, str]  # what the page sees, the countdown's value apart
    text: str  # the event's JSON: {"public", "deadline", "private"}


class Views:
    def __init__(self, manager: TableManager, hub: Hub) -> None:
        self.manager = manager
        self.hub = hub
        # Only tables with open pages are laid out here; ``forget`` when the last closes.
        self._tables: BoundedDict[str, Laid] = BoundedDict(CHATS)
        self._privates: BoundedDict[str, dict[str, tuple[PrivateSnapshot, str]]] = BoundedDict(
            CHATS
        )

    def forget(self, key: str) -> None:
        """The table's last page closed: keep nothing of it."""
        self._tables.pop(key)
        self._privates.pop(key)

    def table(self, key: str) -> Laid | None:
        generation = self.hub.generation(key)
        laid = self._tables.get(key)
        if laid is not None and generation is not None and laid.generation == generation:
            return laid
        snap = self.manager.snapshot(key)
        if snap is None:
            return None
        laid = Laid(generation, snap, dumps(public_json(snap)))
        self._tables[key] = laid
        return laid

    def private(self, seat: Seat, snap: TableSnapshot) -> str:
        """The seat's own part, serialised ("null": a spectator or no seat here)."""
        if seat.spectator:
            return "null"
        priv = self.manager.private_snapshot(seat.table, seat.user_id)
        if priv is None:
            return "null"
        players = self._privates.get(seat.table)
        if players is None:
            players = self._privates[seat.table] = {}
        known = players.get(seat.user_id)
        if known is not None and known[0] is priv:
            return known[1]
        text = dumps(private_json(priv, snap))
        players[seat.user_id] = (priv, text)
        return text

    def event(self, seat: Seat) -> Event | None:
        """The page's next event as it would be now (None: no such table)."""
        laid = self.table(seat.table)
        if laid is None:
            return None
        private = self.private(seat, laid.snap)
        deadline = deadline_json(laid.snap, self.manager.clock.now())
        text = f'{{"public":{laid.public},"deadline":{dumps(deadline)},"private":{private}}}'
        kind = None if deadline is None else str(deadline["kind"])
        return Event(laid.snap.version, (laid.public, kind, private), text)

    def view(self, seat: Seat) -> JsonObj | None:
        """The same as a dictionary, laid out afresh (``GET /api/state``)."""
        snap = self.manager.snapshot(seat.table)
        if snap is None:
            return None
        out: JsonObj = {
            "public": public_json(snap),
            "deadline": deadline_json(snap, self.manager.clock.now()),
            "private": None,
        }
        if not seat.spectator:
            priv = self.manager.private_snapshot(seat.table, seat.user_id)
            if priv is not None:
                out["private"] = private_json(priv, snap)
        return out
