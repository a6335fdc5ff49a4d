"""Paging and labels for a seat's private controls (the choices themselves are the
snapshot's ``PlayMenu``).

Plays are chosen in three short steps — base rank, size, then which 2s and jokers go
with it — because a lead can have hundreds of legal plays and a Discord menu holds 25.
Longer lists are paged: the last entry of a full page is "more…".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from bot.engine.cards import Counts, rank_char
from bot.engine.plays import JOKERS_BASE, TWOS_BASE
from bot.i18n.catalogue import Lang
from bot.present.playmenu import play_of

PAGE = 24  # options per menu page; the 25th is "more…"
MORE = "~"
T = TypeVar("T")


def page_of(items: Sequence[T], page: int) -> tuple[list[T], bool, int]:
    """One page of a long list: (items, whether more follow, the page actually shown)."""
    if len(items) <= PAGE + 1:
        return list(items), False, 0
    pages = -(-len(items) // PAGE)
    page = page % pages
    chunk = list(items[page * PAGE : (page + 1) * PAGE])
    return chunk, True, page


# -- labels ----------------------------------------------------------------------------
_JOKER_NAMES = {"zh": ("小王", "大王"), "en": ("small joker", "big joker")}


def rank_name(base: int, lang: Lang) -> str:
    if base == JOKERS_BASE:
        return "王" if lang == "zh" else "jokers"
    if base == TWOS_BASE:
        return "2"
    if base == 10:
        return "10"
    return rank_char(base)


def play_text(cards: Counts, lang: Lang) -> str:
    """A play for people: ``10×5 +2×2 +小王`` rather than ``TTTTT22S``."""
    p = play_of(cards)
    small_name, big_name = _JOKER_NAMES["zh" if lang == "zh" else "en"]
    parts: list[str] = []
    if p.base not in (JOKERS_BASE,):
        parts.append(_times(rank_name(p.base, lang), p.n))
    if p.twos:
        parts.append(_times("2", p.twos))
    if p.small:
        parts.append(_times(small_name, p.small))
    if p.big:
        parts.append(_times(big_name, p.big))
    return " +".join(parts)


def cards_text(cards: Counts, lang: Lang) -> str:
    """Any set of cards (a tribute return), high to low."""
    small_name, big_name = _JOKER_NAMES["zh" if lang == "zh" else "en"]
    parts = []
    for i in range(len(cards) - 1, -1, -1):
        n = cards[i]
        if not n:
            continue
        name = small_name if i == 13 else big_name if i == 14 else rank_name(i + 3, lang)
        parts.append(_times(name, n))
    return " ".join(parts)


def _times(name: str, n: int) -> str:
    if n == 1:
        return name
    if n <= 3 and len(name) == 1:
        return name * n
    return f"{name}×{n}"
