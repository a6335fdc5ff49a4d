"""Images as Discord attachments, drawn off the event loop so interactions stay answered."""

from __future__ import annotations

import io
from collections.abc import Callable

import discord

import render
from bot.engine.cards import Counts
from bot.engine.rules import PresetName
from bot.engine.state import HandResult
from bot.engine.views import PublicView, SeatView
from bot.i18n.catalogue import Lang
from bot.records.desk import Opened
from bot.table import PrivateSnapshot, TableSnapshot
from render import render_hand, render_table, replay, to_png

from ..drawing import Drawer

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
RESULT_FILE = "result.png"


async def _png(draw: Drawer, fn: Callable[..., bytes], *args: object) -> bytes:
    """``fn(*args)`` drawn by ``draw`` (adapters/drawing.py). The one place Discord draws:
    its tests put a fixed PNG here (tests/discord/conftest.py, ``quick_images``)."""
    return await draw(fn, *args)


# The drawing functions run in a drawing process: module-level, arguments picklable.
def _table_image(
    public: PublicView, names: list[str], hand_no: int, lang: Lang, autoplay: set[int]
) -> bytes:
    return to_png(render_table(public, names, hand_no, lang=lang, autoplay=autoplay))


def _hand_image(
    view: SeatView,
    lang: Lang,
    highlight: Counts | None,
    autoplay: bool,
    names: list[str],
    seat: int,
) -> bytes:
    img = render_hand(
        view,
        lang=lang,
        highlight=highlight,
        autoplay=autoplay,
        name=names[seat - 1] if names else None,
        mate_names=names or None,
    )
    return to_png(img)


def as_file(data: bytes, name: str) -> discord.File:
    """A fresh attachment: a discord.File is used up once sent, the bytes are not."""
    return discord.File(io.BytesIO(data), filename=name)


async def table_png(draw: Drawer, snap: TableSnapshot) -> bytes | None:
    """The public table (None in the lobby, where there is no hand to draw)."""
    public = snap.public
    if public is None:
        return None
    names = list(snap.names) or [snap.name_of(s) for s in range(1, 7)]
    autoplay = {line.seat for line in snap.seats if line is not None and line.autoplay}
    lang = snap.settings.lang
    return await _png(draw, _table_image, public, names, snap.hand_no, lang, autoplay)


async def hand_png(
    draw: Drawer, priv: PrivateSnapshot, names: list[str], highlight: Counts | None = None
) -> bytes:
    """One seat's own cards: only ever sent by DM or as an ephemeral message."""
    args = (priv.view, priv.lang, highlight, priv.autoplay, names, priv.seat)
    return await _png(draw, _hand_image, *args)


async def frame_png(draw: Drawer, opened: Opened, index: int, lang: Lang) -> bytes:
    """Frame ``index`` of an opened record, for the replay stepper."""
    rec, at = opened.record, (index, opened.last)
    frame = opened.frames[index]
    return await _png(draw, replay.frame_png, frame, rec.names, rec.hand_no, at, lang)


async def result_png(
    draw: Drawer,
    result: HandResult,
    names: list[str],
    totals: tuple[int, int],
    lang: Lang,
    hand_no: int,
    preset: PresetName | None,
    sweep_multiplier: int | None,
) -> bytes:
    args = (result, names, totals, lang, hand_no, preset, sweep_multiplier)
    return await _png(draw, render.result_png, *args)
