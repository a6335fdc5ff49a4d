"""A seat's private hand image: cards grouped by rank, high to low, with a header."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.cards import Counts
from bot.engine.views import SeatView
from bot.i18n.catalogue import Lang

from .cards import Group, card_width, draw_row, groups_of, row_width
from .fonts import draw_text, ellipsize, text_width
from .labels import label, place_label, preset_label, seat_name, status_badges, team_label
from .style import (
    BADGE_COLOURS,
    FELT,
    FELT_DARK,
    GOLD,
    RGB,
    WHITE,
    badge,
    team_colour,
)

CARD_H = 190
MATE_H = 110
STRIP = 0.52  # visible part of an overlapped card, as a share of its width
MAX_GROUPS_PER_ROW = 8  # two short rows read better on a phone than one long one
LIFT = 26  # how far a highlighted group rises
MARGIN = 24
MIN_WIDTH = 640


def split_rows(groups: Sequence[Group], per_row: int = MAX_GROUPS_PER_ROW) -> list[list[Group]]:
    if len(groups) <= per_row:
        return [list(groups)]
    n_rows = -(-len(groups) // per_row)
    size = -(-len(groups) // n_rows)
    return [list(groups[i : i + size]) for i in range(0, len(groups), size)]


def seat_marks(view: SeatView, autoplay: bool, lang: Lang) -> list[tuple[str, RGB]]:
    pub = view.public.seats[view.seat - 1]
    marks = status_badges(pub, lang)
    if autoplay:
        marks.append((label("autoplay", lang), BADGE_COLOURS["autoplay"]))
    if view.public.to_act == view.seat:
        marks.append((label("to_act", lang), BADGE_COLOURS["turn"]))
    return marks


def _subtitle(view: SeatView, lang: Lang) -> str:
    seat = view.seat
    parts = (label("seat", lang, n=seat), team_label(seat, lang))
    return " · ".join((*parts, preset_label(view.public.preset, lang)))


def _header_width(view: SeatView, marks: list[tuple[str, RGB]], lang: Lang) -> int:
    """Width the second header line needs (subtitle and mark badges), so none is cut off."""
    w = MARGIN + 84 + text_width(_subtitle(view, lang), 24) + 16
    w += sum(text_width(t, 22) + round(22 * 0.9) + 8 for t, _ in marks)
    return w + MARGIN


def _header(
    img: Image.Image,
    view: SeatView,
    name: str | None,
    marks: list[tuple[str, RGB]],
    lang: Lang,
) -> None:
    d = ImageDraw.Draw(img)
    w = img.width
    seat = view.seat
    team = team_colour(seat)
    d.rectangle((0, 0, w, 112), fill=FELT_DARK)
    d.rectangle((0, 0, 12, 112), fill=team)
    cx, cy, r = MARGIN + 34, 56, 32
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=team, outline=WHITE, width=3)
    draw_text(d, (cx, cy), str(seat), 38, WHITE, anchor="m")
    x = cx + r + 18
    total = sum(view.hand)
    pub = view.public.seats[seat - 1]
    right = label("cards_total", lang, n=total) if total else ""
    if pub.place is not None:
        right = (place_label(pub.place, lang) + "  " + right).strip()
    rw = draw_text(d, (w - MARGIN, 36), right, 32, GOLD if pub.place else WHITE, anchor="r")
    title = name if name else label("seat", lang, n=seat)
    draw_text(d, (x, 36), ellipsize(title, 36, w - MARGIN - rw - 24 - x), 36, WHITE)
    sub = _subtitle(view, lang)
    sx = x + draw_text(d, (x, 84), sub, 24, (205, 225, 212)) + 16
    for text, colour in marks:
        sx += badge(d, sx, 84, text, 22, colour) + 8


def render_hand(
    view: SeatView,
    lang: Lang = "zh",
    highlight: Counts | None = None,
    autoplay: bool = False,
    name: str | None = None,
    mate_names: Sequence[str] | None = None,
) -> Image.Image:
    """The seat's own hand (private). ``highlight`` lifts the cards of a chosen play;
    ``autoplay`` adds the 托管 mark; ``name`` heads the image (else "N号").
    Teammates' hands (看牌, once this seat is out) follow in a smaller row each;
    ``mate_names`` are all six seats' names, for their labels."""
    h = CARD_H
    strip = round(card_width(h) * STRIP)
    groups = groups_of(view.hand, highlight=highlight)
    rows = split_rows(groups) if groups else []
    lift = LIFT if highlight and any(g.lit for row in rows for g in row) else 0
    cards_w = max((row_width(r, h, strip) for r in rows if r), default=0)
    mates = [(s, c) for s, c in view.teammates if any(c)]
    mate_strip = round(card_width(MATE_H) * STRIP)
    mate_rows = [(s, split_rows(groups_of(c), 15)[0]) for s, c in mates]
    mate_w = max((row_width(r, MATE_H, mate_strip) for _, r in mate_rows), default=0)
    marks = seat_marks(view, autoplay, lang)
    width = max(MIN_WIDTH, cards_w + 2 * MARGIN, mate_w + 2 * MARGIN)
    width = max(width, _header_width(view, marks, lang))
    header_h = 112
    body_h = (h + lift + 18) * len(rows) + 16 if rows else 90
    mates_h = sum(MATE_H + 60 for _ in mate_rows)
    img = Image.new("RGB", (width, header_h + body_h + mates_h + 10), FELT)
    _header(img, view, name, marks, lang)
    d = ImageDraw.Draw(img)
    y = header_h + 16 + lift
    if not rows:
        draw_text(d, (width / 2, header_h + 45), label("no_cards", lang), 34, WHITE, anchor="m")
        y = header_h + body_h
    for row in rows:
        x = (width - row_width(row, h, strip)) // 2
        draw_row(img, row, x, y, h, strip, lang, lifted=lift)
        y += h + lift + 18
    for seat, row in mate_rows:
        who = seat_name(mate_names, seat, lang)
        text = label("teammate_hand", lang, who=ellipsize(who, 26, width / 2))
        draw_text(d, (MARGIN, y + 14), text, 26, (205, 225, 212))
        draw_row(img, row, MARGIN, y + 36, MATE_H, mate_strip, lang, badge_size=20)
        y += MATE_H + 60
    return img
