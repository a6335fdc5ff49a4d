"""Every word drawn on an image, Chinese first; English uses the terms of RULES.md §0.

The words live in the shared text catalogue (context ``image``, plus the preset, place
and tribute names every front end shares); these helpers only pick and fill them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.rules import PresetName
from bot.i18n import image_label, place_name, preset_name, tribute_kind
from bot.i18n.catalogue import SHARED_DOMAIN, Lang, entries, norm_lang

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
