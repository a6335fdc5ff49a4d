"""The ``expert`` level: determinized playouts on top of ``normal``.

For a decision where the choice matters — answering an opponent (play, pass or 让), a
lead, a burn — it

1. lists a few candidates: normal's choice first, then passing or 让, and the cheapest
   alternatives by normal's cost (one per rank and size);
2. deals the cards it cannot see to the other seats at random, consistently with what
   the seat has seen (``deal``: the exact outstanding cards, the counts its view shows or
   the shares its public history implies, and the caps its opponents' passes imply);
3. plays every candidate on the same deals (common random numbers) to the end of the
   hand with the fast rules of ``rollout`` — ``normal``'s cost model on raw counts —
   at every seat, and scores the hand for the seat's team: a win (its finish places
   outscore the other team's) counts 1, a tie ½, plus a twelfth of the place points
   (``playouts``); the deals go in batches of ``MIN_DEALS``, spread over the search
   processes (``search_pool``), and after each batch an alternative that can no longer
   beat normal's choice leaves the race (``DROP_Z``), its share of the budget going to
   the others, and the race ends at once when one alternative is clearly ahead
   (``LEAD_Z``);
4. keeps normal's choice unless an alternative that ran the whole race did better on
   the same deals by more than the noise (``margin`` and ``z`` standard errors of the
   paired differences).

Decisions without a real choice (a teammate on top, 还贡, 革命, 明点) are normal's.

The search sees only the seat's own view: ``decide`` hands it ``masked_state`` — the
public table with every other hand emptied — never the real hands.

Budget: ``work`` (``WORK_PER_PROCESS`` per search process unless given) — playouts times
the cards still in the hands, shared by the candidates (at least ``MIN_DEALS`` deals
each) — makes the decision deterministic for a given rng seed, for any number of search
processes. Early in the hand (more than a third of the deck in the hands: long
playouts that hardly tell the candidates apart) a decision gets ``early_work``,
three eighths of the late budget, so five expert seats in a row keep nobody waiting long.
``max_seconds`` is a safety net only: when a slow machine reaches it, the search
stops (a playout looks at the clock every few moves), drops the unfinished deal and
decides from the deals finished so far, so a decision cut short by the clock may differ
from an uncut one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..engine.actions import Action, ActionKind
from ..engine.cards import EMPTY
from ..engine.rules import Rules
from ..engine.state import HandState, same_team
from ..engine.views import SeatView
from . import endgame, search_pool
from .ahead import Thoughts, key_of
from .base import Policy
from .deal import deal, fours_held, hand_sizes, hidden_cards, pass_caps
from .endgame import EndgameConfig
from .hand import play_of
from .normal import DEFAULT_NORMAL, NormalPolicy
from .playouts import Batch
from .search_pool import SearchPool
from .tracking import deck_of

# The work of a decision: playouts x (the cards still in the hands + PLAYOUT_FIXED); a
# playout's length is about proportional to those cards, plus a fixed part (the deal, the
# candidate's move). 32,000 took at most 1.0 s (p95 0.76-0.82 s) on one idle core of the
# reference machine: ~130 playouts at the start, more near the end. The search pool
# gives every search process that much (``budget``). Alternatives leave the race after
# any MIN_DEALS deals once they cannot beat normal's choice, and the search stops when
# none is left. The strength follows the work: against ``normal`` in dagang (the same 96
# hands) 8,000 won 0.583, 16,000 0.609, 32,000 0.682 — the deals are what tell a real
# gain from the noise, so the budget takes what the time limit allows (1.5 s a decision).
WORK_PER_PROCESS = 32_000
# Early in the hand (more than a third of the deck in the hands) the playouts hardly tell
# a better candidate from a worse one (docs/ai.md, "Judged by an oracle": overrules there
# gained +0.005 a decision, an interval holding 0; late ones +0.022), and early playouts
# are the longest: five early searches at the full budget kept a person waiting ~5 s. So
# an early decision gets three eighths of the work — the late ones, where the search
# earns its keep and playouts are short, keep all of it. Less cost strength where the
# early play decides who is caught (qingdao, the same 240 hands: 8,000 won 0.598, 12,000
# 0.650, 16,000 0.665); more puts a round of five experts over 2 s at the 95th percentile
# on the compiled build (12,000: 1,934 ms; 16,000: 2,647 ms; docs/ai.md).
EARLY_WORK_PER_PROCESS = 12_000
PLAYOUT_FIXED = 40
MIN_DEALS = 6
# A cap on the deals of a decision: late in the hand the budget would buy hundreds, at
# the full budget's time each. 256 took a median decision from 0.35 to 0.76 s (two search
# processes) — too dear for what the late deals add where playouts are short.
MAX_DEALS = 64
DEFAULT_SECONDS = 1.2
MAX_CANDIDATES = 4
DEFAULT_MARGIN = 0.03  # mean score per deal an alternative must gain over normal's …
DEFAULT_Z = 2.0  # … and this many standard errors of the paired differences …
LATE_Z = 1.0  # … or these, late in the hand (a third of the deck or less in the hands),
# where playouts are short and a choice's effect stands out of the noise.
# The race: an alternative leaves once its paired gain plus DROP_Z standard errors falls
# short of the margin (were it a real gain of margin + z standard errors at the end, that
# happens to it about once in forty); the search stops as soon as one alternative clears
# margin + (z + LEAD_Z) standard errors, as ``pick`` would take it then and at the end.
DROP_Z = 1.0
LEAD_Z = 1.0
# Free-play endgames are searched as ``normal`` searches them, with more cards and nodes
# (~0.3 s at most on an idle core: well inside the decision budget).
EXPERT_ENDGAME = EndgameConfig(max_cards=40, budget=20_000)


class ExpertPolicy:
    """Search on top of ``NormalPolicy``; see the module docstring."""

    def __init__(
        self,
        rules: Rules | None = None,
        work: int | None = None,
        playouts: int | None = None,
        max_seconds: float = DEFAULT_SECONDS,
        margin: float = DEFAULT_MARGIN,
        z: float = DEFAULT_Z,
        pool: SearchPool | None = None,
        early_work: int | None = None,
        race: bool = True,
    ) -> None:
        self.rules = rules
        # False: every candidate plays all its deals (no alternative leaves, no clear
        # leader ends it), so that any rule can be applied to the scores afterwards
        # (benchmarks/oracle.py); a table always races.
        self.race = race
        self.work = work  # None: WORK_PER_PROCESS for each process of the search pool
        # None: ``work`` if given, else EARLY_WORK_PER_PROCESS for each search process
        self.early_work = early_work
        self.pool = pool  # None: the shared pool (``search_pool.configure``)
        self.playouts = playouts  # a fixed number of playouts instead of ``work``
        self.max_seconds = max_seconds
        self.margin = margin
        self.z = z
        self.late_z = min(z, LATE_Z)
        self.endgame = EXPERT_ENDGAME
        # The table's normal (its last 2s guard the play before the 3s, as the playouts'
        # seats do): the expert's candidates and fallback are the opponents' own play.
        self.normal = NormalPolicy(rules, DEFAULT_NORMAL)
        self.fallback: Policy = self.normal  # where a table cannot wait for a search
        self.thoughts = Thoughts()  # decisions worked out ahead of their turn (``ahead``)

    # -- the contract ----------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """Without the public table (a direct call), the expert plays like ``normal``."""
        return self.normal.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """Decide with playouts; ``public`` is ``masked_state`` for this seat. A decision
        worked out ahead (``think_ahead``) on the same inputs is taken as it is."""
        known = self.thoughts.take(key_of(public, view.seat, rng))
        if known is not None and known.exception() is None:  # waits if under way
            return known.result()
        return self._search(view, public, legal, rng)

    def think_ahead(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """The decision ``choose_searching`` would take on these inputs, worked out now
        and kept for it (``bot.ai.ahead``)."""
        key = key_of(public, view.seat, rng)
        return self.thoughts.work_out(key, lambda: self._search(view, public, legal, rng))

    def _search(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        base = self.normal.choose(view, legal, rng)
        if base is not None and endgame.applies(view, public, self.endgame):
            # Free play with few cards left: an exact-ish search beats playouts there.
            return endgame.choose(view, public, legal, base, rng, self.endgame)
        cands = self.candidates(view, legal, base)
        budget = self.budget(self.early(view)) if self.playouts is None else self.playouts
        if len(cands) < 2 or budget < len(cands):
            return base
        scores = self.evaluate(view, public, cands, rng.getrandbits(64))
        return cands[self.pick(scores, self.z_for(view))]

    # -- candidates -------------------------------------------------------------------
    def candidates(
        self, view: SeatView, legal: Sequence[Action], base: Action | None
    ) -> list[Action | None]:
        """Normal's choice first, then the alternatives worth a playout."""
        kinds = {a.kind for a in legal}
        if kinds & {ActionKind.RETURN_TRIBUTE, ActionKind.REVOLT}:
            return [base]  # 还贡 and 革命 are left to the rules of thumb
        if base is not None and base.kind is ActionKind.HUI:
            return [base]  # and so is 烩
        pub = view.public
        if pub.to_act != view.seat:
            if ActionKind.BURN not in kinds:
                return [base]  # 明点 or waiving 够死级 plays
            return self._more([base, None], legal, ActionKind.BURN, view)
        if pub.top_seat is not None and not pub.leading and same_team(pub.top_seat, view.seat):
            return [base]  # a teammate's play: normal passes unless it ends our hand
        out: list[Action | None] = [base]
        for kind in (ActionKind.PASS, ActionKind.RANG):
            a = next((x for x in legal if x.kind is kind), None)
            if a is not None and a not in out:
                out.append(a)
        return self._more(out, legal, ActionKind.PLAY, view)

    def _more(
        self, out: list[Action | None], legal: Sequence[Action], kind: ActionKind, view: SeatView
    ) -> list[Action | None]:
        """Add the cheapest plays of ``kind`` by normal's cost, one per rank and size."""
        rules = self.rules or view.public.rules
        hand = view.hand
        pool = [a for a in legal if a.kind is kind]
        ranked = sorted(
            pool, key=lambda a: self.normal.cost(play_of(a.cards or EMPTY), hand, rules)
        )
        shapes = {_shape(a) for a in out if a is not None and a.cards is not None}
        for a in ranked:
            if len(out) >= MAX_CANDIDATES:
                break
            if a in out or _shape(a) in shapes:
                continue
            shapes.add(_shape(a))
            out.append(a)
        return out

    # -- playouts ---------------------------------------------------------------------
    def determinize(self, view: SeatView, public: HandState, rng: random.Random) -> HandState:
        """One full state consistent with the view (see ``deal``)."""
        pool = hidden_cards(view, public)
        sizes = hand_sizes(view, pool)
        fours = fours_held(view, public)
        return public._replace(hands=deal(view, sizes, pass_caps(view), rng, pool, fours))

    def evaluate(
        self, view: SeatView, public: HandState, cands: Sequence[Action | None], seed: int
    ) -> list[list[float]]:
        """Each candidate's playout scores, deal by deal on the same deals, played in
        batches of MIN_DEALS deals by the search pool. After each batch an alternative
        that can no longer beat normal's choice leaves the race (its list stops there)
        and its share of the budget goes to more deals for the others."""
        hidden = hidden_cards(view, public)  # not the 4s 点四 discarded
        sizes = hand_sizes(view, hidden)
        z = self.z_for(view)
        early = self.early(view)
        caps = tuple((seat, tuple(row)) for seat, row in sorted(pass_caps(view).items()))
        until = time.time() + self.max_seconds
        job = Batch(view, public, tuple(cands), tuple(sizes), caps, hidden, seed, 0, 0, (), until)
        budget = self.deals(sum(sizes), len(cands), early) * len(cands)  # playouts
        scores: list[list[float]] = [[] for _ in cands]
        live = list(range(len(cands)))
        pool = self._pool()
        first = spent = 0
        while len(live) > 1:
            count = min(MIN_DEALS, MAX_DEALS - first, (budget - spent) // len(live))
            if count < 1:
                break
            rows = pool.run(job._replace(first=first, deals=count, live=tuple(live)))
            for row in rows:
                for i, x in zip(live, row, strict=True):
                    scores[i].append(x)
            if len(rows) < count:
                break  # the safety net: decide from the deals finished so far
            first += count
            spent += count * len(live)
            if not self.race:
                continue
            live = [0] + [i for i in live[1:] if self._may_win(scores, i, min(z, DROP_Z))]
            if len(live) > 1 and self.pick([scores[i] for i in live], z + LEAD_Z):
                break  # one alternative is clearly ahead: more deals would not change it
        return scores

    def _pool(self) -> SearchPool:
        return self.pool if self.pool is not None else search_pool.shared()

    def budget(self, early: bool = False) -> int:
        """The decision's work: ``work`` (``early_work`` early in the hand) if given, else
        WORK_PER_PROCESS (EARLY_WORK_PER_PROCESS) per search process."""
        if early and self.early_work is not None:
            return self.early_work
        if self.work is not None:
            return self.work
        per = EARLY_WORK_PER_PROCESS if early else WORK_PER_PROCESS
        return per * max(1, self._pool().processes)

    def deals(self, cards: int, cands: int, early: bool = False) -> int:
        """Deals for a decision with ``cards`` in the hands and ``cands`` candidates."""
        if self.playouts is not None:
            return max(1, self.playouts // cands)
        work = self.budget(early)
        return min(MAX_DEALS, max(MIN_DEALS, work // ((cards + PLAYOUT_FIXED) * cands)))

    @staticmethod
    def early(view: SeatView) -> bool:
        """More than a third of the deck still in the hands."""
        left = sum(hand_sizes(view))  # the cards still in the hands
        return 3 * left > sum(deck_of(view.public.rules))

    def z_for(self, view: SeatView) -> float:
        """The standard errors a gain must clear: fewer late in the hand."""
        return self.z if self.early(view) else self.late_z

    def pick(self, scores: Sequence[Sequence[float]], z: float | None = None) -> int:
        """Normal's choice (index 0) unless an alternative that ran the whole race did
        clearly better on the same deals."""
        n = len(scores[0])
        if not n:
            return 0  # no deal finished in time: normal's choice
        best, best_gain, best_se = 0, 0.0, 0.0
        for i, alt in enumerate(scores[1:], start=1):
            if len(alt) < n:
                continue  # left the race: it could not beat normal's choice
            gain, se = _paired(alt, scores[0])
            if gain > best_gain:
                best, best_gain, best_se = i, gain, se
        if best and best_gain > self.margin + (self.z if z is None else z) * best_se:
            return best
        return 0

    def _may_win(self, scores: Sequence[Sequence[float]], i: int, z: float) -> bool:
        """Whether alternative ``i`` may still beat normal's choice by the margin (its
        paired gain plus ``z`` standard errors reaches it)."""
        alt = scores[i]
        gain, se = _paired(alt, scores[0][: len(alt)])
        return gain + z * se > self.margin


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences a - b (same deals)."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    gain = sum(diffs) / n
    var = sum((x - gain) ** 2 for x in diffs) / max(1, n - 1)
    return gain, math.sqrt(var / n)


def _shape(a: Action) -> tuple[int, int]:
    p = play_of(a.cards or EMPTY)
    return (p.base, p.size)
