"""A seat's private button's ``custom_id`` op ↔ the ``Control`` it stands for
(bot/present/controls.py). The menus' half-made choices are ``views.Pick``; this is the
one place that reads the buttons' ops.

    pass rang rev pt pp waive chong hui3 hui4 hui34   the actions without cards
    P<cards> B<cards>        play / burn these cards (``c`` in front: the suggested one)
    R<giver>.<cards>         return these cards to the giver
    decline ready auto1 auto0 refresh hint
"""

from __future__ import annotations

from typing import Final

from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.present.controls import Control, Op

from .custom_ids import decode_counts, encode_counts

_FIXED: Final = {
    "pass": Control.act(Action(ActionKind.PASS)),
    "rang": Control.act(Action(ActionKind.RANG)),
    "rev": Control.act(Action(ActionKind.REVOLT)),
    "pt": Control.act(Action(ActionKind.DECLARE_POINT)),
    "pp": Control.act(Action(ActionKind.DECLARE_POINT, pre=True)),
    "waive": Control.act(Action(ActionKind.WAIVE)),
    "chong": Control.act(Action.chongdian()),
    **{f"hui{r.value}": Control.act(Action.hui(r)) for r in HuiRanks},
    "decline": Control(Op.DECLINE),
    "ready": Control(Op.READY),
    "auto1": Control(Op.AUTOPLAY, on=True),
    "auto0": Control(Op.AUTOPLAY, on=False),
    "refresh": Control(Op.REFRESH),
    "hint": Control(Op.HINT),
}
_FIXED_OPS: Final = {c: op for op, c in _FIXED.items()}
_CARD_OPS: Final = {"P": ActionKind.PLAY, "B": ActionKind.BURN}
SUGGESTED: Final = "c"


def op_of(control: Control) -> str:
    """The custom-id op of ``control``'s button (a suggestion's is told apart: one view
    may hold the same play twice, as a suggestion and as the play picked)."""
    fixed = _FIXED_OPS.get(control.plain())
    if fixed is not None:
        return fixed
    a = control.action
    if a is not None and a.cards is not None and a.kind in (ActionKind.PLAY, ActionKind.BURN):
        letter = "P" if a.kind is ActionKind.PLAY else "B"
        head = SUGGESTED if control.reason is not None else ""
        return f"{head}{letter}{encode_counts(a.cards)}"
    if a is not None and a.cards is not None and a.kind is ActionKind.RETURN_TRIBUTE:
        return f"R{a.target}.{encode_counts(a.cards)}"
    raise ValueError(f"no button for {control.op}")


def control_of(op: str) -> Control | None:
    """The control a private button stands for; None if it is none of ours (or malformed)."""
    fixed = _FIXED.get(op)
    if fixed is not None:
        return fixed
    if op.startswith(SUGGESTED):
        op = op[1:]
    head, body = op[:1], op[1:]
    if head in _CARD_OPS:
        cards = decode_counts(body)
        return None if cards is None else Control.act(Action(_CARD_OPS[head], cards))
    if head == "R":
        giver_text, dot, code = body.partition(".")
        cards = decode_counts(code)
        if not dot or giver_text not in ("1", "2", "3", "4", "5", "6") or cards is None:
            return None
        return Control.act(Action(ActionKind.RETURN_TRIBUTE, cards, int(giver_text)))
    return None
