"""Images as Discord attachments, drawn off the event loop so interactions stay answered."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

import discord
from PIL import Image

import render
from bot.engine.cards import Counts
from bot.engine.rules import PresetName
from bot.engine.state import HandResult
from bot.i18n.catalogue import Lang
from bot.table import PrivateSnapshot, TableSnapshot
from render import render_hand, render_table, to_png

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
RESULT_FILE = "result.png"


async def _png(draw: Callable[[], Image.Image]) -> bytes:
    return await asyncio.to_thread(lambda: to_png(draw()))


def as_file(data: bytes, name: str) -> discord.File:
    """A fresh attachment: a discord.File is used up once sent, the bytes are not."""
    return discord.File(io.BytesIO(data), filename=name)


async def table_png(snap: TableSnapshot) -> bytes | None:
    """The public table (None in the lobby, where there is no hand to draw)."""
    public = snap.public
    if public is None:
        return None
    names = list(snap.names) or [snap.name_of(s) for s in range(1, 7)]
    autoplay = {line.seat for line in snap.seats if line is not None and line.autoplay}
    lang = snap.settings.lang
    return await _png(
        lambda: render_table(public, names, snap.hand_no, lang=lang, autoplay=autoplay)
    )


async def hand_png(
    priv: PrivateSnapshot, names: list[str], highlight: Counts | None = None
) -> bytes:
    """One seat's own cards: only ever sent by DM or as an ephemeral message."""
    return await _png(
        lambda: render_hand(
            priv.view,
            lang=priv.lang,
            highlight=highlight,
            autoplay=priv.autoplay,
            name=names[priv.seat - 1] if names else None,
            mate_names=names or None,
        )
    )


async def result_png(
    result: HandResult,
    names: list[str],
    totals: tuple[int, int],
    lang: Lang,
    hand_no: int,
    preset: PresetName | None,
    sweep_multiplier: int | None,
) -> bytes:
    args = (result, names, totals, lang, hand_no, preset, sweep_multiplier)
    return await asyncio.to_thread(render.result_png, *args)
