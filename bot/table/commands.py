"""Commands: what adapters ask of the table manager, platform-neutral and typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine.actions import Action
from .model import Actor, ChatRef


@dataclass(frozen=True, kw_only=True)
class Command:
    chat: ChatRef
    actor: Actor


@dataclass(frozen=True, kw_only=True)
class OpenTable(Command):
    """/gouji: open a table in this chat (or show the one there is); the opener sits down."""

    sit: bool = True


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    seat: int | None = None


@dataclass(frozen=True, kw_only=True)
class Leave(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class SwapSeat(Command):
    seat: int


@dataclass(frozen=True, kw_only=True)
class Kick(Command):
    seat: int


@dataclass(frozen=True, kw_only=True)
class AddBots(Command):
    count: int = 1


@dataclass(frozen=True, kw_only=True)
class RemoveBot(Command):
    seat: int | None = None


@dataclass(frozen=True, kw_only=True)
class Spectate(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class Start(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class NextHand(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class StopMatch(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class Act(Command):
    """A game action; ``version`` is the table version the button was made for."""

    action: Action
    version: int | None = None


@dataclass(frozen=True, kw_only=True)
class AskCount(Command):
    target: int


@dataclass(frozen=True, kw_only=True)
class SetAutoplay(Command):
    on: bool


@dataclass(frozen=True, kw_only=True)
class Ready(Command):
    """Done with revolts and declarations before the first play."""


@dataclass(frozen=True, kw_only=True)
class ChangeSettings(Command):
    changes: Mapping[str, object] = field(default_factory=dict)
