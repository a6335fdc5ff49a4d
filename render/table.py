"""The public table image: six seats around the table, the trick, the top play.

It takes only a PublicView, so it cannot show a private card by construction.
Seats run counter-clockwise on screen as at a real table: 1 at the bottom, 2 and 3 up the
right, 4 at the top, 5 and 6 down the left, so every seat faces its opposite (n+3).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.engine.state import Phase, SeatStatus
from bot.engine.views import PublicView, SeatPublic
from bot.i18n.catalogue import Lang

from .cards import draw_play, play_width
from .fonts import draw_text, ellipsize
from .labels import cards_label, label, place_label, preset_label, seat_name, status_badges
from .style import (
    BADGE_COLOURS,
    FELT,
    FELT_LIGHT,
    GOLD,
    INK,
    INK_SOFT,
    PANEL,
    PANEL_OUT,
    RGB,
    TURN,
    WHITE,
    badge,
    team_colour,
)

WIDTH = 920
PANEL_W, PANEL_H = 436, 214
GAP = 16
HEAD_H = 58
PLAY_H = 100  # small cards of a seat's last play
TOP_H = 124  # the top play, repeated large in the middle of the table
CENTER_H = 228
ROW_Y = (
    GAP,
    GAP * 2 + PANEL_H,
    GAP * 4 + PANEL_H * 2 + CENTER_H,
    GAP * 5 + PANEL_H * 3 + CENTER_H,
)
HEIGHT = ROW_Y[3] + PANEL_H + GAP
CENTER_Y = GAP * 3 + PANEL_H * 2
_LEFT, _RIGHT, _MID = GAP, WIDTH - GAP - PANEL_W, (WIDTH - PANEL_W) // 2
SEAT_POS = {
    4: (_MID, ROW_Y[0]),
    5: (_LEFT, ROW_Y[1]),
    3: (_RIGHT, ROW_Y[1]),
    6: (_LEFT, ROW_Y[2]),
    2: (_RIGHT, ROW_Y[2]),
    1: (_MID, ROW_Y[3]),
}


def _seat_badges(p: SeatPublic, autoplay: bool, to_act: bool, lang: Lang) -> list[tuple[str, RGB]]:
    out: list[tuple[str, RGB]] = []
    if to_act:
        out.append((label("to_act", lang), BADGE_COLOURS["turn"]))
    out += status_badges(p, lang, short=True, dead=True)
    if autoplay:
        out.append((label("autoplay", lang), BADGE_COLOURS["autoplay"]))
    return out


def _draw_seat(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PublicView,
    p: SeatPublic,
    name: str,
    autoplay: bool,
    lang: Lang,
) -> None:
    x, y = SEAT_POS[p.seat]
    team = team_colour(p.seat)
    playing = p.status is SeatStatus.PLAYING
    to_act = view.to_act == p.seat and view.phase is Phase.PLAY
    is_top = view.top_seat == p.seat and p.last not in (None, "pass", "rang")
    box = (x, y, x + PANEL_W, y + PANEL_H)
    if to_act:
        d.rounded_rectangle((x - 7, y - 7, x + PANEL_W + 7, y + PANEL_H + 7), 24, fill=TURN)
    d.rounded_rectangle(box, 18, fill=PANEL if playing else PANEL_OUT)
    d.rounded_rectangle((x, y, x + PANEL_W, y + HEAD_H), 18, fill=team)
    d.rectangle((x, y + HEAD_H - 18, x + PANEL_W, y + HEAD_H), fill=team)
    _seat_header(d, p, name, playing, lang)
    py = y + PANEL_H - PLAY_H - 10
    _seat_marks(d, view, p, autoplay, to_act, playing, py, lang)
    # This trick: cards, 过 or 让.
    if p.last in ("pass", "rang"):
        draw_text(d, (x + 30, py + PLAY_H / 2), label(p.last, lang), 44, INK_SOFT)
    elif p.last:
        _seat_play(img, d, x, py, p.last, is_top, lang)


def _seat_header(
    d: ImageDraw.ImageDraw, p: SeatPublic, name: str, playing: bool, lang: Lang
) -> None:
    """Seat number, name, and the card count where the count rule shows it."""
    x, y = SEAT_POS[p.seat]
    team = team_colour(p.seat)
    cx, cy = x + 32, y + HEAD_H // 2
    d.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), fill=WHITE)
    draw_text(d, (cx, cy), str(p.seat), 28, team, anchor="m")
    right = ""
    if p.count is not None and playing:
        right = cards_label(p.count, lang)
    rw = draw_text(d, (x + PANEL_W - 16, cy), right, 28, WHITE, anchor="r") if right else 0
    name_w = PANEL_W - 64 - 16 - rw - (14 if rw else 0)
    draw_text(d, (x + 62, cy), ellipsize(name, 32, name_w), 32, WHITE)


def _seat_marks(
    d: ImageDraw.ImageDraw,
    view: PublicView,
    p: SeatPublic,
    autoplay: bool,
    to_act: bool,
    playing: bool,
    py: int,
    lang: Lang,
) -> None:
    """The seat's badges under its header, and its place once it has one."""
    x, y = SEAT_POS[p.seat]
    bx = x + 14
    by = y + HEAD_H + 22
    for text, colour in _seat_badges(p, autoplay, to_act, lang):
        fg = INK if colour == BADGE_COLOURS["turn"] else WHITE
        bx += badge(d, bx, by, text, 25, colour, fg) + 8
    if p.place is not None:
        if p.last is None and (not playing or view.phase is Phase.OVER):
            # Out and silent this trick: the place is the news, so show it large.
            badge(d, x + 24, py + PLAY_H / 2, place_label(p.place, lang), 36, GOLD, INK)
        else:
            badge(d, x + PANEL_W - 14, by, place_label(p.place, lang), 24, GOLD, INK, anchor="r")


