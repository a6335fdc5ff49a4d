"""The shipped fonts, their coverage, and text drawing that never shows tofu.

Player names are arbitrary Unicode. Text is drawn with the CJK font (Noto Sans CJK SC,
subset); what it lacks but Noto Emoji has (🀄, 🎉, 🐉) is drawn with the monochrome emoji
font; only characters neither font maps (rare CJK, symbols from newer Unicode versions)
become a neutral placeholder shape of our own instead of the font's .notdef box, so a name
never turns into a row of identical "missing" boxes or crashes the renderer.

The fonts are package data (``gouji_data/fonts``) loaded with ``importlib.resources``, so
an installed wheel draws exactly as the source tree does. Coverage comes from each font's
own cmap table, read here with the standard library so fontTools stays a build-time tool.
"""

from __future__ import annotations

import atexit
import os
import struct
import unicodedata
from contextlib import ExitStack
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_PACKAGE = "gouji_data"
FONT_NAME = "NotoSansCJKsc-Bold-subset.otf"
EMOJI_FONT_NAME = "NotoEmoji-Bold-subset.ttf"
LICENCE_NAMES = ("OFL.txt", "OFL-NotoEmoji.txt")
ELLIPSIS = "…"

# Characters that only modify or join their neighbours: they never stand alone.
_ZWJ = 0x200D
_KEYCAP = 0x20E3

_files = ExitStack()  # keeps fonts extracted from a zipped install alive until exit
atexit.register(_files.close)


def shipped_file(name: str) -> Path:
    """A file of ``gouji_data/fonts`` as a real path (extracted once if the install is zipped)."""
    return _files.enter_context(resources.as_file(resources.files(FONT_PACKAGE) / "fonts" / name))


@lru_cache(maxsize=8)
def _shipped(name: str) -> Path:
    return shipped_file(name)


def font_path() -> Path:
    """The text font file; ``GOUJI_FONT`` overrides it (a full Noto CJK, say)."""
    override = os.environ.get("GOUJI_FONT")
    return Path(override) if override else _shipped(FONT_NAME)


def emoji_font_path() -> Path:
    """The emoji font file; ``GOUJI_EMOJI_FONT`` overrides it."""
    override = os.environ.get("GOUJI_EMOJI_FONT")
    return Path(override) if override else _shipped(EMOJI_FONT_NAME)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    # BASIC layout: identical output with or without libraqm, and CJK needs no shaping.
    return ImageFont.truetype(str(font_path()), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(emoji_font_path()), size, layout_engine=ImageFont.Layout.BASIC)


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
    """Code points the text font draws."""
    return read_cmap(font_path())


@lru_cache(maxsize=1)
def emoji_coverage() -> frozenset[int]:
    """Code points the emoji font draws."""
    return read_cmap(emoji_font_path())


def covered(ch: str) -> bool:
    """Whether the text font has ``ch`` (the emoji font is checked separately)."""
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


class Face(Enum):
    """Which font draws a run: the text font, the emoji font, or our placeholder."""

    TEXT = "text"
    EMOJI = "emoji"
    NONE = "none"


def glyph_text(cluster: str) -> str | None:
    """What the text font draws for this cluster, or None when it cannot.

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


def emoji_text(cluster: str) -> str | None:
    """What the emoji font draws for this cluster, or None when it cannot.

    Without shaping there are no ligatures: a ZWJ family shows its members side by side
    and a flag its two letters; selectors, skin tones and tags are left out.
    """
    cov = emoji_coverage()
    if ord(cluster[0]) not in cov:
        return None
    kept = [c for c in cluster if ord(c) in cov and not (c != cluster[0] and _attaches(ord(c)))]
    return "".join(kept)


def _shown(cluster: str) -> tuple[str, Face]:
    text = glyph_text(cluster)
    if text is not None:
        return text, Face.TEXT
    text = emoji_text(cluster)
    if text is not None:
        return text, Face.EMOJI
    return cluster, Face.NONE


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    face: Face
    clusters: int

    @property
    def glyphs(self) -> bool:
        """Drawn from a font (not placeholders)."""
        return self.face is not Face.NONE


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """Consecutive clusters drawn the same way merged into one run (one draw call each).

    Cached: the same labels and names are drawn on every image."""
    out: list[Run] = []
    for cl in clusters(text):
        shown, face = _shown(cl)
        if out and out[-1].face is face:
            last = out[-1]
            out[-1] = Run(last.text + shown, face, last.clusters + 1)
        else:
            out.append(Run(shown, face, 1))
    return tuple(out)


def _placeholder_w(size: int) -> float:
    return size * 0.92


@lru_cache(maxsize=8192)
def _run_width(run: Run, size: int) -> float:
    if run.face is Face.TEXT:
        return float(font(size).getlength(run.text))
    if run.face is Face.EMOJI:
        return float(emoji_font(size).getlength(run.text))
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
        shown, face = _shown(cl)
        w = _run_width(Run(shown, face, 1), size)
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
    for run, w in zip(parts, widths, strict=True):
        if run.face is Face.TEXT:
            draw.text((x, baseline), run.text, font=font(size), fill=fill, anchor="ls")
        elif run.face is Face.EMOJI:
            # Noto Emoji sits on the baseline like a capital; its glyphs are square.
            draw.text((x, baseline), run.text, font=emoji_font(size), fill=fill, anchor="ls")
        else:
            step = _placeholder_w(size)
            for k in range(run.clusters):
                draw_placeholder(draw, x + step * (k + 0.5), cy, size, fill)
        x += w
    return round(total)
