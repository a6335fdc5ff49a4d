"""What the bot shows: card text, captions, and the images (through render/).

Only ``private_caption`` and ``hand_text`` ever read a hand; they are used for the
player's own private chat and nowhere else. Group captions are built from the table
snapshot (a PublicView) and public notices.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

from bot.ai import Role
from bot.engine.cards import EMPTY, NOTATION, Counts, parse
from bot.engine.rules import PresetName
from bot.engine.state import HandResult, Phase, SeatStatus
from bot.engine.views import PublicView, SeatPublic
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.table import PrivateSnapshot, TableSnapshot, TableStatus

_JOKERS = {"zh": ("小王", "大王"), "en": ("SJ", "BJ")}


def _symbol(index: int, lang: Lang) -> str:
    ch = NOTATION[index]
    if ch == "T":
        return "10"
    if ch in "SB":
        small, big = _JOKERS["en" if lang == "en" else "zh"]
        return small if ch == "S" else big
    return ch


def cards_text(counts: Sequence[int], lang: Lang, high_first: bool = False) -> str:
    """``888 22 小王``; long runs as ``10×5``, so a label stays readable on a phone."""
    order = range(len(counts) - 1, -1, -1) if high_first else range(len(counts))
    parts = []
    for i in order:
        n = counts[i]
        if not n:
            continue
        sym = _symbol(i, lang)
        if len(sym) == 1 and n <= 4:
            parts.append(sym * n)
        elif n == 1:
            parts.append(sym)
        else:
            parts.append(f"{sym}×{n}")
    return " ".join(parts)


def notation_text(notation: str, lang: Lang) -> str:
    return cards_text(parse(notation), lang)


def rank_label(base: int, lang: Lang) -> str:
    if base == 0:
        return t("tg_jokers", lang)
    if base == 15:
        return "2"
    return _symbol(base - 3, lang)


def team_of(seat: int) -> str:
    return "1-3-5" if seat % 2 else "2-4-6"


# -- group -----------------------------------------------------------------------------
def table_caption(snap: TableSnapshot, notices: Sequence[str], lang: Lang) -> str:
    preset = preset_name(snap.settings.preset, lang)
    if snap.status is TableStatus.LOBBY:
        taken = sum(1 for s in snap.seats if s is not None)
        lines = [t("tg_cap_lobby_head", lang, preset=preset, n=taken), *notices]
        lines.append(t("tg_cap_lobby", lang))
        return "\n".join(lines)[:1000]
    a, b = snap.totals
    lines = [t("tg_cap_head", lang, preset=preset, hand_no=max(1, snap.hand_no), a=a, b=b)]
    lines += list(notices)
    lines.append(_status_line(snap, lang))
    return "\n".join(line for line in lines if line)[:1000]


def _status_line(snap: TableSnapshot, lang: Lang) -> str:
    if snap.status is TableStatus.FINISHED:
        return t("tg_cap_finished", lang)
    if snap.status is TableStatus.BETWEEN:
        return t("tg_cap_between", lang)
    pub = snap.public
    if pub is None:
        return ""
    if pub.phase is Phase.RETURN_TRIBUTE:
        return t("tg_cap_return", lang)
    if snap.declare_open:
        return t("tg_cap_declare", lang)
    if snap.window_open:
        return t("tg_cap_window", lang)
    if snap.thinking is not None:
        return t("ai_thinking", lang, seat=snap.thinking, name=snap.name_of(snap.thinking))
    if pub.to_act is not None:
        return t("tg_cap_turn", lang, seat=pub.to_act, name=snap.name_of(pub.to_act))
    return ""


def lobby_view(snap: TableSnapshot) -> PublicView:
    """A table with names and no cards, so the lobby message is already the table image
    that play will edit in place (empty seats drawn greyed)."""
    seats = tuple(
        SeatPublic(
            seat=i + 1,
            status=SeatStatus.PLAYING if line is not None else SeatStatus.OUT,
            count=None,
            reported=None,
            last=None,
            opened=False,
            burning=False,
            headless=False,
            caught=False,
            place=None,
        )
        for i, line in enumerate(snap.seats)
    )
    return PublicView(
        preset=snap.settings.preset,
        rules=snap.rules or snap.settings.rules(),
        phase=Phase.PLAY,
        leader=1,
        to_act=None,
        top_seat=None,
        top_cards=None,
        top_gouji=False,
        free_play=False,
        seats=seats,
        out_order=(),
        result=None,
        step=0,
        leading=False,
        played=EMPTY,
    )


def seat_names(snap: TableSnapshot, lang: Lang) -> tuple[str, ...]:
    empty = "（空位）" if lang != "en" else "(empty)"
    return tuple(line.name if line else empty for line in snap.seats)


def autoplay_seats(snap: TableSnapshot) -> frozenset[int]:
    return frozenset(line.seat for line in snap.seats if line is not None and line.autoplay)


def table_image_key(snap: TableSnapshot) -> Hashable:
    """Everything the table image shows: equal keys mean the picture need not be sent again."""
    lang = snap.settings.lang
    return (
        snap.status,
        snap.hand_no,
        snap.public,
        seat_names(snap, lang),
        autoplay_seats(snap),
        lang,
    )


# -- private ---------------------------------------------------------------------------
def hand_text(hand: Counts, lang: Lang) -> str:
    return t("tg_hand_line", lang, n=sum(hand), cards=cards_text(hand, lang, high_first=True))


def private_caption(priv: PrivateSnapshot, snap: TableSnapshot, lang: Lang) -> str:
    pub = priv.view.public
    lines = [
        t("tg_you_are", lang, hand_no=max(1, snap.hand_no), seat=priv.seat, team=team_of(priv.seat))
    ]
    lines.append(_role_line(priv, snap, lang))
    lines.append(hand_text(priv.view.hand, lang))
    for seat, cards in priv.view.teammates:
        mate = t("tg_teammate", lang, seat=seat, name=snap.name_of(seat))
        lines.append(f"{mate}{cards_text(cards, lang, high_first=True)}")
    if pub.top_cards and priv.role not in ("turn", "burn"):
        top = notation_text(pub.top_cards, lang)
        lines.append(t("top_play", lang, seat=pub.top_seat, cards=top))
    return "\n".join(lines)[:1000]


def _role_line(priv: PrivateSnapshot, snap: TableSnapshot, lang: Lang) -> str:
    pub = priv.view.public
    if priv.autoplay:
        return t("tg_role_auto", lang)
    if priv.role is Role.TURN:
        if pub.top_cards and pub.top_seat is not None and pub.top_seat != priv.seat:
            top = notation_text(pub.top_cards, lang)
            return t("tg_role_turn", lang, seat=pub.top_seat, cards=top)
        return t("tg_role_lead", lang)
    if priv.role is Role.BURN and pub.top_cards:
        return t("tg_role_burn", lang, seat=pub.top_seat, cards=notation_text(pub.top_cards, lang))
    if priv.role is Role.RETURN:
        owed = [(a.target, sum(a.cards or ())) for a in priv.legal if a.target is not None]
        if owed:
            seat, count = owed[0]
            return t("tg_role_return", lang, seat=seat, count=count)
    if priv.role is Role.PRE_PLAY or snap.declare_open:
        return t("tg_role_pre", lang)
    if priv.view.public.seats[priv.seat - 1].status is not SeatStatus.PLAYING or pub.result:
        return t("tg_role_done", lang)
    return t("tg_role_wait", lang)


def hand_image_key(priv: PrivateSnapshot) -> Hashable:
    pub = priv.view.public
    me = pub.seats[priv.seat - 1]
    marks = (me.opened, me.burning, me.status, me.headless, me.caught, me.place)
    return (priv.view.hand, priv.view.teammates, priv.autoplay, marks, pub.to_act == priv.seat)


# -- images ----------------------------------------------------------------------------
class Renderer(Protocol):
    """PNG bytes for the three images; tests swap in a fast fake."""

    def table(self, snap: TableSnapshot) -> bytes: ...

    def hand(self, priv: PrivateSnapshot, names: Sequence[str]) -> bytes: ...

    def result(
        self,
        result: HandResult,
        names: Sequence[str],
        totals: tuple[int, int],
        lang: Lang,
        hand_no: int,
        preset: PresetName,
        sweep_multiplier: int | None,
    ) -> bytes: ...


class PillowRenderer:
    def table(self, snap: TableSnapshot) -> bytes:
        from render import render_table, to_png

        lang = snap.settings.lang
        public = snap.public if snap.public is not None else lobby_view(snap)
        img = render_table(
            public,
            seat_names(snap, lang),
            max(1, snap.hand_no),
            lang=lang,
            autoplay=autoplay_seats(snap),
        )
        png: bytes = to_png(img)
        return png

    def hand(self, priv: PrivateSnapshot, names: Sequence[str]) -> bytes:
        from render import render_hand, to_png

        img = render_hand(
            priv.view,
            lang=priv.lang,
            autoplay=priv.autoplay,
            name=names[priv.seat - 1],
            mate_names=names,
        )
        png: bytes = to_png(img)
        return png

    def result(
        self,
        result: HandResult,
        names: Sequence[str],
        totals: tuple[int, int],
        lang: Lang,
        hand_no: int,
        preset: PresetName,
        sweep_multiplier: int | None,
    ) -> bytes:
        from render import result_png

        return result_png(result, names, totals, lang, hand_no, preset, sweep_multiplier)