def _seat_play(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, py: int, play: str, is_top: bool, lang: Lang
) -> None:
    """The seat's play this trick; the play to beat is framed in gold and marked."""
    gx = x + 18
    max_w = PANEL_W - 36 - (90 if is_top else 0)
    if is_top:
        rw2 = play_width(play, PLAY_H, max_w)
        d.rounded_rectangle(
            (gx - 8, py - 4, gx + rw2 + 10, py + PLAY_H + 6),
            12,
            fill=(255, 236, 153),
            outline=GOLD,
            width=4,
        )
    end = draw_play(img, play, gx, py, PLAY_H, max_w, lang, badge_size=20)
    if is_top:
        badge(d, end + 18, py + PLAY_H / 2, label("top", lang), 24, GOLD, INK)


def _draw_center(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PublicView, names: Sequence[str], lang: Lang
) -> None:
    cy0 = CENTER_Y
    d.rounded_rectangle((GAP, cy0, WIDTH - GAP, cy0 + CENTER_H), 40, fill=FELT_LIGHT)
    mid = WIDTH // 2

    def who(seat: int) -> str:
        tag, name = label("seat", lang, n=seat), seat_name(names, seat, lang)
        return tag if name == tag else f"{tag} {ellipsize(name, 28, 260)}"

    if view.phase is Phase.VOIDED:
        draw_text(d, (mid, cy0 + CENTER_H / 2), label("phase_voided", lang), 40, WHITE, "m")
        return
    if view.phase is Phase.OVER:
        draw_text(d, (mid, cy0 + CENTER_H / 2), label("phase_over", lang), 44, WHITE, "m")
        return
    if view.phase is Phase.RETURN_TRIBUTE:
        draw_text(d, (mid, cy0 + CENTER_H / 2), label("phase_return", lang), 40, WHITE, "m")
        return
    if view.top_seat is not None and view.top_cards:
        line = label("top_play", lang, who=who(view.top_seat))
        draw_text(d, (mid, cy0 + 30), line, 30, WHITE, "m")
        extra = 120 if view.top_gouji else 0
        max_w = WIDTH - 2 * GAP - 60 - extra
        rw = play_width(view.top_cards, TOP_H, max_w)
        x0 = mid - (rw + extra) // 2
        draw_play(img, view.top_cards, x0, cy0 + 54, TOP_H, max_w, lang, badge_size=24)
        if view.top_gouji:
            badge(
                d,
                x0 + rw + 20,
                cy0 + 54 + TOP_H / 2,
                label("gouji", lang),
                28,
                BADGE_COLOURS["gouji"],
            )
    elif view.to_act is not None:
        text = label("lead", lang, who=who(view.to_act))
        draw_text(d, (mid, cy0 + CENTER_H / 2), text, 34, WHITE, "m")
    if view.to_act is not None and view.top_seat is not None:
        draw_text(
            d,
            (mid, cy0 + CENTER_H - 24),
            label("turn_of", lang, who=who(view.to_act)),
            30,
            TURN,
            "m",
        )


def render_table(
    public: PublicView,
    names: Sequence[str],
    hand_no: int,
    lang: Lang = "zh",
    autoplay: Collection[int] = frozenset(),
) -> Image.Image:
    """The table everyone sees. ``names`` are the six seats' display names (any Unicode);
    ``autoplay`` holds the seats under 托管."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    d = ImageDraw.Draw(img)
    _draw_center(img, d, public, names, lang)
    for p in public.seats:
        _draw_seat(img, d, public, p, seat_name(names, p.seat, lang), p.seat in autoplay, lang)
    # Corners beside seats 4 and 1: hand number, preset, and what is special now.
    side = _MID - GAP * 2
    draw_text(d, (GAP + 4, ROW_Y[0] + 40), label("hand_no", lang, n=hand_no), 40, WHITE)
    draw_text(
        d,
        (GAP + 4, ROW_Y[0] + 96),
        ellipsize(preset_label(public.preset, lang), 32, side),
        32,
        (205, 225, 212),
    )
    if public.free_play and public.phase is Phase.PLAY:
        text = label("free_play", lang)
        size = 26 if lang == "zh" else 20
        badge(d, WIDTH - GAP - 4, ROW_Y[0] + 40, text, size, BADGE_COLOURS["free"], anchor="r")
    for i, seat in enumerate((1, 2)):
        ty = ROW_Y[3] + 60 + i * 60
        text = "1-3-5" if seat == 1 else "2-4-6"
        d.rounded_rectangle((GAP + 4, ty - 16, GAP + 36, ty + 16), 8, fill=team_colour(seat))
        draw_text(d, (GAP + 48, ty), text, 28, WHITE)
    return img
