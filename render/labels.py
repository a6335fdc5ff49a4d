"""Every word drawn on an image, Chinese first; English uses the terms of RULES.md §0.

The words live in the shared text catalogue (context ``image``, plus the preset, place
and tribute names every front end shares); these helpers only pick and fill them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.rules import PresetName
from bot.engine.state import SeatStatus
from bot.engine.views import SeatPublic
from bot.i18n import image_label, place_name, preset_name, tribute_kind
from bot.i18n.catalogue import SHARED_DOMAIN, Lang, entries, norm_lang

from .style import BADGE_COLOURS, RGB

# Catalogue contexts whose texts are drawn on images.
IMAGE_CONTEXTS = ("image", "preset", "place", "tribute")


def label(key: str, lang: Lang = "zh", **params: object) -> str:
    return image_label(key, lang, **params)


def cards_label(n: int, lang: Lang = "zh") -> str:
    return label("cards", lang, count=n)


def preset_label(preset: PresetName, lang: Lang = "zh") -> str:
    return preset_name(preset, lang)


def tribute_label(kind: str, lang: Lang = "zh") -> str:
    return tribute_kind(kind, lang)


def place_label(place: int, lang: Lang = "zh") -> str:
    return place_name(place, lang)


def seat_name(names: Sequence[str] | None, seat: int, lang: Lang = "zh") -> str:
    """The seat's display name, or "N号" when the caller has none (short list, blank)."""
    if names and len(names) >= seat and names[seat - 1].strip():
        return names[seat - 1]
    return label("seat", lang, n=seat)


def team_label(seat: int, lang: Lang = "zh") -> str:
    return label("team", lang, team="1-3-5" if seat % 2 else "2-4-6")


def all_strings(lang: Lang) -> list[str]:
    """Every fixed string drawn on images (placeholders removed), for the glyph-coverage test."""
    out: list[str] = []
    for (context, _key), entry in entries(SHARED_DOMAIN, norm_lang(lang)).items():
        if context in IMAGE_CONTEXTS:
            out += entry.strings
    return [s.replace("{", "").replace("}", "") for s in out]


def status_badges(
    p: SeatPublic, lang: Lang, short: bool = False, dead: bool = False
) -> list[tuple[str, RGB]]:
    """A seat's state as badges: 开点, 烧, 革命, 无头, 被闷 (or 烧糊 when ``dead``); ``short``
    words where space is tight (the table's seat panels)."""
    out: list[tuple[str, RGB]] = []
    if p.opened:
        out.append((label("opened_short" if short else "opened", lang), BADGE_COLOURS["opened"]))
    if p.burning:
        out.append((label("burning_short" if short else "burning", lang), BADGE_COLOURS["burning"]))
    if p.status is SeatStatus.REVOLTED:
        out.append((label("revolted", lang), BADGE_COLOURS["revolted"]))
    if p.headless:
        out.append((label("headless", lang), BADGE_COLOURS["headless"]))
    if p.caught:
        out.append((label("caught", lang), BADGE_COLOURS["caught"]))
    elif dead and p.status is SeatStatus.DEAD:
        out.append((label("dead", lang), BADGE_COLOURS["dead"]))
    return out
