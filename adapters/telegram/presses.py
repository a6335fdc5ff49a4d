"""A private keyboard's button ↔ the ``Control`` it stands for (bot/present/controls.py).

The callback data's ops and argument shapes are ``callback.ACT_OPS``; this is the only
place that reads them. ``control_of`` never raises: ``callback.decode`` has already
checked each argument's shape, and anything else decodes to None.
"""

from __future__ import annotations

from typing import Final

from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import NOTATION, Counts, fmt
from bot.engine.plays import JOKERS_BASE, TWOS_BASE, Play
from bot.present.controls import Control, Nav, Op
from bot.present.playmenu import play_of

from .callback import ActPress

MODES: Final = {ActionKind.PLAY: "p", ActionKind.BURN: "b"}
BASES: Final = frozenset({JOKERS_BASE, TWOS_BASE, *range(3, 15)})
KIND_OF: Final = {"p": ActionKind.PLAY, "b": ActionKind.BURN}
# Ops whose control is one constant (the argument-free ones).
_FIXED: Final = {
    "x": Control.act(Action(ActionKind.PASS)),
    "y": Control.act(Action(ActionKind.RANG)),
    "V": Control.act(Action(ActionKind.REVOLT)),
    "W": Control.act(Action(ActionKind.WAIVE)),
    "C": Control.act(Action.chongdian()),
    "n": Control(Op.DECLINE),
    "K": Control(Op.READY),
    "h": Control(Op.REFRESH),
    "H": Control(Op.HINT),
}
_FIXED_OPS: Final = {c.plain(): op for op, c in _FIXED.items()}


def counts_of(notation: str) -> Counts:
    c = [0] * len(NOTATION)
    for ch in notation:
        c[NOTATION.index(ch)] += 1
    return tuple(c)


def press_of(tid: str, version: int, control: Control) -> ActPress:
    """The button's payload for ``control`` on keyboards drawn at ``version``."""
    op, args = _encode(control)
    return ActPress(tid, version, op, tuple(str(a) for a in args))


def _encode(c: Control) -> tuple[str, tuple[object, ...]]:
    fixed = _FIXED_OPS.get(c.plain())
    if fixed is not None:
        return fixed, ()
    a, nav = c.action, c.nav or Nav()
    if a is not None and a.cards is not None and c.op in (Op.PLAY, Op.BURN):
        return "g", (MODES[a.kind], *play_of(a.cards))
    if a is not None and a.cards is not None and c.op is Op.RETURN:
        return "Q", (a.target, fmt(a.cards))
    if a is not None and c.op is Op.POINT:
        return "D", (1 if a.pre else 0,)
    if a is not None and a.ranks is not None and c.op is Op.HUI:
        return "U", (a.ranks.value,)
    if c.op is Op.AUTOPLAY:
        return "t", (1 if c.on else 0,)
    if c.op is Op.MODE:
        return "r", (_mode(nav.kind),)
    if c.op is Op.RANK:
        return "b", (_mode(nav.kind), nav.base)
    if c.op is Op.SIZE and nav.cards is not None:
        return "v", (_mode(nav.kind), *play_of(nav.cards))
    if c.op is Op.SIZE:
        return "z", (_mode(nav.kind), nav.base, nav.size, nav.page)
    if c.op is Op.PICK:
        return "R", (nav.giver, fmt(nav.cards or counts_of("")))
    raise ValueError(f"no button for {c.op}")


def _mode(kind: ActionKind | None) -> str:
    return "b" if kind is ActionKind.BURN else "p"


def control_of(press: ActPress) -> Control | None:
    """The control a press stands for (None: none of ours)."""
    fixed = _FIXED.get(press.op)
    if fixed is not None:
        return fixed
    op, args = press.op, press.args
    if op in ("g", "v"):
        play = Play(*(int(a) for a in args[1:]))
        if play.base not in BASES:
            return None  # a shape no keyboard makes
        kind = KIND_OF[args[0]]
        if op == "g":
            return Control.act(Action(kind, play.counts()))
        return Control.to(Op.SIZE, Nav(kind, play.base, play.size, cards=play.counts()))
    if op in ("r", "b", "z"):
        ints = [int(a) for a in args[1:]] + [0, 0, 0]
        return Control.to(
            {"r": Op.MODE, "b": Op.RANK, "z": Op.SIZE}[op],
            Nav(KIND_OF[args[0]], ints[0], ints[1], ints[2]),
        )
    return _other(op, args)


def _other(op: str, args: tuple[str, ...]) -> Control | None:
    if op == "Q":
        return Control.act(Action(ActionKind.RETURN_TRIBUTE, counts_of(args[1]), int(args[0])))
    if op == "R":
        return Control.to(
            Op.PICK, Nav(ActionKind.RETURN_TRIBUTE, giver=int(args[0]), cards=counts_of(args[1]))
        )
    if op == "D":
        return Control.act(Action(ActionKind.DECLARE_POINT, pre=args[0] == "1"))
    if op == "U":
        ranks = next((r for r in HuiRanks if r.value == args[0]), None)
        return Control.act(Action.hui(ranks)) if ranks is not None else None
    if op == "t":
        return Control(Op.AUTOPLAY, on=args[0] == "1")
    return None
