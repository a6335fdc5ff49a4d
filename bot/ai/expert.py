"""The ``expert`` level: determinized playouts on top of ``normal``.

For a decision with more than one sensible option it

1. deals the cards it cannot see (``Seen.outstanding``) to the other seats at random,
   consistent with what the seat has seen: the card counts its view shows (or the even
   share ``hidden_sizes`` guesses), the cards already played, its own hand, and the
   passes of the current trick (a seat that passed an opponent's play is dealt, when the
   deal allows it, a hand that cannot beat that play: soft evidence, since a pass can be
   strategic);
2. tries each candidate (normal's choice, passing or 让, and the next-cheapest plays or
   burns) on that same deal and plays the hand out with the fast rules of ``rollout``
   at every seat (``NormalPolicy`` itself is too slow for dozens of playouts a second);
3. keeps the candidate whose playouts gave its team the best mean place points.

The search sees only the seat's own view: ``decide`` hands it ``masked_state`` — the
public table with every other hand emptied — never the real hands.

Budget: ``playouts`` (total over all candidates) makes the decision deterministic for a
given rng seed. ``max_seconds`` is a safety net only: when a slow machine reaches it, the
search stops after the current deal and decides from the deals finished so far, so a
decision cut short by the clock may differ from an uncut one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..engine.actions import Action, ActionKind
from ..engine.cards import EMPTY, NUM_RANKS, Counts
from ..engine.errors import GoujiError
from ..engine.game import apply
from ..engine.movegen import gen_answers
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.state import SEATS, HandState, Mark, same_team
from ..engine.views import SeatView
from .base import Policy
from .hand import play_of
from .normal import NormalPolicy
from .rollout import rollout
from .tracking import Seen, hidden_sizes

SEAT_POINTS = (4, 2, 0, 0, -2, -4)  # place points (头科 … 大落) the search maximises
DEFAULT_PLAYOUTS = 48
DEFAULT_SECONDS = 1.5
MAX_CANDIDATES = 3
DEFAULT_MARGIN = 1.0  # mean team place points (x2) an alternative must gain over normal's
DEAL_TRIES = 8  # redeals tried to honour the passes of the current trick


class ExpertPolicy:
    """Search on top of ``NormalPolicy``; see the module docstring."""

    def __init__(
        self,
        rules: Rules | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        max_seconds: float = DEFAULT_SECONDS,
        margin: float = DEFAULT_MARGIN,
    ) -> None:
        self.margin = margin
        self.rules = rules
        self.playouts = playouts
        self.max_seconds = max_seconds
        self.normal = NormalPolicy(rules)
        self.fallback: Policy = self.normal  # where a table cannot wait for a search

    # -- the contract ----------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """Without the public table (a direct call), the expert plays like ``normal``."""
        return self.normal.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """Decide with playouts; ``public`` is ``masked_state`` for this seat."""
        base = self.normal.choose(view, legal, rng)
        cands = self.candidates(view, legal, base)
        if len(cands) < 2 or self.playouts < len(cands):
            return base
        seed = rng.getrandbits(64)
        deals = max(1, self.playouts // len(cands))
        totals = [0.0] * len(cands)
        finished = 0
        start = time.perf_counter()
        for d in range(deals):
            deal_rng = random.Random(seed + d)
            state = self.determinize(view, public, deal_rng)
            for i, cand in enumerate(cands):
                totals[i] += self._playout(state, view.seat, cand, deal_rng.getrandbits(32))
            finished += 1
            if time.perf_counter() - start > self.max_seconds:
                break  # the safety net: decide from the deals finished so far
        # Normal's choice stands unless an alternative did clearly better on the same deals:
        # a handful of playouts is noisy, and noise alone should not overrule the rules.
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        if totals[best] - totals[0] <= self.margin * finished:
            return cands[0]
        return cands[best]

    # -- candidates -------------------------------------------------------------------
    def candidates(
        self, view: SeatView, legal: Sequence[Action], base: Action | None
    ) -> list[Action | None]:
        """Normal's choice first, then the alternatives worth a playout."""
        rules = self.rules or view.public.rules
        kinds = {a.kind for a in legal}
        out: list[Action | None] = [base]
        if ActionKind.RETURN_TRIBUTE in kinds or ActionKind.REVOLT in kinds:
            return out  # 还贡 and 革命 are left to the rules of thumb
        if ActionKind.DECLARE_POINT in kinds and view.public.to_act != view.seat:
            return out
        if view.public.to_act == view.seat:
            for kind in (ActionKind.PASS, ActionKind.RANG):
                a = next((x for x in legal if x.kind is kind), None)
                if a is not None and a not in out:
                    out.append(a)
            pool = [a for a in legal if a.kind is ActionKind.PLAY]
        else:
            if None not in out:
                out.append(None)  # a burn window: declining is a candidate
            pool = [a for a in legal if a.kind is ActionKind.BURN]
        hand = view.hand
        ranked = sorted(
            pool,
            key=lambda a: self.normal.cost(play_of(a.cards or EMPTY), hand, rules),
        )
        seen_shapes: set[tuple[int, int]] = set()
        for a in ranked:
            if len(out) >= MAX_CANDIDATES:
                break
            p = play_of(a.cards or EMPTY)
            shape = (p.base, p.size)  # one variant per rank and size: the cheapest
            if a in out or shape in seen_shapes:
                continue
            seen_shapes.add(shape)
            out.append(a)
        return out

    # -- determinization --------------------------------------------------------------
    def determinize(self, view: SeatView, public: HandState, rng: random.Random) -> HandState:
        """A full state: the hidden cards dealt to the other seats, consistent with the view."""
        sizes = hidden_sizes(view)
        pool: list[int] = []
        for i, n in enumerate(Seen.of(view).outstanding):
            pool.extend([i] * n)
        others = [s for s in SEATS if s != view.seat and sizes[s - 1]]
        # Soft evidence: seats that passed an opponent's play on top (this trick).
        avoid: dict[int, Play] = {}
        top = public.top_play
        if top is not None and public.top_seat is not None:
            for s in others:
                if public.trick_marks[s - 1] is Mark.PASS and not same_team(s, public.top_seat):
                    avoid[s] = top
        hands: list[Counts] = []
        for _ in range(DEAL_TRIES):
            rng.shuffle(pool)
            hands = self._split(view, pool, sizes, others)
            rules = public.rules
            if all(not gen_answers(hands[s - 1], p, rules) for s, p in avoid.items()):
                break
        return public._replace(hands=tuple(hands))

    @staticmethod
    def _split(
        view: SeatView, pool: list[int], sizes: list[int], others: list[int]
    ) -> list[Counts]:
        hands: list[Counts] = [EMPTY] * 6
        hands[view.seat - 1] = tuple(view.hand)
        k = 0
        for s in others:
            c = [0] * NUM_RANKS
            for i in pool[k : k + sizes[s - 1]]:
                c[i] += 1
            k += sizes[s - 1]
            hands[s - 1] = tuple(c)
        return hands

    # -- playouts ---------------------------------------------------------------------
    def _playout(self, state: HandState, seat: int, cand: Action | None, seed: int) -> float:
        if cand is not None:
            try:
                state, _ = apply(state, seat, cand)
            except GoujiError:
                return -1e9  # not legal in this deal (cannot happen for own-hand moves)
        res = rollout(state, random.Random(seed)).result
        if res is None or res.voided:
            return 0.0
        mine = sum(SEAT_POINTS[i] for i, s in enumerate(res.places) if same_team(s, seat))
        return float(2 * mine)  # the other team's place points are 0 - mine
