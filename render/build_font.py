"""Build the shipped font subsets (run by hand; nothing here runs in the bot).

How ``data/gouji_data/fonts/NotoSansCJKsc-Bold-subset.otf`` and ``NotoEmoji-Bold-subset.ttf``
were made::

    apt-get update && apt-get install -y fonts-noto-cjk   # Debian: Noto Sans CJK 2.004
    npm pack @expo-google-fonts/noto-emoji@0.4.7 && tar xzf expo-google-fonts-noto-emoji-*.tgz
    pip install -e '.[dev]'                              # fontTools
    python -m render.build_font --emoji-dir package      # writes data/gouji_data/fonts/

The source is face 2 (Simplified Chinese) of Debian's ``NotoSansCJK-Bold.ttc``. The subset
keeps every GB2312 character (generated with Python's ``gb2312`` codec), printable ASCII,
Latin-1 and Latin Extended-A (for names like "José"), CJK and fullwidth punctuation, arrows,
mathematical operators (the minus sign of scores), enclosed numbers and geometric symbols.
Hinting and OpenType layout features are dropped: Pillow draws with FreeType's own hinting,
and the images need no shaping. Characters outside the
subset are not lost: ``render.fonts`` draws a neutral placeholder for them.

One weight only (Bold): at phone size bold strokes stay legible, and one file keeps the
repository small (about 1.6 MB).

Emoji come from Noto Emoji 3.006 Bold, the monochrome Noto emoji font (SIL OFL 1.1), as the
npm package ``@expo-google-fonts/noto-emoji`` ships it (a static TTF instance, with the
font's licence as ``LICENSE_FONT``). The subset keeps every code point it maps from U+00A0
up and drops hinting, the layout tables (Pillow draws without shaping, so the ZWJ ligatures
could never be used) and vertical metrics: about 0.8 MB. Monochrome, because the images
draw names in one colour on a coloured plate, like every other word.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
SC_FACE = 2  # JP, KR, SC, TC, HK, then the Mono faces
LICENCE_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
OUT_DIR = Path(__file__).resolve().parent.parent / "data" / "gouji_data" / "fonts"
OUT_NAME = "NotoSansCJKsc-Bold-subset.otf"
EMOJI_SOURCE = Path("700Bold") / "NotoEmoji_700Bold.ttf"  # inside the npm package folder
EMOJI_LICENCE = Path("LICENSE_FONT")
EMOJI_OUT_NAME = "NotoEmoji-Bold-subset.ttf"
EMOJI_LICENCE_OUT = "OFL-NotoEmoji.txt"

# Symbols drawn as text by render/ (suits are drawn as shapes, but keep them for names).
EXTRA_SYMBOLS = "♠♥♣♦♤♡♧♢…·×÷→←↑↓▶◀▲▼●○◆◇■□★☆✓✔①②③④⑤⑥—–‘’“”•‰€£¥"


def gb2312_chars() -> set[int]:
    """Every character GB2312 encodes, from the codec itself (rows 0xA1–0xF7)."""
    out: set[int] = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                out.add(ord(bytes((hi, lo)).decode("gb2312")))
    return out


def wanted_codepoints() -> set[int]:
    cps = gb2312_chars()
    cps |= set(range(0x20, 0x7F))  # ASCII
    cps |= set(range(0xA0, 0x180))  # Latin-1 supplement, Latin Extended-A
    cps |= set(range(0x2000, 0x2070))  # general punctuation
    cps |= set(range(0x2190, 0x2300))  # arrows, mathematical operators (− for scores)
    cps |= set(range(0x2460, 0x2700))  # enclosed numbers, box drawing, shapes, symbols
    cps |= set(range(0x3000, 0x3040))  # CJK symbols and punctuation
    cps |= set(range(0xFF01, 0xFF5F))  # fullwidth ASCII forms
    cps |= {ord(c) for c in EXTRA_SYMBOLS}
    return cps


def build(source: Path = SOURCE, out_dir: Path = OUT_DIR) -> Path:
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTCollection  # type: ignore[import-untyped]

    font = TTCollection(str(source)).fonts[SC_FACE]
    opts = subset.Options()
    opts.layout_features = []
    opts.hinting = False
    opts.notdef_outline = True
    opts.name_IDs = ["*"]  # keep copyright, licence and trademark records
    opts.name_languages = ["*"]
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=wanted_codepoints())
    sub.subset(font)
    font.recalcTimestamp = False  # same input, same bytes: rebuilds leave git clean
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / OUT_NAME
    font.save(str(out))
    (out_dir / "OFL.txt").write_text(licence_text(font), encoding="utf-8")
    return out


def build_emoji(package_dir: Path, out_dir: Path = OUT_DIR) -> Path:
    """Subset Noto Emoji Bold from the unpacked npm package in ``package_dir``."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(package_dir / EMOJI_SOURCE))
    opts = subset.Options()
    opts.layout_features = []
    opts.hinting = False
    opts.notdef_outline = True
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.drop_tables += ["STAT", "vhea", "vmtx", "GSUB"]
    sub = subset.Subsetter(opts)
    # ASCII stays with the CJK font; everything from U+00A0 on that Noto Emoji maps is kept.
    sub.populate(unicodes=[cp for cp in font.getBestCmap() if cp >= 0xA0])
    sub.subset(font)
    font.recalcTimestamp = False
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / EMOJI_OUT_NAME
    font.save(str(out))
    notice = (
        f"{EMOJI_OUT_NAME}: a subset of Noto Emoji Bold (version 3.006), made by "
        "render/build_font.py.\n\n"
    )
    licence = (package_dir / EMOJI_LICENCE).read_text(encoding="utf-8")
    (out_dir / EMOJI_LICENCE_OUT).write_text(notice + licence, encoding="utf-8")
    return out


def licence_text(font: object) -> str:
    """The font's own copyright notice followed by the OFL 1.1 text from Debian's copyright file."""
    notice = font["name"].getDebugName(0)  # type: ignore[index]
    lines = LICENCE_SOURCE.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1)
    body = []
    for line in lines[start + 1 :]:
        if line.startswith("License:"):
            break
        body.append("" if line.strip() == "." else line[1:])
    return (
        f"{OUT_NAME}: a subset of Noto Sans CJK SC Bold, made by render/build_font.py.\n"
        f"Copyright: {notice.rstrip('.')}, with Reserved Font Name 'Source'.\n"
        "Noto is a trademark of Google Inc.\n\n" + "\n".join(body).strip() + "\n"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--out-dir", type=Path, default=OUT_DIR)
    ap.add_argument("--emoji-dir", type=Path, help="unpacked @expo-google-fonts/noto-emoji")
    ap.add_argument("--skip-cjk", action="store_true", help="rebuild the emoji subset only")
    args = ap.parse_args(argv)
    outs = [] if args.skip_cjk else [build(args.source, args.out_dir)]
    if args.emoji_dir:
        outs.append(build_emoji(args.emoji_dir, args.out_dir))
    for out in outs:
        print(f"{out} {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
