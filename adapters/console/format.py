"""Text layout for the terminal: colours (when the terminal has them), table, hand, options."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import NOTATION, fmt
from bot.engine.plays import classify
from bot.engine.rules import make_rules
from bot.engine.state import SeatStatus
from bot.engine.views import SeatPublic
from bot.i18n import place_name, preset_name, t
from bot.i18n.catalogue import Lang
from bot.table import PrivateSnapshot, TableSnapshot

_LOOSE = make_rules("dagang")
KIND_ORDER = {
    ActionKind.PLAY: 0,
    ActionKind.BURN: 1,
    ActionKind.PASS: 2,
    ActionKind.RANG: 3,
    ActionKind.RETURN_TRIBUTE: 4,
    ActionKind.REVOLT: 5,
    ActionKind.DECLARE_POINT: 6,
    ActionKind.WAIVE: 7,
    ActionKind.HUI: 8,
    ActionKind.CHONGDIAN: 9,
}


class Painter:
    def __init__(self, color: bool) -> None:
        self.color = color

    def _c(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return self._c("1", text)

    def dim(self, text: str) -> str:
        return self._c("2", text)

    def warn(self, text: str) -> str:
        return self._c("33", text)

    def seat(self, seat: int | None, text: str) -> str:
        if seat is None:
            return text
        return self._c("36" if seat % 2 else "35", text)


def _cost(action: Action) -> tuple[int, ...]:
    """Cheapest first: fewer 2s and jokers, lower rank, fewer cards."""
    c = action.cards or ()
    if not c:
        return (KIND_ORDER.get(action.kind, 9),)
    p = classify(c, _LOOSE) if action.kind is not ActionKind.RETURN_TRIBUTE else None
    if p is None:
        return (KIND_ORDER[action.kind], *c)
    return (KIND_ORDER[action.kind], p.big, p.small, p.twos, p.base, p.size)


def sorted_options(legal: Sequence[Action]) -> list[Action]:
    return sorted(legal, key=_cost)


def option_label(action: Action, lang: Lang) -> str:
    names = {
        ActionKind.PASS: ("过", "pass"),
        ActionKind.RANG: ("让", "defer"),
        ActionKind.REVOLT: ("革命", "revolt"),
        ActionKind.WAIVE: ("放弃够死级", "waive sure plays"),
        ActionKind.CHONGDIAN: ("冲点", "冲点 (three pure plays)"),
    }
    if action.kind in names:
        return names[action.kind][0 if lang == "zh" else 1]
    if action.kind is ActionKind.HUI and action.ranks is not None:
        r = action.ranks.value
        return f"烩 {r}（u{r}）" if lang == "zh" else f"烩: set the {r}s aside (u{r})"
    if action.kind is ActionKind.DECLARE_POINT:
        zh, en = ("预点", "pre-point") if action.pre else ("明点", "declare point")
        return zh if lang == "zh" else en
    cards = fmt(action.cards or ())
    if action.kind is ActionKind.BURN:
        return ("烧 " if lang == "zh" else "burn ") + cards
    if action.kind is ActionKind.RETURN_TRIBUTE:
        return ("还贡 " if lang == "zh" else "return ") + cards
    return cards


def format_hand(priv: PrivateSnapshot, lang: Lang, paint: Painter) -> str:
    hand = priv.view.hand
    groups = [NOTATION[i] * n for i in range(len(hand) - 1, -1, -1) if (n := hand[i])]
    label = "你的牌" if lang == "zh" else "Your hand"
    total = sum(hand)
    lines = [paint.bold(f"{label} ({total}): ") + " ".join(groups)]
    for seat, cards in priv.view.teammates:
        lines.append(f"  #{seat}: {fmt(cards)}")
    return "\n".join(lines)


def seat_marks(sp: SeatPublic, lang: Lang, burning: bool = True) -> list[str]:
    """A seat's marks: 革命, 开点, 烧 (unless ``burning`` is off) and its place."""
    marks = []
    if sp.status is SeatStatus.REVOLTED:
        marks.append("革命" if lang == "zh" else "revolt")
    if sp.opened:
        marks.append("开点" if lang == "zh" else "open")
    if burning and sp.burning:
        marks.append("烧" if lang == "zh" else "burning")
    if sp.place is not None:
        marks.append(place_name(sp.place, lang))
    return marks


def last_play_text(last: str | None, lang: Lang) -> str:
    """What a seat did this trick: its cards, 过 or 让."""
    if last == "pass":
        return "过" if lang == "zh" else "pass"
    if last == "rang":
        return "让" if lang == "zh" else "defer"
    return last or ""


def format_table(snap: TableSnapshot, lang: Lang, paint: Painter) -> str:
    pub = snap.public
    head = f"— {preset_name(snap.settings.preset, lang)} · #{snap.hand_no} —"
    lines = [paint.dim(head)]
    if pub is None:
        return "\n".join(lines)
    for sp in pub.seats:
        marks = seat_marks(sp, lang)
        count = "" if sp.count is None else f" [{sp.count}]"
        last = last_play_text(sp.last, lang)
        turn = "▶" if pub.to_act == sp.seat else " "
        name = snap.name_of(sp.seat)
        text = f"{turn} {sp.seat} {name}{count} {' '.join(marks)}  {last}".rstrip()
        lines.append(paint.seat(sp.seat, text))
    if pub.top_cards:
        top = t("top_play", lang, seat=pub.top_seat, cards=pub.top_cards)
        lines.append(paint.bold(top))
    return "\n".join(lines)
