"""Sizes, widths, file sizes, and the public table's blindness to private cards."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import NUM_RANKS, parse
from bot.engine.game import new_hand
from bot.engine.rules import PRESET_NAMES, make_rules
from bot.engine.views import public_view, seat_view
from render import render_hand, render_result, render_table, to_png
from render.cards import SUITS, card_face, suit_of
from render.demo import render_demo
from render.fonts import EMOJI_FONT_NAME, FONT_NAME, LICENCE_NAMES, shipped_file
from render.samples import SAMPLE_NAMES, sample_state

MAX_PNG = 200 * 1024
MAX_WIDTH = 1280

# 36 cards over all 15 kinds: the widest hand a deal can produce.
WIDEST = (3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2)


def _png_ok(img: Image.Image) -> bytes:
    data = to_png(img)
    assert len(data) <= MAX_PNG
    assert Image.open(io.BytesIO(data)).size == img.size
    return data


def test_widest_hand_fits() -> None:
    assert sum(WIDEST) == 36 and len(WIDEST) == NUM_RANKS
    state, _ = new_hand(make_rules("dagang"), 1)
    view = dataclasses.replace(seat_view(state, 1), hand=WIDEST)
    for lang in ("zh", "en"):
        img = render_hand(view, lang, highlight=parse("KKK22SB"), autoplay=True, name="张" * 40)
        assert img.width <= MAX_WIDTH
        _png_ok(img)


def test_one_rank_hand_fits() -> None:
    state, _ = new_hand(make_rules("dagang"), 1)
    hand = (0,) * 7 + (16, 16, 4) + (0,) * 5
    view = dataclasses.replace(seat_view(state, 1), hand=hand)
    assert render_hand(view).width <= MAX_WIDTH


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_deal(preset: str) -> None:
    state, _ = new_hand(make_rules(preset), 11)
    for seat in (1, 4):
        img = render_hand(seat_view(state, seat))
        assert img.width <= MAX_WIDTH
        _png_ok(img)
    _png_ok(render_table(public_view(state), SAMPLE_NAMES, 1, autoplay={1, 2, 3, 4, 5, 6}))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_full_hand_images(preset: str) -> None:
    state = sample_state(preset, 2, None)
    assert state.result is not None
    for lang in ("zh", "en"):
        _png_ok(render_table(public_view(state), SAMPLE_NAMES, 9, lang))
        _png_ok(render_result(state.result, SAMPLE_NAMES, (100, -100), lang, hand_no=9))


def test_table_blind_to_private_cards() -> None:
    # Two different deals with the same leader: the same public view, so the same image.
    a, _ = new_hand(make_rules("dagang"), 1, leader=2)
    b, _ = new_hand(make_rules("dagang"), 2, leader=2)
    assert a.hands != b.hands
    assert public_view(a) == public_view(b)
    img_a = render_table(public_view(a), SAMPLE_NAMES, 1)
    img_b = render_table(public_view(b), SAMPLE_NAMES, 1)
    assert img_a.tobytes() == img_b.tobytes()


def test_card_faces_distinct() -> None:
    faces = {}
    for idx in range(NUM_RANKS):
        for suit in SUITS:
            faces[(idx, suit)] = card_face(idx, suit, 120).tobytes()
    assert len(set(faces.values())) == len(faces) - 2 * 3  # jokers ignore the suit
    big, small = card_face(14, "spade", 120), card_face(13, "spade", 120)
    # 大王 is red, 小王 black.
    assert _red_pixels(big) > 500
    assert _red_pixels(small) == 0


def _red_pixels(img: Image.Image) -> int:
    r, g, b = img.convert("RGB").split()
    mask = ImageChops.multiply(
        r.point(lambda v: 255 if v > 150 else 0),
        ImageChops.multiply(
            g.point(lambda v: 255 if v < 80 else 0), b.point(lambda v: 255 if v < 80 else 0)
        ),
    )
    return mask.histogram()[255]


def test_suits_spread_copies() -> None:
    assert {suit_of(5, k) for k in range(4)} == set(SUITS)


def test_fonts_shipped_small_with_licences() -> None:
    # Package data (gouji_data/fonts), found through importlib.resources, not the source tree.
    assert shipped_file(FONT_NAME).stat().st_size < 4 * 1024 * 1024
    assert shipped_file(EMOJI_FONT_NAME).stat().st_size < 1024 * 1024
    for name in LICENCE_NAMES:
        text = shipped_file(name).read_text(encoding="utf-8")
        assert "SIL OPEN FONT LICENSE" in text.upper(), name


def test_demo_writes_images(tmp_path: Path) -> None:
    paths = render_demo(tmp_path, seeds=(3,), presets=("qingdao",))
    assert len(paths) == 8  # zh and en: hand, two tables, result
    for p in paths:
        assert p.stat().st_size <= MAX_PNG
