"""The play menu: what one seat may do now, in the shape every UI lays out.

Built from the engine's compact legal options (``legal_options`` → ``OptionGroup``): base
ranks with the count held, then sizes, then the 2s and jokers that may go with them
(cheapest first by the AI's own cost model), plus a short ranked list of *suggested* plays a
UI offers as one-tap buttons. Telegram, Discord and the terminal only lay this out, so they
cannot offer different choices or a play the engine would refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final

from ..ai import HeuristicPolicy
from ..engine.actions import Action, ActionKind
from ..engine.cards import I_BIG, I_SMALL, I_TWO, Counts
from ..engine.game import OptionGroup
from ..engine.plays import JOKERS_BASE, TWOS_BASE, Play

PLAY_KINDS: Final = (ActionKind.PLAY, ActionKind.BURN)
# Buttons for actions without cards, in the order a UI shows them.
SIMPLE_KINDS: Final = (
    ActionKind.PASS,
    ActionKind.RANG,
    ActionKind.REVOLT,
    ActionKind.DECLARE_POINT,
    ActionKind.HUI,
    ActionKind.CHONGDIAN,
    ActionKind.WAIVE,
)
MAX_SUGGESTIONS: Final = 3


class Suggest(StrEnum):
    FINISH = "finish"  # this play empties the hand
    CHEAPEST = "cheapest"  # the cheapest answer (or burn) that beats the top
    LEAD_SET = "lead_set"  # a whole set of one rank, nothing attached: a natural lead


@dataclass(frozen=True, slots=True)
class Variant:
    """One exact play: the base cards plus these 2s and jokers."""

    cards: Counts
    play: Play
    kinds: tuple[ActionKind, ...]  # PLAY and/or BURN: what these cards may be sent as

    def action(self, kind: ActionKind | None = None) -> Action:
        return Action(kind or self.kinds[0], self.cards)


@dataclass(frozen=True, slots=True)
class SizeChoice:
    size: int
    variants: tuple[Variant, ...]  # cheapest first


@dataclass(frozen=True, slots=True)
class RankChoice:
    base: int  # 3..14, TWOS_BASE for 2s alone, JOKERS_BASE for jokers alone
    held: int  # how many cards of this rank (or 2s / jokers) the seat holds
    sizes: tuple[SizeChoice, ...]  # smallest first

    def size(self, n: int) -> SizeChoice | None:
        return next((s for s in self.sizes if s.size == n), None)


@dataclass(frozen=True, slots=True)
class Suggestion:
    action: Action
    reason: Suggest


@dataclass(frozen=True, slots=True)
class ReturnChoice:
    """A tribute return owed to ``giver``: ``count`` cards, any of ``options`` (low first)."""

    giver: int
    count: int
    options: tuple[Counts, ...]


@dataclass(frozen=True, slots=True)
class PlayMenu:
    ranks: tuple[RankChoice, ...] = ()  # low rank first; jokers last
    suggestions: tuple[Suggestion, ...] = ()  # best first, at most MAX_SUGGESTIONS
    returns: tuple[ReturnChoice, ...] = ()
    simple: tuple[Action, ...] = ()  # pass, 让, revolt, 明点, waive (in that order)

    @property
    def has_plays(self) -> bool:
        return bool(self.ranks)

    def tree(self, kind: ActionKind) -> tuple[RankChoice, ...]:
        """The ranks → sizes → variants that may be sent as ``kind`` (PLAY or BURN)."""
        out: list[RankChoice] = []
        for r in self.ranks:
            sizes = []
            for s in r.sizes:
                kept = tuple(v for v in s.variants if kind in v.kinds)
                if kept:
                    sizes.append(SizeChoice(s.size, kept))
            if sizes:
                out.append(RankChoice(r.base, r.held, tuple(sizes)))
        return tuple(out)

    def rank(self, base: int) -> RankChoice | None:
        return next((r for r in self.ranks if r.base == base), None)

    def variant(self, cards: Counts) -> Variant | None:
        for r in self.ranks:
            for s in r.sizes:
                for v in s.variants:
                    if v.cards == cards:
                        return v
        return None

    def kinds(self) -> frozenset[ActionKind]:
        return frozenset(
            k for r in self.ranks for s in r.sizes for v in s.variants for k in v.kinds
        )

    def allows(self, action: Action) -> bool:
        """Whether the menu offers exactly this action (a stale button is refused early)."""
        if action.kind in PLAY_KINDS and action.cards is not None:
            v = self.variant(action.cards)
            return v is not None and action.kind in v.kinds
        if action.kind is ActionKind.RETURN_TRIBUTE:
            return any(r.giver == action.target and action.cards in r.options for r in self.returns)
        return action in self.simple


# -- building -----------------------------------------------------------------------------
_COSTS: Final = HeuristicPolicy()


def play_of(cards: Sequence[int]) -> Play:
    """The play a legal card multiset makes (legal lists hold only well-formed plays, so no
    rules are needed to read one back: the lowest plain rank is the base)."""
    for i in range(12):
        if cards[i]:
            return Play(i + 3, cards[i], cards[I_TWO], cards[I_SMALL], cards[I_BIG])
    if cards[I_TWO]:
        return Play(TWOS_BASE, cards[I_TWO], 0, cards[I_SMALL], cards[I_BIG])
    return Play(JOKERS_BASE, 0, 0, cards[I_SMALL], cards[I_BIG])


def option_groups(legal: Sequence[Action]) -> list[OptionGroup]:
    """The compact form of an expanded legal list (for callers that hold only actions)."""
    groups: dict[tuple[ActionKind, int, int], list[tuple[int, int, int]]] = {}
    for a in legal:
        if a.kind in PLAY_KINDS and a.cards is not None:
            p = play_of(a.cards)
            groups.setdefault((a.kind, p.base, p.size), []).append((p.twos, p.small, p.big))
    return [OptionGroup(k, b, n, tuple(sorted(v))) for (k, b, n), v in sorted(groups.items())]


def play_cost(play: Play, hand: Counts) -> float:
    """What a play spends of the hand, by the AI's cost model (lower is cheaper)."""
    return _COSTS.cost(play, hand)


