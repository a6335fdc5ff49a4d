"""The expert's playouts on a batch of deals: the unit of work a search process runs.

``Batch`` holds everything a batch needs as plain immutable values (picklable), so that
the same function runs in the deciding thread or in a search process (``search_pool``);
deal ``d`` is seeded ``seed + d`` wherever it runs, so a decision does not depend on how
its deals were spread over processes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.actions import Action
from ..engine.cards import Counts
from ..engine.errors import GoujiError
from ..engine.game import apply
from ..engine.state import HandState, same_team
from ..engine.views import SeatView
from .deal import deal, fours_held
from .rollout import rollout

SEAT_POINTS = (4, 2, 0, 0, -2, -4)  # place points (头科 … 大落)

Row = list[float]  # one deal's score for each live candidate


class Batch(NamedTuple):
    """Deals ``first`` … ``first + deals - 1`` of one decision, and when to give up."""

    view: SeatView
    public: HandState  # ``masked_state``: the other hands are dealt here
    cands: tuple[Action | None, ...]
    sizes: tuple[int, ...]  # every seat's card count (``deal.hand_sizes``)
    caps: tuple[tuple[int, tuple[int, ...]], ...]  # ``deal.pass_caps`` as pairs
    hidden: Counts  # the cards the seat cannot see (``deal.hidden_cards``)
    seed: int
    first: int
    deals: int
    live: tuple[int, ...]  # the candidates still in the race (indices into ``cands``)
    until: float  # a ``time.time()`` reading: the wall clock is the same in every process


def run(batch: Batch) -> list[Row]:
    """The batch's rows in deal order, ending at the first deal not finished in time (a
    deal half played out is dropped: candidates are compared on the same deals only)."""
    # The processes share the wall clock; the playouts time themselves on this process's
    # steadier ``perf_counter``.
    deadline = time.perf_counter() + (batch.until - time.time())
    caps = {seat: list(row) for seat, row in batch.caps}
    view = batch.view
    fours = fours_held(view, batch.public)
    rows: list[Row] = []
    for d in range(batch.first, batch.first + batch.deals):
        rng = random.Random(batch.seed + d)
        state = batch.public._replace(hands=deal(view, batch.sizes, caps, rng, batch.hidden, fours))
        row = deal_row(state, view.seat, batch.cands, rng, deadline, batch.live)
        if row is None:
            break
        rows.append(row)
    return rows


def deal_row(
    state: HandState,
    seat: int,
    cands: Sequence[Action | None],
    rng: random.Random,
    deadline: float,
    live: Sequence[int] | None = None,
) -> Row | None:
    """The playouts of the ``live`` candidates (all by default) on one deal; None once
    past the deadline. Every candidate's playout seed is drawn, live or not, so a
    candidate's score on a deal does not depend on which others still race."""
    seeds = [rng.getrandbits(32) for _ in cands]
    row: Row = []
    for i in range(len(cands)) if live is None else live:
        row.append(playout(state, seat, cands[i], seeds[i], deadline))
        if time.perf_counter() > deadline:
            return None
    return row


def playout(
    state: HandState, seat: int, cand: Action | None, seed: int, deadline: float = math.inf
) -> float:
    """The candidate's move, then the hand played out: a win counts 1 for the seat's team
    (its finish places outscore the other team's), a tie ½, plus a twelfth of the place
    points."""
    if cand is not None:
        try:
            state, _ = apply(state, seat, cand)
        except GoujiError:
            return -1e9  # not legal in this deal (cannot happen for own-hand moves)
    res = rollout(state, random.Random(seed), deadline).result
    if res is None or res.voided:
        return 0.5
    mine = sum(SEAT_POINTS[i] for i, s in enumerate(res.places) if same_team(s, seat))
    win = 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    return win + mine / 12
