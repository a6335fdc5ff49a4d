"""Card faces drawn in code, cached, and groups of cards (a rank's copies, stacked).

The engine is suitless (count vectors), so suits exist only here, for display: copy k of
rank index i shows suit ``SUITS[(i + k) % 4]``. The same hand always looks the same,
and neighbouring ranks do not all show the same suit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine.cards import I_BIG, I_SMALL, NOTATION, NUM_RANKS, Counts
from bot.i18n.catalogue import Lang

from .fonts import font
from .style import CARD_BLACK, CARD_RED, GOLD, RGB, WHITE, badge

SUITS = ("spade", "heart", "club", "diamond")
RED_SUITS = frozenset({"heart", "diamond"})
RANK_TEXT = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SS = 3  # supersampling factor: PIL shapes have no anti-aliasing of their own
ASPECT = 0.7
SHADOW = 3  # pixels of drop shadow baked into each face image
BIG_JOKER_RED: RGB = (214, 16, 28)
SMALL_JOKER_INK: RGB = (24, 24, 24)


def card_width(h: int) -> int:
    return round(h * ASPECT)


def suit_of(idx: int, copy: int) -> str:
    return SUITS[(idx + copy) % 4]


# ---------------------------------------------------------------------------------------
# Shapes, in a unit box [-1, 1]² scaled to half-size r at (cx, cy)
# ---------------------------------------------------------------------------------------
def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _poly(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    pts: Sequence[tuple[float, float]],
    fill: RGB,
) -> None:
    d.polygon([(cx + x * r, cy + y * r) for x, y in pts], fill=fill)


def draw_suit(d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    if suit == "heart":
        _circle(d, cx - 0.48 * r, cy - 0.38 * r, 0.52 * r, fill)
        _circle(d, cx + 0.48 * r, cy - 0.38 * r, 0.52 * r, fill)
        _poly(d, cx, cy, r, [(-0.98, -0.22), (0.98, -0.22), (0.0, 0.95)], fill)
    elif suit == "diamond":
        _poly(d, cx, cy, r, [(0.0, -1.0), (0.74, 0.0), (0.0, 1.0), (-0.74, 0.0)], fill)
    elif suit == "spade":
        _circle(d, cx - 0.46 * r, cy + 0.18 * r, 0.5 * r, fill)
        _circle(d, cx + 0.46 * r, cy + 0.18 * r, 0.5 * r, fill)
        _poly(d, cx, cy, r, [(-0.95, 0.08), (0.95, 0.08), (0.0, -1.0)], fill)
        _poly(d, cx, cy, r, [(0.0, 0.2), (-0.36, 0.98), (0.36, 0.98)], fill)
    elif suit == "club":
        _circle(d, cx, cy - 0.5 * r, 0.42 * r, fill)
        _circle(d, cx - 0.5 * r, cy + 0.12 * r, 0.42 * r, fill)
        _circle(d, cx + 0.5 * r, cy + 0.12 * r, 0.42 * r, fill)
        _circle(d, cx, cy - 0.05 * r, 0.3 * r, fill)
        _poly(d, cx, cy, r, [(0.0, 0.0), (-0.36, 0.98), (0.36, 0.98)], fill)


def star_points(cx: float, cy: float, r: float, inner: float = 0.45) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * inner
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


# ---------------------------------------------------------------------------------------
# Faces
# ---------------------------------------------------------------------------------------
def _index_text(
    canvas: Image.Image, text: str, size: int, colour: RGB, cx: int, top: int, max_w: int
) -> int:
    """Draw a rank index centred on cx, squeezed horizontally if wider than max_w
    (so "10" stays as tall as the other ranks). Returns its bottom y."""
    f = font(size)
    left, top_, right, bottom = (round(v) for v in f.getbbox(text, anchor="ls"))
    w, h = right - left, bottom - top_
    tile = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(tile).text((2 - left, 2 - top_), text, font=f, fill=255, anchor="ls")
    if w > max_w:
        tile = tile.resize((max_w + 4, h + 4), Image.Resampling.LANCZOS)
    solid = Image.new("RGBA", tile.size, (*colour, 255))
    canvas.paste(solid, (cx - tile.width // 2, top), tile)
    return top + tile.height


class _Face(NamedTuple):
    """A card face being drawn at SS× size: its canvas and where its index column is."""

    img: Image.Image
    d: ImageDraw.ImageDraw
    w: int  # the card's width and height at 1×
    h: int
    rad: int  # corner radius (SS×)
    top: int  # top of the index column (SS×)
    col_cx: int  # the index column's centre and width (SS×): what a fanned card shows
    col_w: int


@lru_cache(maxsize=512)
def card_face(idx: int, suit: str, h: int, lang: Lang = "zh") -> Image.Image:
    """An RGBA card of height ``h`` (plus SHADOW px), face up. ``idx`` is a rank index."""
    w = card_width(h)
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W + SHADOW * SS, H + SHADOW * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rad = round(w * 0.09 * SS)
    sh = SHADOW * SS
    d.rounded_rectangle((sh, sh, W - 1 + sh, H - 1 + sh), radius=rad, fill=(0, 0, 0, 90))
    big, small = idx == I_BIG, idx == I_SMALL
    face = (255, 244, 242) if big else WHITE
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1),
        radius=rad,
        fill=face,
        outline=(120, 120, 120),
        width=max(SS, SS * h // 90),
    )
    f = _Face(
        img,
        d,
        w,
        h,
        rad,
        top=round(h * 0.045 * SS),
        col_cx=round(w * 0.25 * SS),
        col_w=round(w * 0.42 * SS),
    )
    if big or small:
        _joker_face(f, big, lang)
    else:
        _rank_face(f, idx, suit)
    return img.resize((w + SHADOW, h + SHADOW), Image.Resampling.LANCZOS)


def _joker_face(f: _Face, big: bool, lang: Lang) -> None:
    """大王/小王: an inner frame in the joker's colour, its name down the index column and
    a star (filled for 大王), so the two differ at a glance."""
    w, h, W, H = f.w, f.h, f.w * SS, f.h * SS
    ink = BIG_JOKER_RED if big else SMALL_JOKER_INK
    inset = round(w * 0.06 * SS)
    f.d.rounded_rectangle(
        (inset, inset, W - 1 - inset, H - 1 - inset),
        radius=max(1, f.rad - inset // 2),
        outline=ink,
        width=max(SS, round(h * 0.018 * SS)),
    )
    chars: tuple[str, ...] = ("大", "王") if big else ("小", "王")
    if lang == "en":
        chars = tuple("JOKER")
        size = round(h * 0.125 * SS)
    else:
        size = round(h * 0.25 * SS)
    y = f.top + round(h * 0.02 * SS)
    for ch in chars:
        y = _index_text(f.img, ch, size, ink, f.col_cx + inset // 2, y, f.col_w) + round(
            size * 0.06
        )
    star = star_points(W * 0.62, H * 0.68, w * 0.3 * SS)
    if big:
        f.d.polygon(star, fill=ink)
    else:
        f.d.polygon(star, fill=WHITE, outline=ink, width=max(SS, round(h * 0.03 * SS)))


def _rank_face(f: _Face, idx: int, suit: str) -> None:
    """A plain card: the rank and a small suit in the index column, a large suit below."""
    ink = CARD_RED if suit in RED_SUITS else CARD_BLACK
    size = round(f.h * 0.3 * SS)
    bottom = _index_text(f.img, RANK_TEXT[idx], size, ink, f.col_cx, f.top, f.col_w)
    r = f.h * 0.075 * SS
    draw_suit(f.d, suit, f.col_cx, bottom + r * 1.25, r, ink)
    draw_suit(f.d, suit, f.w * SS * 0.6, f.h * SS * 0.68, f.w * 0.28 * SS, ink)


# ---------------------------------------------------------------------------------------
# Groups: one rank's copies as a small stack with a count badge
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Group:
    idx: int  # rank index into NOTATION
    n: int
    lit: int = 0  # how many of the n are in the highlighted play
    copy: int = 0  # first copy shown, for the suit (a play spread card by card)


def groups_of(
    counts: Counts, high_first: bool = True, highlight: Counts | None = None
) -> list[Group]:
    order = range(NUM_RANKS - 1, -1, -1) if high_first else range(NUM_RANKS)
    return [
        Group(i, counts[i], min(counts[i], highlight[i]) if highlight else 0)
        for i in order
        if counts[i]
    ]


def groups_of_notation(text: str, high_first: bool = True) -> list[Group]:
    counts = [0] * NUM_RANKS
    for ch in text:
        counts[NOTATION.index(ch)] += 1
    return groups_of(tuple(counts), high_first)


def edge_step(h: int) -> int:
    return max(3, round(h * 0.035))


def stack_depth(n: int) -> int:
    """Back cards drawn behind the front one: a hint of thickness, not a count."""
    return min(n - 1, 3)


def group_width(g: Group, h: int, strip: int) -> int:
    """Horizontal space a group takes when followed by another group."""
    return stack_depth(g.n) * edge_step(h) + strip


def draw_group(
    img: Image.Image,
    g: Group,
    x: int,
    y: int,
    h: int,
    strip: int,
    lang: Lang = "zh",
    lifted: int = 0,
) -> None:
    """Paste the stack with its top-left at (x, y); the front card's index sits in the
    first ``strip`` pixels, where the count badge goes too."""
    depth = stack_depth(g.n)
    step = edge_step(h)
    lit = g.lit > 0
    yy = y - (lifted if lit else 0)
    for k in range(depth, -1, -1):
        face = card_face(g.idx, suit_of(g.idx, g.copy + k), h, lang)
        img.paste(face, (x + (depth - k) * step, yy), face)
    if lit:
        w = card_width(h)
        ImageDraw.Draw(img).rounded_rectangle(
            (x - 3, yy - 3, x + depth * step + w + 2, yy + h + 2),
            radius=round(w * 0.1),
            outline=GOLD,
            width=max(3, h // 36),
        )


def draw_count_badge(
    img: Image.Image,
    g: Group,
    x: int,
    y: int,
    h: int,
    strip: int,
    badge_size: int | None = None,
    lifted: int = 0,
) -> None:
    """The count on the group's visible strip; drawn after every card so none covers it."""
    if g.n < 2 and not g.lit:
        return
    yy = y - (lifted if g.lit else 0)
    front_x = x + stack_depth(g.n) * edge_step(h)
    bs = badge_size or max(14, round(h * 0.15))
    text = f"{g.lit}/{g.n}" if g.lit else f"×{g.n}"
    bg = (150, 100, 0) if g.lit else (33, 37, 41)
    d = ImageDraw.Draw(img)
    badge(d, front_x + strip / 2, yy + h - round(bs * 1.15), text, bs, bg, anchor="m")