def rank_order(base: int) -> int:
    """Low to high as a player reads ranks: 3 … A, then 2s, then jokers."""
    return 16 if base == JOKERS_BASE else base


def held(hand: Counts, base: int) -> int:
    if base == JOKERS_BASE:
        return hand[I_SMALL] + hand[I_BIG]
    if base == TWOS_BASE:
        return hand[I_TWO]
    return hand[base - 3]


# A menu lists the same plays state after state, and a frozen record takes microseconds
# to build (a lead offers hundreds): equal variants are one shared value. Bounded.
_variant = lru_cache(maxsize=1 << 14, typed=True)(Variant)


def build_menu(groups: Sequence[OptionGroup], legal: Sequence[Action], hand: Counts) -> PlayMenu:
    """The menu for one seat: ``groups`` from ``legal_options``, ``legal`` the actions the
    table lets the seat take now (a subset of the engine's, e.g. no play while a burn window
    holds the seat back)."""
    allowed = {a.kind for a in legal}
    variants: dict[Counts, Variant] = {}
    for g in groups:
        if g.kind not in allowed:
            continue
        for p in g.plays():
            cards = p.counts()
            old = variants.get(cards)
            if old is None:
                variants[cards] = _variant(cards, p, (g.kind,))
                continue
            kinds = (*old.kinds, g.kind)
            variants[cards] = _variant(cards, p, tuple(k for k in PLAY_KINDS if k in kinds))
    # Each variant's place in the cheapest-first orders, worked out once: the ranks and
    # the suggestions sort the same variants by it several times.
    keys = {cards: _key(v.play, hand) for cards, v in variants.items()}
    ranks = _ranks(tuple(variants.values()), hand, keys)
    order = {k: i for i, k in enumerate(SIMPLE_KINDS)}
    simple = sorted((a for a in legal if a.kind in order), key=lambda a: (order[a.kind], a.pre))
    answering = ActionKind.PASS in allowed
    return PlayMenu(
        ranks=ranks,
        suggestions=_suggest(tuple(variants.values()), hand, answering, keys),
        returns=_returns(legal),
        simple=tuple(simple),
    )


Key = tuple[float, int, int, int, int]


def _ranks(
    variants: Sequence[Variant], hand: Counts, keys: dict[Counts, Key]
) -> tuple[RankChoice, ...]:
    by_rank: dict[int, dict[int, list[Variant]]] = {}
    for v in variants:
        base, n, twos, small, big = v.play
        by_rank.setdefault(base, {}).setdefault(n + twos + small + big, []).append(v)
    out = []
    for base in sorted(by_rank, key=rank_order):
        sizes = tuple(
            SizeChoice(n, tuple(sorted(vs, key=lambda v: keys[v.cards])))
            for n, vs in sorted(by_rank[base].items())
        )
        out.append(RankChoice(base, held(hand, base), sizes))
    return tuple(out)


def _key(play: Play, hand: Counts) -> Key:
    return (play_cost(play, hand), play.big, play.small, play.twos, rank_order(play.base))


def _suggest(
    variants: tuple[Variant, ...], hand: Counts, answering: bool, keys: dict[Counts, Key]
) -> tuple[Suggestion, ...]:
    plays = [v for v in variants if ActionKind.PLAY in v.kinds]
    burns = [v for v in variants if ActionKind.BURN in v.kinds]
    out: list[Suggestion] = []
    total = sum(hand)

    def key(v: Variant) -> Key:
        return keys[v.cards]

    finish = [v for v in plays if v.play.size == total]
    if finish:
        best = min(finish, key=key)
        out.append(Suggestion(best.action(ActionKind.PLAY), Suggest.FINISH))
    if plays and answering:
        for v in sorted(plays, key=key)[:MAX_SUGGESTIONS]:
            out.append(Suggestion(v.action(ActionKind.PLAY), Suggest.CHEAPEST))
    elif plays:
        whole = [v for v in plays if _is_whole_set(v.play, hand)]
        for v in sorted(whole, key=key)[:MAX_SUGGESTIONS]:
            out.append(Suggestion(v.action(ActionKind.PLAY), Suggest.LEAD_SET))
    elif burns:
        best = min(burns, key=key)
        out.append(Suggestion(best.action(ActionKind.BURN), Suggest.CHEAPEST))
    seen: set[Action] = set()
    unique = []
    for s in out:
        if s.action not in seen:
            seen.add(s.action)
            unique.append(s)
    return tuple(unique[:MAX_SUGGESTIONS])


def _is_whole_set(play: Play, hand: Counts) -> bool:
    """All of one plain rank, nothing attached: leading it never splits a set."""
    plain = not (play.twos or play.small or play.big)
    return plain and 3 <= play.base <= 14 and play.n == held(hand, play.base)


def _returns(legal: Sequence[Action]) -> tuple[ReturnChoice, ...]:
    owed: dict[int, list[Counts]] = {}
    for a in legal:
        if a.kind is ActionKind.RETURN_TRIBUTE and a.target is not None and a.cards is not None:
            owed.setdefault(a.target, []).append(a.cards)
    return tuple(
        # Low cards first: what a player usually hands back.
        ReturnChoice(g, sum(combos[0]), tuple(sorted(combos, key=lambda c: tuple(reversed(c)))))
        for g, combos in sorted(owed.items())
    )
