"""What a seat's private controls offer, worked out from ``PrivateSnapshot.legal`` alone.

Plays are chosen in three short steps — base rank, size, then which 2s and jokers go
with it — because a lead can have hundreds of legal plays and a Discord menu holds 25.
Longer lists are paged: the last entry of a full page is "more…".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Counts, rank_char
from bot.engine.movegen import group_by_rank_and_size
from bot.engine.plays import JOKERS_BASE, TWOS_BASE, Play, classify
from bot.engine.rules import make_rules

PAGE = 24  # options per menu page; the 25th is "more…"
MORE = "~"
PLAY_KINDS = (ActionKind.PLAY, ActionKind.BURN)
SIMPLE_KINDS = (
    ActionKind.PASS,
    ActionKind.RANG,
    ActionKind.REVOLT,
    ActionKind.DECLARE_POINT,
    ActionKind.WAIVE,
)
# Classification only needs base rank and size; the seat's real rules already made
# every listed play legal, so the loosest preset reads them all.
_LOOSE = make_rules("dagang")
T = TypeVar("T")


def play_of(cards: Counts) -> Play:
    return classify(cards, _LOOSE)


def cost(p: Play) -> tuple[int, ...]:
    """Cheapest first: fewer big jokers, small jokers and 2s, then lower rank and size."""
    return (p.big, p.small, p.twos, p.base if p.base else 99, p.size)


@dataclass(frozen=True, slots=True)
class Menu:
    # PLAY/BURN choices: base rank -> size -> cards (cheapest first); kinds per cards
    ranks: dict[int, dict[int, list[Counts]]] = field(default_factory=dict)
    kinds: dict[Counts, tuple[ActionKind, ...]] = field(default_factory=dict)
    returns: dict[int, list[Counts]] = field(default_factory=dict)  # giver -> cards
    simple: tuple[Action, ...] = ()
    cheapest: Action | None = None

    @property
    def has_plays(self) -> bool:
        return bool(self.ranks)


def build_menu(legal: Sequence[Action]) -> Menu:
    plays: dict[Counts, list[ActionKind]] = {}
    returns: dict[int, list[Counts]] = {}
    simple: list[Action] = []
    for a in legal:
        if a.kind in PLAY_KINDS and a.cards is not None:
            plays.setdefault(a.cards, []).append(a.kind)
        elif a.kind is ActionKind.RETURN_TRIBUTE and a.cards is not None and a.target:
            returns.setdefault(a.target, []).append(a.cards)
        elif a.kind in SIMPLE_KINDS:
            simple.append(a)
    parsed = {cards: play_of(cards) for cards in plays}
    grouped = group_by_rank_and_size(list(parsed.values()))
    ranks: dict[int, dict[int, list[Counts]]] = {}
    for (base, size), group in sorted(
        grouped.items(), key=lambda kv: (_rank_order(kv[0][0]), kv[0][1])
    ):
        ranks.setdefault(base, {})[size] = [p.counts() for p in sorted(group, key=cost)]
    kinds = {cards: tuple(k for k in PLAY_KINDS if k in ks) for cards, ks in plays.items()}
    for combos in returns.values():
        # Low cards first: what a player usually hands back.
        combos.sort(key=lambda c: tuple(reversed(c)))
    cheapest = None
    answering = any(a.kind is ActionKind.PASS for a in legal)
    pool = [c for c, ks in kinds.items() if ActionKind.PLAY in ks] if answering else []
    kind = ActionKind.PLAY
    if not pool and not any(a.kind is ActionKind.PLAY for a in legal):
        pool = [c for c, ks in kinds.items() if ActionKind.BURN in ks]
        kind = ActionKind.BURN
    if pool:
        best = min(pool, key=lambda c: cost(parsed[c]))
        cheapest = Action(kind, best)
    order = {k: i for i, k in enumerate(SIMPLE_KINDS)}
    simple.sort(key=lambda a: (order[a.kind], a.pre))
    return Menu(ranks, kinds, returns, tuple(simple), cheapest)


def _rank_order(base: int) -> int:
    return 100 if base == JOKERS_BASE else base


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


def rank_name(base: int, lang: str) -> str:
    if base == JOKERS_BASE:
        return "王" if lang == "zh" else "jokers"
    if base == TWOS_BASE:
        return "2"
    if base == 10:
        return "10"
    return rank_char(base)


def play_text(cards: Counts, lang: str) -> str:
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


def cards_text(cards: Counts, lang: str) -> str:
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
