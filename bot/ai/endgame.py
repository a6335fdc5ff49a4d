"""四户乱缠 endgames, searched: once two seats are out, the rest of the hand is a small game.

From then on play is free (RULES §9): anyone answers anyone in turn, no 够级 restriction,
no burns, no 让, and a pass no longer locks a seat out of the trick. A seat that counts
cards knows every card still held — it is neither played nor in its own hand — and with
one opponent left it knows that opponent's hand exactly. What is left is a race the
lecture's rules of thumb play badly and a search plays well: which set to give up, when to
take the lead, whether to break a pair so as not to be caught before the 3s.

This module plays that race on count vectors, much faster than the engine's ``apply``
(which carries the whole table: history, events, burn windows): ``Node`` is only what free
play needs, ``step`` follows the engine's rules for it (a test plays random endgames
through both and compares), and ``choose`` searches it with alpha-beta over deals of the
hidden cards the seat cannot tell apart. Values are the hand's outcome for the seat's team
(1 a win, ½ a tie, 0 a loss, by the preset's place points) plus a hundredth of the point
margin, so among equal outcomes the search takes the better margin.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine.actions import Action, ActionKind
from ..engine.cards import I_FOUR, I_THREE, Counts
from ..engine.movegen import Constraints, gen_answers, gen_leads
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.state import SEATS, HandState, Phase, SeatStatus, same_team
from ..engine.views import SeatView
from .deal import deal, fours_held, hand_sizes, hidden_cards, pass_caps
from .hand import play_of

FREE_FOURS = Constraints()
MUST_FOURS = Constraints(fours="must")
NO_FOURS = Constraints(fours="forbid")
# A caught seat's 闷贡 (where it does not rank 大落 at once): worth a point and a half of
# margin (a hundredth each), so the search avoids it when the places come out the same.
MEN_VALUE = 0.015
PASS = Action(ActionKind.PASS)


class Unsupported(Exception):
    """A position this search does not play (the caller keeps its own choice)."""


class OutOfNodes(Exception):
    """The node budget ran out before the search finished."""


class Node(NamedTuple):
    """A free-play position: what the next moves depend on, and nothing else."""

    hands: tuple[Counts, ...]  # every seat's hand (index seat - 1)
    top: Play | None  # the play to beat; None while a seat leads
    top_seat: int  # who made it (0 while a seat leads)
    to_act: int  # 0 once the hand is over
    passed: int  # bit seat - 1: passed since the play on top
    live: int  # bit seat - 1: still plays (holds cards; not out, caught dead or revolted)
    out: tuple[int, ...]  # played out, in order
    dead: tuple[int, ...]  # caught under ``men_is_last``: ranked from the bottom
    caught: tuple[int, ...]  # every seat caught before its 3s (被闷)


# Built with tuple.__new__ in the search's hot path: NamedTuple's own constructor and
# ``_replace`` cost several times more, and a search makes millions of nodes.
_new = tuple.__new__
_DOWN = (0, 2, 3, 4, 5, 6, 1)  # seat -> the next seat counter-clockwise
Move = Play | None  # None: a pass
MoveKey = tuple[Counts, Play | None, Constraints]


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed during an endgame, and the moves already worked out for it."""

    rules: Rules
    me: int
    revolters: tuple[int, ...]  # sit out, ranked at fixed places
    fours_pending: frozenset[int]  # opened under 点四: the next lead must be the 4s
    fours_free: frozenset[int]  # their 4s are ordinary cards
    known: dict[MoveKey, list[Move]] = field(default_factory=dict)

    def constraints(self, hand: Counts, seat: int) -> Constraints:
        """The engine's 点四 rule (``queries.constraints``); nobody burns in free play."""
        if not self.rules.dian_si or not hand[I_FOUR] or seat in self.fours_free:
            return FREE_FOURS
        return MUST_FOURS if seat in self.fours_pending else NO_FOURS

    def moves(self, hand: Counts, top: Play | None, seat: int) -> list[Move]:
        """The seat's choices, one play per base rank and size (the fewest big jokers,
        small jokers and 2s among equals: the others spend dearer cards the same way),
        a play that empties the hand first, then larger ones; None is a pass."""
        cons = self.constraints(hand, seat)
        key = (hand, top, cons)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = _moves(hand, top, self.rules, cons)
        return found


def _moves(hand: Counts, top: Play | None, rules: Rules, cons: Constraints) -> list[Move]:
    plays = gen_leads(hand, rules, cons) if top is None else gen_answers(hand, top, rules, cons)
    best: dict[tuple[int, int], Play] = {}
    for p in plays:
        key = (p.base, p.size)
        have = best.get(key)
        if have is None or (p.big, p.small, p.twos) < (have.big, have.small, have.twos):
            best[key] = p
    left = sum(hand)
    ordered = sorted(best.values(), key=lambda p: (p.size != left, -p.size, p.big, p.small, p.base))
    out: list[Move] = list(ordered)
    if top is not None:
        out.append(None)
    return out


