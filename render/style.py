"""Colours and shared drawing helpers. High contrast first: images are read on phones."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from .fonts import draw_text, text_width

RGB = tuple[int, int, int]

FELT: RGB = (18, 82, 52)
FELT_DARK: RGB = (12, 60, 38)
FELT_LIGHT: RGB = (30, 110, 72)
PANEL: RGB = (250, 249, 244)
PANEL_OUT: RGB = (214, 218, 214)
INK: RGB = (22, 22, 22)
INK_SOFT: RGB = (90, 90, 90)
WHITE: RGB = (255, 255, 255)
CARD_RED: RGB = (206, 22, 32)
CARD_BLACK: RGB = (20, 20, 20)
GOLD: RGB = (255, 196, 0)
TURN: RGB = (255, 221, 51)

# 联邦 (teams): seats 1-3-5 and 2-4-6. Orange and blue stay apart from the red card suits
# and read well for the common colour-vision deficiencies.
TEAM_COLOURS: dict[int, RGB] = {1: (232, 89, 12), 0: (25, 113, 194)}

BADGE_COLOURS: dict[str, RGB] = {
    "opened": (43, 138, 62),
    "burning": (201, 42, 42),
    "revolted": (112, 72, 232),
    "autoplay": (96, 96, 96),
    "headless": (230, 119, 0),
    "caught": (134, 46, 156),
    "dead": (73, 80, 87),
    "free": (12, 133, 153),
    "gouji": (201, 42, 42),
    "turn": (240, 180, 0),
}


def team_colour(seat: int) -> RGB:
    return TEAM_COLOURS[seat % 2]


def badge(
    draw: ImageDraw.ImageDraw,
    x: float,
    cy: float,
    text: str,
    size: int,
    bg: RGB,
    fg: RGB = WHITE,
    anchor: str = "l",
) -> int:
    """A filled pill with text; returns its width. ``anchor`` l/r says which end is at x."""
    pad = round(size * 0.45)
    w = text_width(text, size) + 2 * pad
    h = round(size * 1.45)
    if anchor == "r":
        x -= w
    elif anchor == "m":
        x -= w / 2
    draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=h // 2, fill=bg)
    draw_text(draw, (x + pad, cy), text, size, fg)
    return w


def to_png(img: Image.Image) -> bytes:
    """PNG bytes of a 256-colour palette version of ``img``.

    Flat card-table art loses nothing visible in a palette (no dithering, so no noise),
    and the file is about a third of the RGB one. The palette comes from a one-third-size
    copy and is then applied to the full image: that halves the time of an adaptive
    palette over every pixel, and encoding a palette image is faster than RGB at any level.
    """
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    palette = rgb.reduce(3).quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    pal = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
