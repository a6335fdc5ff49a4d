"""No label and no player name may show a font's missing-glyph box (tofu); emoji are drawn
with the shipped emoji font, and only what no font covers gets the placeholder."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import fonts
from render.build_font import gb2312_chars
from render.labels import all_strings
from render.samples import SAMPLE_NAMES

SIZE = 24
NAMES = (
    "张三丰",
    "Alice",
    "🀄🎉",
    "李小龙🐉",
    "👨‍👩‍👧 family",
    "🇨🇳 中国",
    "José",
    "喆",
    *SAMPLE_NAMES,
)
# Text the renderers build from numbers: scores, counts, tributes, seat numbers.
DYNAMIC = ("−12", "+4", "×16", "3/4", "→", "…", "·", "：", "10", "JOKER", "大王", "小王")


def _mask(ch: str, emoji: bool = False) -> bytes:
    m = (fonts.emoji_font(SIZE) if emoji else fonts.font(SIZE)).getmask(ch)
    return bytes(m.size) + bytes(m)


@pytest.fixture(scope="module")
def tofu() -> bytes:
    # A private-use code point the font does not map: what FreeType draws for .notdef.
    assert not fonts.covered("\ue000")
    return _mask("\ue000")


@pytest.fixture(scope="module")
def emoji_tofu() -> bytes:
    assert ord("\ue000") not in fonts.emoji_coverage()
    return _mask("\ue000", emoji=True)


def _drawn_glyph_clusters(text: str) -> list[str]:
    return [r.text for r in fonts.runs(text) if r.face is fonts.Face.TEXT]


def _drawn(text: str, size: int = 40) -> bytes:
    img = Image.new("L", (8 * size, 2 * size), 0)
    fonts.draw_text(ImageDraw.Draw(img), (4, size), text, size, 255)
    return img.tobytes()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_fully_covered(lang: str, tofu: bytes) -> None:
    for text in (*all_strings(lang), *DYNAMIC):
        for run in fonts.runs(text):
            assert run.glyphs, f"label {text!r} needs a placeholder for {run.text!r}"
            for ch in run.text:
                if not ch.isspace():
                    assert _mask(ch) != tofu, f"{ch!r} in {text!r} renders as tofu"


def test_names_never_tofu(tofu: bytes, emoji_tofu: bytes) -> None:
    for name in NAMES:
        for run in fonts.runs(name):
            emoji = run.face is fonts.Face.EMOJI
            for ch in run.text if run.glyphs else "":
                if not ch.isspace():
                    bad = emoji_tofu if emoji else tofu
                    assert _mask(ch, emoji) != bad, f"{ch!r} in {name!r} renders as tofu"


def test_emoji_drawn_with_the_emoji_font() -> None:
    Run, Face = fonts.Run, fonts.Face
    assert fonts.runs("🀄🎉") == (Run("🀄🎉", Face.EMOJI, 2),)
    assert fonts.runs("李小龙🐉") == (Run("李小龙", Face.TEXT, 3), Run("🐉", Face.EMOJI, 1))
    assert fonts.runs("张三丰") == (Run("张三丰", Face.TEXT, 3),)
    # No shaping: a ZWJ family shows its members, a flag its letters, without modifiers.
    assert fonts.runs("👨‍👩‍👧") == (Run("👨👩👧", Face.EMOJI, 1),)
    assert fonts.runs("👍🏽") == (Run("👍", Face.EMOJI, 1),)
    assert fonts.runs("🇨🇳")[0].face is Face.EMOJI


def test_emoji_names_look_different() -> None:
    # Issue 9.14: 🀄🎉 and 🐉 were both drawn as placeholders and looked alike.
    drawn = {name: _drawn(name) for name in ("🀄🎉", "🐉", "🀄", "🎉🀄")}
    assert len(set(drawn.values())) == len(drawn)
    placeholder = _drawn("喆")
    assert placeholder not in drawn.values()


def test_only_what_no_font_covers_gets_the_placeholder() -> None:
    # A CJK character outside GB2312 and the subset, and a keycap (no font has "1" + U+20E3).
    for text in ("喆", "1️⃣"):
        assert [r.face for r in fonts.runs(text)] == [fonts.Face.NONE], text
    assert sum(r.clusters for r in fonts.runs("喆喆")) == 2


def test_placeholder_is_drawn_not_tofu() -> None:
    def draw(fn: object) -> bytes:
        img = Image.new("L", (60, 60), 0)
        d = ImageDraw.Draw(img)
        if fn == "text":
            fonts.draw_text(d, (10, 30), "喆", 40, 255)
        elif fn == "placeholder":
            fonts.draw_placeholder(d, 10 + 40 * 0.92 / 2, 30, 40, 255)
        else:
            d.text((10, 30), "喆", font=fonts.font(40), fill=255, anchor="lm")
        return img.tobytes()

    assert draw("text") == draw("placeholder")
    assert draw("text") != draw("tofu")


def test_controls_and_newlines_do_not_crash() -> None:
    img = Image.new("RGB", (400, 60))
    d = ImageDraw.Draw(img)
    for text in ("a\nb\tc", "\u200b\u200e", "", "e\u0301", "\U0010ffff", "\ud7ff"):
        fonts.draw_text(d, (0, 30), text, 20, (255, 255, 255))


def test_gb2312_all_real_glyphs(tofu: bytes) -> None:
    chars = sorted(gb2312_chars())
    assert len(chars) > 7000
    missing = [chr(c) for c in chars if not fonts.covered(chr(c))]
    assert not missing, f"not in the font: {''.join(missing[:20])}"
    # Draw every one: none may come out as the .notdef box.
    bad = [chr(c) for c in chars if _mask(chr(c)) == tofu]
    assert not bad, f"tofu for {''.join(bad[:20])}"


def test_cmap_reader_matches_fonttools() -> None:
    tt = pytest.importorskip("fontTools.ttLib")
    cmap = tt.TTFont(str(fonts.font_path())).getBestCmap()
    assert fonts.coverage() == frozenset(cmap)
    emoji = tt.TTFont(str(fonts.emoji_font_path())).getBestCmap()
    assert fonts.emoji_coverage() == frozenset(emoji)


def test_ellipsize_fits() -> None:
    long = "Bob the Very Long Named Player 🎉🎉"
    short = fonts.ellipsize(long, 32, 200)
    assert short.endswith(fonts.ELLIPSIS)
    assert fonts.text_width(short, 32) <= 200
    assert fonts.ellipsize("张三", 32, 200) == "张三"
    cut = fonts.ellipsize("🀄🎉🀄🎉🀄🎉🀄🎉🀄🎉", 32, 120)
    assert cut.endswith(fonts.ELLIPSIS) and fonts.text_width(cut, 32) <= 120