# -- the rules of free play -----------------------------------------------------------
def step(t: Table, n: Node, move: Move) -> Node:
    """The position after the seat to act plays ``move`` (a pass when None)."""
    hands, top, top_seat, s, passed, live, out, dead, caught = n
    if move is None:
        return _advance(t, hands, top, top_seat, passed | 1 << (s - 1), live, out, dead, caught, s)
    hand = tuple([h - c for h, c in zip(hands[s - 1], move.counts(), strict=True)])
    hands = (*hands[: s - 1], hand, *hands[s:])
    if top_seat and t.rules.bie_san and live >> (top_seat - 1) & 1 and top_seat not in caught:
        h = hands[top_seat - 1]
        if h[I_THREE] and h[I_THREE] == sum(h):  # 被闷 (``check_caught``)
            caught = (*caught, top_seat)
            if t.rules.men_is_last:
                dead = (*dead, top_seat)
                live &= ~(1 << (top_seat - 1))
                if _over(t, live, out):
                    return _new(Node, (hands, None, 0, 0, 0, live, out, dead, caught))
    if not sum(hand):
        out = (*out, s)
        live &= ~(1 << (s - 1))
        if _over(t, live, out):
            return _new(Node, (hands, None, 0, 0, 0, live, out, dead, caught))
    return _advance(t, hands, move, s, 0, live, out, dead, caught, s)


def _advance(
    t: Table,
    hands: tuple[Counts, ...],
    top: Play | None,
    top_seat: int,
    passed: int,
    live: int,
    out: tuple[int, ...],
    dead: tuple[int, ...],
    caught: tuple[int, ...],
    after: int,
) -> Node:
    """The next seat to answer, or the trick's end (``Transition.advance`` in free play)."""
    waiting = live & ~passed
    s = _DOWN[after]
    while s != top_seat:
        if waiting >> (s - 1) & 1:
            return _new(Node, (hands, top, top_seat, s, passed, live, out, dead, caught))
        s = _DOWN[s]
    # The trick is over: its winner leads, or the next live seat downstream (接风).
    for _ in SEATS:
        if live >> (s - 1) & 1:
            if not t.moves(hands[s - 1], None, s):
                raise Unsupported("a seat without a legal lead")
            return _new(Node, (hands, None, 0, s, 0, live, out, dead, caught))
        s = _DOWN[s]
    raise Unsupported("nobody left to lead")


def _over(t: Table, live: int, out: tuple[int, ...]) -> bool:
    """The engine's ``check_over``: one team left holding cards, or 串三户."""
    return not live & 0b010101 or not live & 0b101010 or _sweep(t, out)


def _sweep(t: Table, out: tuple[int, ...]) -> bool:
    head = list(out)
    for rv in t.revolters:
        mates = sorted(x for x in SEATS if same_team(x, rv) and x != rv)
        if sorted(head[:2]) == mates:
            head.insert(2, rv)
    return len(head) >= 3 and same_team(head[0], head[1]) and same_team(head[0], head[2])


def places(t: Table, n: Node) -> list[int]:
    """Seats from 头科 to 大落 once the hand is over (``Transition.ranking``)."""
    live = [s for s in SEATS if n.live >> (s - 1) & 1]
    ref = n.out[-1]
    live.sort(key=lambda s: (sum(n.hands[s - 1]), (s - ref) % 6))
    order = [*n.out, *live, *n.dead[::-1]]
    for rv in t.revolters:
        mates = sorted(x for x in SEATS if same_team(x, rv) and x != rv)
        at = 2 if sorted(n.out[:2]) == mates else 3
        order.insert(min(at, len(order)), rv)
    return order


def value(t: Table, n: Node) -> float:
    """The finished hand for the seat's team: 1 won, ½ tied, 0 lost, plus the margin."""
    table = t.rules.score_table
    margin = 0
    for i, s in enumerate(places(t, n)):
        margin += table[i] if same_team(s, t.me) else -table[i]
    if _sweep(t, n.out):
        margin *= t.rules.sweep_multiplier
    v = (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0) + margin / 100
    if not t.rules.men_is_last:
        for s in n.caught:
            v += -MEN_VALUE if same_team(s, t.me) else MEN_VALUE
    return v


# -- the search -----------------------------------------------------------------------
_EXACT, _LOWER, _UPPER = 0, 1, 2


class Search:
    """Alpha-beta for the seat's team (its seats maximise, the others minimise) with a
    transposition table, over one deal; ``nodes`` counts against a shared budget."""

    def __init__(self, t: Table, budget: int) -> None:
        self.t = t
        self.budget = budget
        self.nodes = 0
        # node -> (value, bound kind, the move that set it: tried first when we return)
        self.table: dict[Node, tuple[float, int, Move]] = {}

    def value_of(self, n: Node, move: Move) -> float:
        return self.ab(step(self.t, n, move), -9.0, 9.0)

    def ab(self, n: Node, alpha: float, beta: float) -> float:
        if not n.to_act:
            return value(self.t, n)
        known = self.table.get(n)
        first: Move = None
        if known is not None:
            v, flag, first = known
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes
        lo, hi = alpha, beta
        mine = same_team(n.to_act, self.t.me)
        best, best_move = (-9.0 if mine else 9.0), first
        moves = self.t.moves(n.hands[n.to_act - 1], n.top, n.to_act)
        if known is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        for move in moves:
            v = self.ab(step(self.t, n, move), alpha, beta)
            if (v > best) if mine else (v < best):
                best, best_move = v, move
                if mine:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        flag = _UPPER if best <= lo else _LOWER if best >= hi else _EXACT
        self.table[n] = (best, flag, best_move)
        return best


