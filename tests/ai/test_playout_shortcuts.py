"""The playouts' shortcuts change the speed, never the play: a quiet transition (no
events) freezes to the same state as a loud one, and ``deal``'s spelled-out draw deals
the same hands as the ``random.choices`` call it replaced, from the same rng."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.ai.base import masked_state
from bot.ai.deal import NO_CAP, deal, hand_sizes, hidden_cards, pass_caps
from bot.ai.rollout import _fallback, _proposal
from bot.engine import new_hand
from bot.engine.actions import ActionKind
from bot.engine.cards import NUM_RANKS, Counts
from bot.engine.errors import GoujiError
from bot.engine.events import EventKind
from bot.engine.game import _play_of, apply
from bot.engine.rules import make_rules
from bot.engine.state import SEATS, HandState, Phase
from bot.engine.transition import Transition
from bot.engine.views import seat_view

EVERY_MOVE = {
    EventKind.PLAYED,
    EventKind.PASSED,
    EventKind.RANGED,
    EventKind.LEAD,
    EventKind.TRICK_WON,
}


def _choices_deal(
    sizes: Sequence[int],
    caps: dict[int, list[int]],
    rng: random.Random,
    hidden: Counts,
    me: int,
) -> dict[int, list[int]]:
    """``deal``'s loop as it was before 2026-12-07 (``rng.choices``), for a table
    without 憋三's or 点四's floors (those run before the loop and did not change)."""
    pool: list[int] = []
    for i, n in enumerate(hidden):
        pool.extend([i] * n)
    rng.shuffle(pool)
    room = {s: sizes[s - 1] for s in SEATS if s != me and sizes[s - 1] > 0}
    got = {s: [0] * NUM_RANKS for s in room}
    del pool[sum(room.values()) :]
    none = [NO_CAP] * NUM_RANKS
    pool.sort(key=lambda i: -sum(1 for row in caps.values() if row[i] < NO_CAP))
    for card in pool:
        open_ = [s for s in room if room[s] > 0]
        if not open_:
            break
        fits = [s for s in open_ if got[s][card] < caps.get(s, none)[card]] or open_
        seat = rng.choices(fits, weights=[room[s] for s in fits])[0]
        got[seat][card] += 1
        room[seat] -= 1
    return got


def _positions(preset: str, hands: int) -> list[tuple[HandState, int]]:
    """Every tenth play-phase position of a few rollout-played hands, with its seat."""
    rules = make_rules(preset)
    out: list[tuple[HandState, int]] = []
    for seed in range(hands):
        state, _ = new_hand(rules, 70 + seed)
        step = 0
        while not state.over and state.phase is Phase.PLAY and state.to_act is not None:
            seat = state.to_act
            if step % 10 == 0:
                out.append((state, seat))
            try:
                state = apply(state, seat, _proposal(state, seat))[0]
            except GoujiError:
                state = apply(state, seat, _fallback(state, seat, urgent=True))[0]
            step += 1
    return out


def test_the_spelled_out_draw_deals_what_random_choices_dealt() -> None:
    """dagang has neither 憋三 nor 点四, so the whole deal is the loop; caps (from the
    positions' passes, and made-up ones where none) steer it as before."""
    rules = make_rules("dagang")
    assert not rules.bie_san and not rules.dian_si
    compared = capped = 0
    for state, seat in _positions("dagang", 2):
        view = seat_view(state, seat)
        public = masked_state(state, seat)
        hidden = hidden_cards(view, public)
        sizes = hand_sizes(view, hidden)
        caps = pass_caps(view) or {s: [1] * NUM_RANKS for s in SEATS if s != seat and s % 2}
        capped += any(c < NO_CAP for row in caps.values() for c in row)
        for d in range(5):
            dealt = deal(view, sizes, caps, random.Random(d), hidden)
            before = _choices_deal(sizes, caps, random.Random(d), hidden, seat)
            for s, row in before.items():
                assert dealt[s - 1] == tuple(row), (seat, d, s)
            compared += 1
    assert compared > 50 and capped > 10


@pytest.mark.parametrize("preset", ["dagang", "qingdao", "match"])
def test_a_quiet_transition_freezes_to_the_loud_ones_state(preset: str) -> None:
    """Plays, passes and 让s (the moves a playout makes) with and without events."""
    kinds: set[ActionKind] = set()
    for state, seat in _positions(preset, 2):
        action = _proposal(state, seat)
        if action.kind not in (ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG):
            continue
        loud, quiet = Transition(state), Transition(state, quiet=True)
        for w in (loud, quiet):
            try:
                if action.kind is ActionKind.RANG:
                    w.do_rang(seat)
                elif action.kind is ActionKind.PASS:
                    w.do_pass(seat)
                else:
                    w.do_play(seat, _play_of(state, seat, action))
            except GoujiError:
                break
        else:
            assert quiet.freeze() == loud.freeze()
            # Only the events of every move are left out; the rare ones (a seat out, a
            # seat caught, a point opened) are still made.
            assert quiet.events == [e for e in loud.events if e.kind not in EVERY_MOVE]
            assert any(e.kind in EVERY_MOVE for e in loud.events)
            kinds.add(action.kind)
    assert {ActionKind.PLAY, ActionKind.PASS} <= kinds
    if preset == "qingdao":
        assert ActionKind.RANG in kinds
