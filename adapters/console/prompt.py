"""What the screen shows at one of your decisions: the short list of plays, the help line
naming what you may type now, and the frame that puts them under the table and your hand.
Pure: each is a function of the snapshots, the language and the painter."""

from __future__ import annotations

from bot.ai import Role
from bot.engine.actions import Action, ActionKind
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.present.controls import Controls
from bot.table import PrivateSnapshot
from bot.table.outputs import TableSnapshot

from .format import Painter, format_hand, format_table, option_label, sorted_options
from .screen import Frame

MAX_LISTED = 4  # the short list of plays: the PlayMenu's suggestions, else the cheapest
# A listed option: the action and, for a suggestion, why it is suggested.
Listed = tuple[Action, str | None]
# The help line's hints, in this order, for what you may do now.
_HINTS = (
    (ActionKind.PASS, "hint_pass"),
    (ActionKind.RANG, "hint_rang"),
    (ActionKind.BURN, "hint_burn"),
    (ActionKind.REVOLT, "hint_revolt"),
    (ActionKind.DECLARE_POINT, "hint_point"),
    (ActionKind.WAIVE, "hint_waive"),
    (ActionKind.HUI, "hint_hui"),
    (ActionKind.CHONGDIAN, "hint_chongdian"),
)


def listed_options(priv: PrivateSnapshot, controls: Controls) -> list[Listed]:
    """The short list at a decision, from the seat's ``Controls`` (what the chats offer),
    with the suggestion's reason where it is one: the suggestions; tribute returns, low
    cards first; else the cheapest plays."""
    offered = controls.actions()
    if controls.returns:
        returns = [a for a in sorted_options(priv.legal) if a.cards and a in offered]
        return [(a, None) for a in returns[:MAX_LISTED]]
    listed: list[Listed] = [
        (s.action, s.reason.value)
        for s in controls.suggestions
        if s.action is not None and s.reason is not None
    ]
    if not listed:
        plays = [a for a in sorted_options(priv.legal) if a.cards and a in offered]
        listed = [(a, None) for a in plays[:MAX_LISTED]]
    # Then what needs no cards (过, 让, 革命, 明点 …), each also a letter of its own.
    return listed[:MAX_LISTED] + [(c.action, None) for c in controls.simple if c.action]


def help_line(priv: PrivateSnapshot, listed: bool, lang: Lang) -> str:
    """Your role and what you may type now (``listed``: a short list is shown to pick from)."""
    kinds = {a.kind for a in priv.legal}
    if kinds == {ActionKind.PASS}:
        return role_line(priv, t("hint_only_pass", lang), lang)
    parts = [t("hint_pick", lang)] if listed else []
    if kinds & {ActionKind.PLAY, ActionKind.BURN, ActionKind.RETURN_TRIBUTE}:
        parts.append(t("hint_cards", lang))
    parts += [t(key, lang) for kind, key in _HINTS if kind in kinds]
    parts.append(t("hint_common", lang))
    hints = "; ".join(parts) if lang == "en" else "；".join(parts)
    return role_line(priv, hints, lang)


def role_line(priv: PrivateSnapshot, hints: str, lang: Lang) -> str:
    """ "Your turn. p pass …" — no space after a Chinese full stop (轮到你出牌。p 过…)."""
    gap = " " if lang == "en" else ""
    return f"{t(f'role_{priv.role}', lang)}{gap}{hints}"


def asked_again(snap: TableSnapshot, priv: PrivateSnapshot) -> bool:
    """You passed this trick and are asked again: the 对头's final say (RULES §7)."""
    pub = snap.public
    rules = snap.rules
    if pub is None or rules is None or priv.role is not Role.TURN or pub.leading:
        return False
    return rules.opposite_final_say and pub.seats[priv.seat - 1].last == "pass"


def decision_frame(
    snap: TableSnapshot,
    priv: PrivateSnapshot,
    listed: list[Listed],
    fresh: list[str],
    lang: Lang,
    paint: Painter,
) -> Frame:
    """The screen at your decision: the table, your hand and the short list on top, the
    help line at the foot, the messages since the last screen (``fresh``) in between."""
    top = [
        *format_table(snap, lang, paint, priv.seat).split("\n"),
        *format_hand(priv, lang, paint).split("\n"),
    ]
    for i, (action, reason) in enumerate(listed, start=1):
        label = option_label(action, lang)
        if reason is not None:
            label = t(f"suggest_{reason}", lang, cards=label)
        top.append(f"  #{i} {label}")
    if asked_again(snap, priv):
        top.append(paint.warn(t("console_asked_again", lang)))
    return Frame(top, [paint.dim(help_line(priv, bool(listed), lang))], fresh)


def not_in_preset(
    kind: ActionKind, kinds: set[ActionKind], snap: TableSnapshot | None
) -> str | None:
    """The text key that says the preset has no such thing at all (the engine would only
    say 'not now'), or None: it is offered, or the preset has it."""
    rules = snap.rules if snap is not None else None
    if kind in kinds or rules is None:
        return None
    if kind is ActionKind.DECLARE_POINT and not (rules.dadian and rules.point_bets):
        return "no_point_bets"
    if kind is ActionKind.REVOLT and rules.revolution == "off":
        return "no_revolution"
    if kind is ActionKind.HUI and rules.hui == "off":
        return "no_hui"
    if kind is ActionKind.CHONGDIAN and not (rules.chongdian and rules.dadian):
        return "no_chongdian"
    return None