def scores(
    t: Table, deals: Sequence[Node], candidates: Sequence[Play | None], budget: int
) -> tuple[list[float], int]:
    """Each candidate's summed value over the deals the budget finished, and how many it
    finished (a deal the budget cuts is dropped whole, so every candidate saw the same
    deals)."""
    total = [0.0] * len(candidates)
    done = 0
    spent = 0
    for n in deals:
        search = Search(t, budget - spent)
        try:
            vals = [search.value_of(n, c) for c in candidates]
        except OutOfNodes:
            break
        finally:
            spent += search.nodes
        total = [a + b for a, b in zip(total, vals, strict=True)]
        done += 1
    return total, done


# -- from the seat's view ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EndgameConfig:
    """How hard ``normal`` looks at a free-play endgame."""

    max_cards: int = 30  # cards in every hand together, above which it keeps its rules
    deals: int = 8  # deals of the hidden cards when more than one other seat holds any
    budget: int = 3000  # search nodes per decision, over all deals (deterministic)
    margin: float = 0.05  # per deal: what another move must gain over normal's choice


DEFAULT_ENDGAME = EndgameConfig()


def applies(view: SeatView, public: HandState, cfg: EndgameConfig) -> bool:
    """Free play, this seat to act, an opponent still holding cards, few cards left."""
    pub = view.public
    if (
        public.phase is not Phase.PLAY
        or not public.free_play
        or public.to_act != view.seat
        or public.lead_pending
        or public.burner is not None
        or public.extras.chong is not None
    ):
        return False
    holders = [s.seat for s in pub.seats if s.status is SeatStatus.PLAYING]
    if not any(not same_team(s, view.seat) for s in holders):
        return False
    return sum(hidden_cards(view, public)) + sum(view.hand) <= cfg.max_cards


def node_of(public: HandState, hands: tuple[Counts, ...]) -> Node:
    passed = live = 0
    for s in public.passed_since_top:
        passed |= 1 << (s - 1)
    for s in SEATS:
        if public.status[s - 1] is SeatStatus.PLAYING and any(hands[s - 1]):
            live |= 1 << (s - 1)
    return Node(
        hands=hands,
        top=public.top_play,
        top_seat=public.top_seat or 0,
        to_act=public.to_act or 0,
        passed=passed,
        live=live,
        out=public.out_order,
        dead=public.bottom_order,
        caught=tuple(s for s, _ in public.caught),
    )


def table_of(view: SeatView, public: HandState) -> Table:
    return Table(
        rules=public.rules,
        me=view.seat,
        revolters=public.revolters,
        fours_pending=public.fours_pending,
        fours_free=public.fours_free,
    )


def choose(
    view: SeatView,
    public: HandState,
    legal: Sequence[Action],
    base: Action,
    rng: random.Random,
    cfg: EndgameConfig,
) -> Action:
    """The searched move, or ``base`` (normal's choice) unless another did better by the
    margin on the same deals. ``public`` is ``masked_state``: other hands are dealt here."""
    t = table_of(view, public)
    pool = hidden_cards(view, public)
    sizes = hand_sizes(view, pool)
    hands = list(public.hands)
    hands[view.seat - 1] = tuple(view.hand)
    cands = _candidates(t, node_of(public, tuple(hands)), legal, base)
    if len(cands) < 2:
        return base
    holders = sum(1 for s in SEATS if s != view.seat and sizes[s - 1])
    exact = holders == 1
    caps = pass_caps(view)
    fours = fours_held(view, public)
    deals = [
        node_of(public, deal(view, sizes, caps, rng, pool, fours))
        for _ in range(1 if exact else cfg.deals)
    ]
    try:
        totals, done = scores(t, deals, [m for m, _ in cands], cfg.budget)
    except Unsupported:
        return base
    if not done:
        return base
    best = max(range(len(cands)), key=lambda i: totals[i])
    need = 1e-9 if exact else cfg.margin * done
    return cands[best][1] if totals[best] > totals[0] + need else base


def _candidates(
    t: Table, n: Node, legal: Sequence[Action], base: Action
) -> list[tuple[Play | None, Action]]:
    """Normal's choice first, then every other move the search tells apart."""
    allowed = set(legal)
    out: list[tuple[Play | None, Action]] = []
    if base.kind is ActionKind.PASS:
        out.append((None, base))
    elif base.kind is ActionKind.PLAY and base.cards is not None:
        out.append((play_of(base.cards), base))
    else:
        return []
    for m in t.moves(n.hands[n.to_act - 1], n.top, n.to_act):
        a = PASS if m is None else Action.play(m)
        if a in allowed and a != base:
            out.append((m, a))
    return out
