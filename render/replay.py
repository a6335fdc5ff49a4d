"""The step-through image of a finished hand: the table at one frame (the start of play,
the end of a trick, the result) with every seat's whole hand face-up underneath.

Only for records: a record is shown once its hand is over, so the hands are no secret.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.cards import fmt
from bot.engine.state import SEATS
from bot.engine.views import public_view
from bot.i18n.catalogue import Lang
from bot.records.steps import Frame, FrameKind
from bot.records.summary import frame_caption

from .cards import draw_play
from .fonts import draw_text, ellipsize
from .labels import label, seat_name
from .style import FELT, FELT_DARK, GOLD, INK_SOFT, PANEL, WHITE, team_colour, to_png
from .table import GAP, WIDTH, render_table

BAR_H = 76
ROW_H = 86
CARD_H = 66
NAME_W = 190


def _bar(d: ImageDraw.ImageDraw, caption: str, position: str) -> None:
    d.rectangle((0, 0, WIDTH, BAR_H), fill=FELT_DARK)
    right = draw_text(d, (WIDTH - GAP - 4, BAR_H / 2), position, 30, GOLD, anchor="r")
    draw_text(d, (GAP + 4, BAR_H / 2), ellipsize(caption, 30, WIDTH - 3 * GAP - right), 30, WHITE)


def _hands(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    frame: Frame,
    names: Sequence[str],
    y0: int,
    lang: Lang,
) -> None:
    for i, seat in enumerate(SEATS):
        y = y0 + GAP + i * ROW_H
        d.rounded_rectangle((GAP, y, WIDTH - GAP, y + ROW_H - 10), 14, fill=PANEL)
        cx, cy = GAP + 34, y + (ROW_H - 10) / 2
        d.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=team_colour(seat))
        draw_text(d, (cx, cy), str(seat), 28, WHITE, anchor="m")
        name = ellipsize(seat_name(names, seat, lang), 26, NAME_W - 74)
        draw_text(d, (GAP + 66, cy), name, 26, INK_SOFT)
        cards = fmt(frame.state.hands[seat - 1])
        x = GAP + NAME_W
        if cards:
            top = round(cy - CARD_H / 2)
            draw_play(img, cards, x, top, CARD_H, WIDTH - GAP * 2 - x, lang, badge_size=18)
        else:
            draw_text(d, (x, cy), label("no_cards", lang), 26, INK_SOFT)


def render_replay(
    frame: Frame,
    names: Sequence[str],
    hand_no: int,
    position: tuple[int, int],
    lang: Lang = "zh",
) -> Image.Image:
    """The frame's table and all six hands. ``position`` is (this frame, last frame)."""
    view = public_view(frame.state)
    if frame.kind is not FrameKind.START:
        # The seat "to act" in a stored state is only who would have moved next; after a
        # trick or at the end nobody is waiting.
        view = dataclasses.replace(view, to_act=None)
    table = render_table(view, names, hand_no, lang)
    height = BAR_H + table.height + GAP + len(SEATS) * ROW_H + GAP
    img = Image.new("RGB", (WIDTH, height), FELT)
    img.paste(table, (0, BAR_H))
    d = ImageDraw.Draw(img)
    caption = frame_caption(frame, names, lang)
    _bar(d, caption, f"{position[0]}/{position[1]}")
    _hands(img, d, frame, names, BAR_H + table.height, lang)
    return img


def frame_png(
    frame: Frame, names: Sequence[str], hand_no: int, position: tuple[int, int], lang: Lang
) -> bytes:
    """PNG of one frame: what a drawing process gets (a frame, not the whole record)."""
    return to_png(render_replay(frame, names, hand_no, position, lang))
