"""The shipped CJK font, its coverage, and text drawing that never shows tofu.

Player names are arbitrary Unicode. Characters the subset font lacks (emoji, rare CJK)
are drawn as a neutral placeholder shape of our own instead of the font's .notdef box,
so a name never turns into a row of identical "missing" boxes or crashes the renderer.
Coverage comes from the font's own cmap table, read here with the standard library so
fontTools stays a build-time tool.
"""

from __future__ import annotations

import os
import struct
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
FONT_NAME = "NotoSansCJKsc-Bold-subset.otf"
ELLIPSIS = "…"

# Characters that only modify or join their neighbours: they never stand alone.
_ZWJ = 0x200D
_KEYCAP = 0x20E3


def font_path() -> Path:
    """The font file; ``GOUJI_FONT`` overrides it (a full Noto CJK, say)."""
    override = os.environ.get("GOUJI_FONT")
    return Path(override) if override else FONT_DIR / FONT_NAME


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    # BASIC layout: identical output with or without libraqm, and CJK needs no shaping.
    return ImageFont.truetype(str(font_path()), size, layout_engine=ImageFont.Layout.BASIC)


# ---------------------------------------------------------------------------------------
# Coverage: a minimal reader of the OpenType cmap (formats 4 and 12)
# ---------------------------------------------------------------------------------------
def _cmap_format4(data: bytes, off: int) -> set[int]:
    seg2 = struct.unpack_from(">H", data, off + 6)[0]
    ends = off + 14
    starts = ends + seg2 + 2
    deltas = starts + seg2
    ranges = deltas + seg2
    out: set[int] = set()
    for i in range(seg2 // 2):
        end = struct.unpack_from(">H", data, ends + 2 * i)[0]
        start = struct.unpack_from(">H", data, starts + 2 * i)[0]
        delta = struct.unpack_from(">h", data, deltas + 2 * i)[0]
        ro_pos = ranges + 2 * i
        ro = struct.unpack_from(">H", data, ro_pos)[0]
        for cp in range(start, min(end, 0xFFFE) + 1):
            if ro == 0:
                gid = (cp + delta) & 0xFFFF
            else:
                gid = struct.unpack_from(">H", data, ro_pos + ro + 2 * (cp - start))[0]
                gid = (gid + delta) & 0xFFFF if gid else 0
            if gid:
                out.add(cp)
    return out


def _cmap_format12(data: bytes, off: int) -> set[int]:
    n = struct.unpack_from(">I", data, off + 12)[0]
    out: set[int] = set()
    for i in range(n):
        start, end, gid = struct.unpack_from(">III", data, off + 16 + 12 * i)
        out.update(cp for k, cp in enumerate(range(start, end + 1)) if gid + k)
    return out


def read_cmap(path: Path) -> frozenset[int]:
    """Code points that map to a real glyph in the font at ``path`` (OTF/TTF, not TTC)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return frozenset()
    out: set[int] = set()
    n_sub = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(n_sub):
        platform, encoding, sub_off = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        off = cmap + sub_off
        fmt = struct.unpack_from(">H", data, off)[0]
        if fmt == 4:
            out |= _cmap_format4(data, off)
        elif fmt == 12:
            out |= _cmap_format12(data, off)
    return frozenset(out)


@lru_cache(maxsize=1)
def coverage() -> frozenset[int]:
    return read_cmap(font_path())


def covered(ch: str) -> bool:
    return ord(ch) in coverage()


# ---------------------------------------------------------------------------------------
# Clusters and runs
# ---------------------------------------------------------------------------------------
def _attaches(cp: int) -> bool:
    """Marks that belong to the previous character (variation selectors, skin tones, tags…)."""
    return (
        0xFE00 <= cp <= 0xFE0F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0xE0100 <= cp <= 0xE01EF
        or cp == _KEYCAP
        or unicodedata.category(chr(cp)) in ("Mn", "Me")
    )


def clusters(text: str) -> list[str]:
    """Split into user-perceived characters, approximately (enough for names and emoji).

    ZWJ sequences (family emoji), flags (regional-indicator pairs), keycaps and
    skin-tone or variation selectors stay in one cluster, so each becomes one placeholder.
    Controls and invisible format characters are dropped; newlines become spaces.
    """
    out: list[str] = []
    join_next = False
    for ch in unicodedata.normalize("NFC", text):
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if ch in "\r\n\t":
            ch, cat = " ", "Zs"
        if cp == _ZWJ:
            join_next = bool(out)
            continue
        if cat == "Cc" or (cat == "Cf" and not 0xE0020 <= cp <= 0xE007F):
            continue
        if (out and (join_next or _attaches(cp))) or (
            out
            and 0x1F1E6 <= cp <= 0x1F1FF
            and len(out[-1]) == 1
            and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF
        ):
            out[-1] += ch
        else:
            out.append(ch)
        join_next = False
    return out


def glyph_text(cluster: str) -> str | None:
    """What the font draws for this cluster, or None when it gets our placeholder.

    Combining accents the font lacks are dropped (the letter stays readable); a covered
    base with an emoji selector, skin tone or joined partner is still an emoji.
    """
    cov = coverage()
    if ord(cluster[0]) not in cov:
        return None
    kept = [cluster[0]]
    for c in cluster[1:]:
        if ord(c) in cov:
            kept.append(c)
        elif unicodedata.category(c) not in ("Mn", "Me") or ord(c) == _KEYCAP:
            return None
    return "".join(kept)


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    glyphs: bool  # False: one placeholder per cluster in ``text``
    clusters: int


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """Consecutive drawable clusters merged into one run (one draw call each).

    Cached: the same labels and names are drawn on every image."""
    out: list[Run] = []
    for cl in clusters(text):
        shown = glyph_text(cl)
        if out and out[-1].glyphs == (shown is not None):
            last = out[-1]
            out[-1] = Run(last.text + (shown or cl), last.glyphs, last.clusters + 1)
        else:
            out.append(Run(cl if shown is None else shown, shown is not None, 1))
    return tuple(out)


def _placeholder_w(size: int) -> float:
    return size * 0.92


@lru_cache(maxsize=8192)
def _run_width(run: Run, size: int) -> float:
    if run.glyphs:
        return float(font(size).getlength(run.text))
    return _placeholder_w(size) * run.clusters


def text_width(text: str, size: int) -> int:
    return round(sum(_run_width(r, size) for r in runs(text)))


def ellipsize(text: str, size: int, max_width: float) -> str:
    """``text`` cut at a cluster boundary with "…" so that it fits ``max_width``."""
    if text_width(text, size) <= max_width:
        return text
    parts = clusters(text)
    budget = max_width - font(size).getlength(ELLIPSIS)
    width = 0.0
    keep: list[str] = []
    for cl in parts:
        shown = glyph_text(cl)
        w = _run_width(Run(cl if shown is None else shown, shown is not None, 1), size)
        if width + w > budget:
            break
        keep.append(cl)
        width += w
    return "".join(keep).rstrip() + ELLIPSIS


def draw_placeholder(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, size: int, fill: str | tuple[int, ...]
) -> None:
    """A rounded outline with a dot: clearly "a character we cannot show", never tofu."""
    h = size * 0.72
    w = h
    line = max(1, round(size / 14))
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    draw.rounded_rectangle(box, radius=h * 0.3, outline=fill, width=line)
    r = h * 0.16
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: str | tuple[int, ...],
    anchor: str = "l",
) -> int:
    """Draw ``text`` with its visual middle at ``xy[1]``; ``anchor`` is l, m or r for x.

    Returns the drawn width. Uncovered clusters become placeholders of the same colour.
    """
    parts = runs(text)
    widths = [_run_width(r, size) for r in parts]
    total = sum(widths)
    x, cy = xy
    if anchor == "m":
        x -= total / 2
    elif anchor == "r":
        x -= total
    # CJK ideographs and Latin capitals centre about 0.38 em above the baseline.
    baseline = cy + size * 0.38
    f = font(size)
    for run, w in zip(parts, widths, strict=True):
        if run.glyphs:
            draw.text((x, baseline), run.text, font=f, fill=fill, anchor="ls")
        else:
            step = _placeholder_w(size)
            for k in range(run.clusters):
                draw_placeholder(draw, x + step * (k + 0.5), cy, size, fill)
        x += w
    return round(total)
