"""Text layout for the terminal: colours (when the terminal has them), table, hand, options.

Columns are measured in display width (``screen.width``): a Chinese name takes two columns
a character, so ``str.ljust`` would misalign it against a Latin one."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import NOTATION, fmt
from bot.engine.plays import classify
from bot.engine.rules import make_rules
from bot.engine.state import SeatStatus, opp, same_team
from bot.engine.views import SeatPublic
from bot.i18n import place_name, preset_name, t
from bot.i18n.catalogue import Lang
from bot.table import PrivateSnapshot, TableSnapshot

from .screen import pad, width

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
        ActionKind.PASS: ("过", "pass (过)"),
        ActionKind.RANG: ("让", "defer (让)"),
        ActionKind.REVOLT: ("革命", "revolt (革命)"),
        ActionKind.WAIVE: ("放弃够死级", "give up your sure plays (放弃够死级)"),
        ActionKind.CHONGDIAN: ("冲点", "charge: three pure gouji plays (冲点)"),
    }
    if action.kind in names:
        return names[action.kind][0 if lang == "zh" else 1]
    if action.kind is ActionKind.HUI and action.ranks is not None:
        r = action.ranks.value
        return f"烩 {r}（u{r}）" if lang == "zh" else f"set the {r}s aside (烩, u{r})"
    if action.kind is ActionKind.DECLARE_POINT:
        zh, en = ("预点", "pre-point (预点)") if action.pre else ("明点", "declare a point (明点)")
        return zh if lang == "zh" else en
    cards = fmt(action.cards or ())
    if action.kind is ActionKind.BURN:
        return ("烧 " if lang == "zh" else "burn (烧) ") + cards
    if action.kind is ActionKind.RETURN_TRIBUTE:
        return ("还贡 " if lang == "zh" else "return (还贡) ") + cards
    return cards


def grouped(hand: Sequence[int]) -> str:
    """A hand as a player holds it: high to low, one group a rank (``BB S 2222 AAA``)."""
    return " ".join(NOTATION[i] * n for i in range(len(hand) - 1, -1, -1) if (n := hand[i]))


def seat_name(seat: int, lang: Lang) -> str:
    """A seat as the texts write it ("4 号", "seat 4"), never ``#4`` (that is option 4)."""
    return t("console_seat", lang, seat=seat)


def format_hand(priv: PrivateSnapshot, lang: Lang, paint: Painter) -> str:
    hand = priv.view.hand
    lines = [paint.bold(t("console_hand", lang, n=sum(hand))) + grouped(hand)]
    for seat, cards in priv.view.teammates:
        lines.append(f"  {seat_name(seat, lang)}: {grouped(cards)}")
    return "\n".join(lines)


def team_line(me: int, lang: Lang) -> str:
    """Which team you are on and who your 对头 (the seat opposite) is."""
    team = "-".join(str(s) for s in range(1, 7) if same_team(s, me))
    return t("console_team", lang, team=team, opposite=opp(me))


def header(snap: TableSnapshot, lang: Lang, me: int | None) -> str:
    total = snap.settings.match_hands
    key = "console_head" if total else "console_head_open"
    head = t(key, lang, preset=preset_name(snap.settings.preset, lang), n=snap.hand_no, total=total)
    return head if me is None else f"{head} · {team_line(me, lang)}"


def relation(seat: int, me: int | None, lang: Lang) -> str:
    """对头 or 队友 beside a seat, as seen from yours."""
    if me is None or seat == me or not (seat == opp(me) or same_team(seat, me)):
        return ""
    return t("console_opposite" if seat == opp(me) else "console_mate", lang)


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


def format_table(snap: TableSnapshot, lang: Lang, paint: Painter, me: int | None = None) -> str:
    """The header, one row a seat in aligned columns, and the play on top."""
    pub = snap.public
    lines = [paint.dim(header(snap, lang, me))]
    if pub is None:
        return "\n".join(lines)
    names = max(8, *(width(snap.name_of(s)) for s in range(1, 7)))
    tags = max(width(relation(s, me, lang)) for s in range(1, 7))
    for sp in pub.seats:
        count = "" if sp.count is None else f"[{sp.count}]"
        turn = "▶" if pub.to_act == sp.seat else " "
        cells = (
            pad(snap.name_of(sp.seat), names),
            pad(relation(sp.seat, me, lang), tags),
            pad(count, 4),
            pad(" ".join(seat_marks(sp, lang)), 10),
            last_play_text(sp.last, lang),
        )
        lines.append(paint.seat(sp.seat, f"{turn} {sp.seat} {' '.join(cells)}".rstrip()))
    if pub.top_cards and pub.top_seat is not None:
        top = t("top_play", lang, seat=pub.top_seat, cards=pub.top_cards)
        lines.append(paint.bold(top))
    return "\n".join(lines)