def row_width(groups: Sequence[Group], h: int, strip: int) -> int:
    if not groups:
        return 0
    inner = sum(group_width(g, h, strip) for g in groups[:-1])
    last = groups[-1]
    return inner + stack_depth(last.n) * edge_step(h) + card_width(h)


def draw_row(
    img: Image.Image,
    groups: Sequence[Group],
    x: int,
    y: int,
    h: int,
    strip: int,
    lang: Lang = "zh",
    lifted: int = 0,
    badge_size: int | None = None,
) -> int:
    """Draw groups left to right, each overlapping the previous; returns the right edge."""
    xs = []
    for g in groups:
        xs.append(x)
        draw_group(img, g, x, y, h, strip, lang, lifted=lifted)
        x += group_width(g, h, strip)
    for g, gx in zip(groups, xs, strict=True):
        draw_count_badge(img, g, gx, y, h, strip, badge_size, lifted)
    if groups:
        x += card_width(h) - strip
    return x


MIN_FAN = 0.45  # narrowest strip (share of card width) at which a fanned index still reads


def play_layout(text: str, h: int, max_w: int) -> tuple[list[Group], int]:
    """Groups and strip for a play in notation, ascending as written.

    A play that fits is fanned card by card (a pair reads as two cards); a long one
    falls back to one stack per rank with a count badge.
    """
    groups = groups_of_notation(text, high_first=False)
    w = card_width(h)
    n = sum(g.n for g in groups)
    strip = round(w * 0.62)
    if n > 1:
        strip = min(strip, (max_w - w) // (n - 1))
    if n == 1 or strip >= w * MIN_FAN:
        singles = [Group(g.idx, 1, copy=k) for g in groups for k in range(g.n)]
        return singles, strip
    return groups, round(w * 0.62)


def play_width(text: str, h: int, max_w: int) -> int:
    groups, strip = play_layout(text, h, max_w)
    return row_width(groups, h, strip)


def draw_play(
    img: Image.Image,
    text: str,
    x: int,
    y: int,
    h: int,
    max_w: int,
    lang: Lang = "zh",
    badge_size: int | None = None,
) -> int:
    """Draw a play (notation such as ``TTTTT22S``); returns the right edge."""
    groups, strip = play_layout(text, h, max_w)
    return draw_row(img, groups, x, y, h, strip, lang, badge_size=badge_size)
