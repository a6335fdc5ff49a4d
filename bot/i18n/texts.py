"""Localized texts by key, Chinese first: the call surface over the ``.po`` catalogue.

The texts themselves live in ``bot/i18n/locale/<lang>/LC_MESSAGES/gouji.po`` (and in each
front end's own domain); see :mod:`bot.i18n.catalogue` and docs/i18n.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..engine.rules import PresetName
from .catalogue import LANGS, Lang, find, text

# The front end whose own wording of a shared text is preferred in this task (see
# ``use_wording``); None: the shared texts as they are.
_WORDING: ContextVar[str | None] = ContextVar("gouji_wording", default=None)


def use_wording(prefix: str | None) -> None:
    """From here on in this task (and the tasks it starts), a shared text ``key`` is shown
    as the front end's own ``<prefix>_<key>`` where its domain has one: a shared text
    names Telegram's commands and words (/replay, 本群), Discord's its own (/gouji replay,
    本服). A front end calls it where its work begins (an interaction, an output)."""
    _WORDING.set(prefix)


@contextmanager
def wording(prefix: str | None) -> Iterator[None]:
    """``use_wording`` for a block only: for a front end's work done in another's task
    (the manager hands every front end each output in the task that made it)."""
    token = _WORDING.set(prefix)
    try:
        yield
    finally:
        _WORDING.reset(token)


def _reworded(key: str, lang: Lang) -> str | None:
    prefix = _WORDING.get()
    own = f"{prefix}_{key}" if prefix is not None else None
    return own if own is not None and find(own, lang) is not None else None


def error_text(code: str, params: dict[str, Any] | None = None, lang: Lang = "zh") -> str:
    """The refusal text for an engine or manager error code.

    A refusal that carries a reason parameter may have a more specific text keyed
    ``<code>.<param>`` (``revolt_not_allowed.card``: "You hold a 2, so ..."), or, for
    the parameter ``reason``, keyed by its value (``rang_not_allowed.lead``).
    """
    params = dict(params or {})
    own = _reworded(code, lang)
    if own is not None:
        return text(own, lang, None, params)
    # A card given in notation also comes as its name ("B" -> "a big joker": context card).
    card = params.get("card")
    if isinstance(card, str) and find(card, lang, "card") is not None:
        params["card_name"] = text(card, lang, "card")
    reason = params.get("reason")  # one code, several cases: the reason says which
    if isinstance(reason, str) and find(f"{code}.{reason}", lang, "error") is not None:
        return text(f"{code}.{reason}", lang, "error", params)
    for name in sorted(params):
        if find(f"{code}.{name}", lang, "error") is not None:
            return text(f"{code}.{name}", lang, "error", params)
    return text(code, lang, "error", params)


def t(key: str, lang: Lang = "zh", **params: Any) -> str:
    """A UI text; a key that is not a UI text may be an error code."""
    key = _reworded(key, lang) or key
    if find(key, lang) is None and find(key, lang, "error") is not None:
        return error_text(key, params, lang)
    return text(key, lang, None, params)


def has_text(key: str, lang: Lang = "zh", context: str | None = None) -> bool:
    """Whether some registered catalogue has ``key`` (for optional, more specific wordings)."""
    return find(key, lang, context) is not None


def place_name(place: int, lang: Lang = "zh") -> str:
    """1-based finish place: 头科 … 大落."""
    return text(str(place), lang, "place")


def tribute_kind(kind: str, lang: Lang = "zh") -> str:
    return text(kind, lang, "tribute")


def preset_name(preset: PresetName, lang: Lang = "zh") -> str:
    return text(preset, lang, "preset")


def bonus_kind(kind: str, lang: Lang = "zh") -> str:
    """What earned a competition-scoring ±1: 点, 闷 or 烧."""
    return text(kind, lang, "bonus")


def image_label(key: str, lang: Lang = "zh", **params: Any) -> str:
    """A word drawn on an image (context ``image``)."""
    return text(key, lang, "image", params)


def count_text(answer: str | None, count: int | None, lang: Lang = "zh") -> str:
    if answer == "exact":
        return t("count_exact", lang, count=count)
    if answer == "out":
        return t("count_out", lang)
    return t("count_not_enough", lang)


__all__ = [
    "LANGS",
    "bonus_kind",
    "count_text",
    "error_text",
    "has_text",
    "image_label",
    "place_name",
    "preset_name",
    "t",
    "tribute_kind",
    "use_wording",
    "wording",
]
