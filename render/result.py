"""The end-of-hand image: finish order, team scores, tributes owed, match totals."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.rules import PresetName
from bot.engine.state import Bonus, HandResult
from bot.i18n import bonus_kind
from bot.i18n.catalogue import Lang

from .fonts import draw_text, ellipsize
from .labels import cards_label, label, place_label, preset_label, seat_name, tribute_label
from .style import FELT, FELT_DARK, FELT_LIGHT, GOLD, INK, RGB, WHITE, badge, team_colour

WIDTH = 920
MARGIN = 28
ROW_H = 66
SOFT: RGB = (205, 225, 212)
PLACE_COLOURS: tuple[RGB, ...] = (
    GOLD,
    (206, 212, 218),
    (222, 160, 100),
    (160, 180, 170),
    (120, 130, 125),
    (100, 105, 102),
)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


def _seat_chip(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: int = 22) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=team_colour(seat), outline=WHITE, width=2)
    draw_text(d, (cx, cy), str(seat), round(r * 1.25), WHITE, anchor="m")


def _team_box(
    d: ImageDraw.ImageDraw, x: int, y: int, w: int, seat: int, score: int | None, lang: Lang
) -> None:
    team = "1-3-5" if seat % 2 else "2-4-6"
    d.rounded_rectangle((x, y, x + w, y + 110), 18, fill=team_colour(seat))
    draw_text(d, (x + 22, y + 32), label("team", lang, team=team), 28, WHITE)
    if score is not None:
        draw_text(d, (x + w - 24, y + 64), _signed(score), 60, WHITE, anchor="r")


def render_result(
    result: HandResult,
    names: Sequence[str],
    match_totals: tuple[int, int] | None = None,
    lang: Lang = "zh",
    hand_no: int | None = None,
    preset: PresetName | None = None,
    sweep_multiplier: int | None = None,
) -> Image.Image:
    """Finish order with place names and seat points, the hand's team scores (marked
    串三户 after a sweep, with ``sweep_multiplier`` if given), tributes owed to the next
    hand, and the match totals if given."""
    rows = 0 if result.voided else len(result.places)
    tributes = result.tributes
    height = 96 + (150 if not result.voided else 120) + rows * ROW_H + 24
    height += 70 + max(1, len(tributes)) * 52 if not result.voided else 0
    extra = len(result.bonuses) + len(_winners_only(result, lang))
    height += 86 + 52 * extra if result.bonuses else 0
    height += 130 if match_totals is not None else 0
    img = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(img)
    # Title.
    d.rectangle((0, 0, WIDTH, 84), fill=FELT_DARK)
    title = label("result_title_n", lang, n=hand_no) if hand_no else label("result_title", lang)
    draw_text(d, (MARGIN, 42), title, 40, WHITE)
    if preset:
        draw_text(d, (WIDTH - MARGIN, 42), preset_label(preset, lang), 30, SOFT, anchor="r")
    y = 104
    if result.voided:
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 96), 18, fill=FELT_LIGHT)
        draw_text(d, (WIDTH / 2, y + 48), label("voided", lang), 34, WHITE, anchor="m")
        y += 120
    else:
        y = _scores(d, y, result, names, lang, sweep_multiplier)
        y = _bonuses(d, y, result, names, lang)
        y = _tributes(d, y, result, names, lang)
    if match_totals is not None:
        _match_totals(d, y + 16, match_totals, lang)
    return img


def _scores(
    d: ImageDraw.ImageDraw,
    y: int,
    result: HandResult,
    names: Sequence[str],
    lang: Lang,
    sweep_multiplier: int | None,
) -> int:
    """The two team boxes (串三户 marked), then the finish order; the y below them."""
    half = (WIDTH - 2 * MARGIN - 20) // 2
    _team_box(d, MARGIN, y, half, 1, result.team_scores[0], lang)
    _team_box(d, MARGIN + half + 20, y, half, 2, result.team_scores[1], lang)
    if result.sweep_team:
        seat = 1 if result.sweep_team == "135" else 2
        bx = MARGIN + 22 + (0 if seat == 1 else half + 20)
        badge(d, bx, y + 82, _sweep_text(sweep_multiplier, lang), 24, GOLD, INK)
    y += 140
    for k, seat in enumerate(result.places):
        _place_row(
            d, y, k + 1, seat, seat_name(names, seat, lang), result.seat_points[seat - 1], lang
        )
        y += ROW_H
    return y


def _bonuses(
    d: ImageDraw.ImageDraw, y: int, result: HandResult, names: Sequence[str], lang: Lang
) -> int:
    """比赛 scoring: each ±1 on its own row, so places and rows add up to the teams."""
    if not result.bonuses:
        return y
    y += 24
    draw_text(d, (MARGIN, y + 26), label("bonuses", lang), 30, WHITE)
    y += 62
    for bonus in result.bonuses:
        _bonus_row(d, y, bonus, names, lang)
        y += 52
    for note in _winners_only(result, lang):
        draw_text(d, (MARGIN + 12, y + 22), note, 26, SOFT)
        y += 52
    return y


def _tributes(
    d: ImageDraw.ImageDraw, y: int, result: HandResult, names: Sequence[str], lang: Lang
) -> int:
    """The tributes owed to the next hand ("none" when there are none)."""
    y += 24
    draw_text(d, (MARGIN, y + 26), label("tributes", lang), 30, WHITE)
    y += 62
    if not result.tributes:
        draw_text(d, (MARGIN + 12, y + 20), label("no_tribute", lang), 28, SOFT)
        y += 52
    for t in result.tributes:
        _tribute_row(d, y, t.giver, t.receiver, t.count, t.kind, names, lang)
        y += 52
    return y


def _match_totals(d: ImageDraw.ImageDraw, y: int, totals: tuple[int, int], lang: Lang) -> None:
    d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 96), 18, fill=FELT_DARK)
    draw_text(d, (MARGIN + 24, y + 48), label("match_total", lang), 32, WHITE)
    a, b = totals
    cx = WIDTH - MARGIN - 300
    d.rounded_rectangle((cx - 6, y + 26, cx + 38, y + 70), 8, fill=team_colour(1))
    draw_text(d, (cx + 50, y + 48), _signed(a), 40, WHITE)
    cx2 = WIDTH - MARGIN - 150
    d.rounded_rectangle((cx2 - 6, y + 26, cx2 + 38, y + 70), 8, fill=team_colour(2))
    draw_text(d, (cx2 + 50, y + 48), _signed(b), 40, WHITE)


def _sweep_text(multiplier: int | None, lang: Lang) -> str:
    # HandResult does not carry the multiplier: the caller passes the table's rule.
    text = label("sweep", lang, m=multiplier or 1)
    return text if multiplier and multiplier > 1 else text.split(" ×")[0]


def _place_row(
    d: ImageDraw.ImageDraw, y: int, place: int, seat: int, name: str, points: int, lang: Lang
) -> None:
    d.rounded_rectangle((MARGIN, y + 4, WIDTH - MARGIN, y + ROW_H - 4), 14, fill=FELT_LIGHT)
    colour = PLACE_COLOURS[place - 1]
    fg = INK if place <= 4 else WHITE
    d.rounded_rectangle((MARGIN + 10, y + 12, MARGIN + 150, y + ROW_H - 12), 10, fill=colour)
    text = place_label(place, lang)
    draw_text(d, (MARGIN + 80, y + ROW_H / 2), text, 28 if lang == "zh" else 24, fg, anchor="m")
    _seat_chip(d, MARGIN + 190, y + ROW_H / 2, seat)
    draw_text(d, (MARGIN + 226, y + ROW_H / 2), ellipsize(name, 32, 480), 32, WHITE)
    draw_text(
        d,
        (WIDTH - MARGIN - 24, y + ROW_H / 2),
        label("points", lang, p=_signed(points)),
        30,
        WHITE,
        "r",
    )


def _winners_only(result: HandResult, lang: Lang) -> list[str]:
    """A line per team that positive_only set to 0, so the rows still add up."""
    if result.sweep_team is not None:
        return []
    out = []
    scores = zip(("1-3-5", "2-4-6"), result.itemized_scores(), result.team_scores, strict=True)
    for team, raw, final in scores:
        if raw != final:
            out.append(label("winners_only", lang, team=team, raw=_signed(raw)))
    return out


def _bonus_row(
    d: ImageDraw.ImageDraw, y: int, bonus: Bonus, names: Sequence[str], lang: Lang
) -> None:
    cy = y + 22
    x = MARGIN + 34
    for seat, sign in ((bonus.earner, "+1"), (bonus.payer, _signed(-1))):
        _seat_chip(d, x, cy, seat, 18)
        x += 28
        x += draw_text(d, (x, cy), ellipsize(seat_name(names, seat, lang), 26, 200), 26, WHITE)
        x += 10 + draw_text(d, (x + 10, cy), sign, 28, GOLD) + 40
    draw_text(d, (WIDTH - MARGIN - 24, cy), bonus_kind(bonus.kind, lang), 26, SOFT, anchor="r")


def _tribute_row(
    d: ImageDraw.ImageDraw,
    y: int,
    giver: int,
    receiver: int,
    count: int,
    kind: str,
    names: Sequence[str],
    lang: Lang,
) -> None:
    cy = y + 22
    x = MARGIN + 34
    _seat_chip(d, x, cy, giver, 18)
    x += 28
    x += draw_text(d, (x, cy), ellipsize(seat_name(names, giver, lang), 26, 220), 26, WHITE) + 14
    x += draw_text(d, (x, cy), "→", 28, GOLD) + 30
    _seat_chip(d, x, cy, receiver, 18)
    x += 28
    draw_text(d, (x, cy), ellipsize(seat_name(names, receiver, lang), 26, 220), 26, WHITE)
    right = f"{cards_label(count, lang)}  {tribute_label(kind, lang)}"
    draw_text(d, (WIDTH - MARGIN - 24, cy), right, 26, SOFT, anchor="r")


def result_png(
    result: HandResult,
    names: Sequence[str],
    totals: tuple[int, int],
    lang: Lang,
    hand_no: int,
    preset: PresetName | None,
    sweep_multiplier: int | None,
) -> bytes:
    """The result image as PNG bytes, as every chat platform posts it."""
    from .style import to_png

    image = render_result(
        result,
        names,
        totals,
        lang,
        hand_no=hand_no,
        preset=preset,
        sweep_multiplier=sweep_multiplier,
    )
    png: bytes = to_png(image)
    return png
