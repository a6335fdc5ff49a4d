"""A page's action request → one of the existing Command types.

The page sends what was tapped (``op`` and, for plays, the cards in RULES notation); this
module finds the action among those the seat's ``PlayMenu`` offers now and refuses
anything else, as a stale button is refused in the chats. The manager checks again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import parse
from bot.engine.errors import GoujiError
from bot.table import Act, Actor, AskCount, ChatRef, Command, PrivateSnapshot, Ready, SetAutoplay

from .payload import SIMPLE_OPS

CARD_OPS = {"play": ActionKind.PLAY, "burn": ActionKind.BURN}
MAX_CARDS = 40  # no play or return holds more characters than this


@dataclass(frozen=True, slots=True)
class Refused:
    """Not a command: the text key of the reason (``stale``: not offered now)."""

    key: str


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _cards(body: Mapping[str, object]) -> tuple[int, ...] | None:
    raw = body.get("cards")
    if not isinstance(raw, str) or not 0 < len(raw) <= MAX_CARDS:
        return None
    try:
        return parse(raw)
    except GoujiError:
        return None


def game_action(body: Mapping[str, object], priv: PrivateSnapshot) -> Action | Refused:
    """The menu's action this request names, or why there is none."""
    op = body.get("op")
    if op in CARD_OPS:
        cards = _cards(body)
        action = Action(CARD_OPS[str(op)], cards) if cards is not None else None
    elif op == "return":
        cards = _cards(body)
        target = _int(body.get("target"))
        action = Action(ActionKind.RETURN_TRIBUTE, cards, target) if cards else None
    else:
        ranks = body.get("ranks")
        action = next(
            (
                a
                for a in priv.menu.simple
                if SIMPLE_OPS.get(a.kind) == op and (a.ranks is None or a.ranks.value == ranks)
            ),
            None,
        )
        return action if action is not None else Refused("stale")
    if action is None:
        return Refused("web_bad_request")
    return action if priv.menu.allows(action) else Refused("stale")


def command_of(
    body: Mapping[str, object], chat: ChatRef, actor: Actor, priv: PrivateSnapshot
) -> Command | Refused:
    """The Command for a page's request by the player at ``priv``'s seat."""
    op = body.get("op")
    if not isinstance(op, str):  # a list or an object is no op (and not hashable)
        return Refused("web_bad_request")
    if op == "autoplay":
        on = body.get("on")
        return (
            SetAutoplay(chat=chat, actor=actor, on=on)
            if isinstance(on, bool)
            else Refused("web_bad_request")
        )
    if op == "ready":
        return Ready(chat=chat, actor=actor)
    if op == "count":
        target = _int(body.get("target"))
        if target is None or not 1 <= target <= 6:
            return Refused("web_bad_request")
        return AskCount(chat=chat, actor=actor, target=target)
    version = _int(body.get("version"))
    if version is None:
        return Refused("web_bad_request")
    if version != priv.version:
        return Refused("stale")
    action = game_action(body, priv)
    if isinstance(action, Refused):
        return action
    return Act(chat=chat, actor=actor, action=action, version=version)
