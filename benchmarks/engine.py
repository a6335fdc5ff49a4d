"""Engine speed: legal-move generation and whole random hands.

Run: ``python benchmarks/engine.py`` (about half a minute). The last lines are
``<name> <value> <unit>`` figures.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import PRESET_NAMES, Action, ActionKind, apply, from_hands, make_rules, new_hand
from bot.engine.cards import NUM_RANKS, Counts, deal, full_deck
from bot.engine.game import legal_burns, legal_plays
from bot.engine.plays import Play
from bot.engine.state import HandState


def timed_ms(fn, *args) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - t0) * 1000


def random_hands(rng: random.Random) -> tuple[Counts, ...]:
    return deal(full_deck(), rng, 1)


def joker_heavy(rng: random.Random) -> Counts:
    """36 cards with 6 jokers and 8 twos: the most attachment combinations."""
    c = [0] * NUM_RANKS
    c[13], c[14], c[12] = 3, 3, 8
    for _ in range(22):
        c[rng.randrange(12)] += 1
    return tuple(c)


def answer_state(hands: list[Counts], top: Play) -> HandState:
    """Seat 2 to answer ``top`` played by seat 1 (an ordinary play: seat 2 is next)."""
    rules = make_rules()
    hands = list(hands)
    hands[0] = tuple(a + b for a, b in zip(hands[0], top.counts(), strict=True))
    state, _ = from_hands(rules, hands, 1)
    state, _ = apply(state, 1, Action.play(top))
    return state


def bench_legal(rng: random.Random, n: int, heavy: bool) -> tuple[list[float], list[float]]:
    rules = make_rules()
    leads: list[float] = []
    answers: list[float] = []
    for _ in range(n):
        hands = list(random_hands(rng))
        if heavy:
            hands[0] = joker_heavy(rng)
            hands[1] = joker_heavy(rng)
        state, _ = from_hands(rules, hands, 1)
        leads.append(timed_ms(legal_plays, state, 1))
        top = Play(rng.choice((5, 7, 9, 10)), rng.choice((1, 2, 3)), 0, 0, 0)
        st = answer_state(hands, top)
        if st.to_act == 2:
            answers.append(timed_ms(legal_plays, st, 2))
    return leads, answers


def random_play_hand(preset: str, seed: int) -> int:
    """One whole hand where the seat to act plays a random legal play (or passes)."""
    rules = make_rules(preset)
    state, _ = new_hand(rules, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        seat = state.to_act
        if seat is None:  # tribute returns cannot occur in a first hand
            raise RuntimeError("no seat to act")
        plays = legal_plays(state, seat)
        lead = state.top_play is None or state.lead_pending
        if plays and (lead or rng.random() < 0.5):
            action = Action.play(rng.choice(plays))
        else:
            window = [s for s in state.window if legal_burns(state, s)]
            if window and rng.random() < 0.3:
                s = rng.choice(window)
                state, _ = apply(state, s, Action.burn(rng.choice(legal_burns(state, s))))
                steps += 1
                continue
            action = Action(ActionKind.PASS)
        state, _ = apply(state, seat, action)
        steps += 1
    return steps


def main() -> None:
    rng = random.Random(2026)
    for _ in range(50):  # warm caches and the allocator
        bench_legal(rng, 1, False)
    leads, answers = bench_legal(rng, 600, heavy=False)
    heavy_leads, heavy_answers = bench_legal(rng, 200, heavy=True)
    heavy = heavy_leads + heavy_answers
    full: list[float] = []
    steps: list[int] = []
    per_preset: dict[str, float] = {}
    for preset in PRESET_NAMES:
        times = []
        for seed in range(40):
            # CPU time of this process: steadier than wall time on a shared machine.
            t0 = time.process_time()
            steps.append(random_play_hand(preset, seed))
            times.append((time.process_time() - t0) * 1000)
        per_preset[preset] = statistics.median(times)
        full += times
    print(
        f"lead legal plays: median {statistics.median(leads):.3f} ms, "
        f"p95 {statistics.quantiles(leads, n=20)[-1]:.3f} ms over {len(leads)} hands"
    )
    print(f"answer legal plays: median {statistics.median(answers):.3f} ms over {len(answers)}")
    print(
        f"joker-heavy: lead median {statistics.median(heavy_leads):.3f} ms, "
        f"answer median {statistics.median(heavy_answers):.3f} ms"
    )
    for preset, ms in per_preset.items():
        print(f"full random hand [{preset}]: median {ms:.2f} ms")
    print(f"actions per hand: median {statistics.median(steps):.0f}")
    print(f"lead_legal_median {statistics.median(leads):.4f} ms")
    print(f"answer_legal_median {statistics.median(answers):.4f} ms")
    print(f"joker_heavy_legal_median {statistics.median(heavy):.4f} ms")
    print(f"full_hand_median {statistics.median(full):.3f} ms")


if __name__ == "__main__":
    main()
