"""The teacher (bot.ai.review): a deliberately bad play is ranked first, with the
lecture's reason; the review reads only the seat's own view; ``gouji review``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

from bot.ai.lessons import Lesson, lesson_for
from bot.ai.review import Review, judge, review
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import NUM_RANKS
from bot.engine.scenario import decode
from bot.engine.state import HandState
from bot.engine.views import seat_view
from bot.records.replay import Replayed
from bot.records.scenario import replay_scenario
from bot.records.teacher import review_text

from .make_scenarios import CONFIG

HERE = Path(__file__).parent
SEAT = 4


def bad_step(name: str) -> int:
    """The action index of the deliberately bad play, as make_scenarios.py describes it."""
    found = re.search(r"at action (\d+)", json.loads((HERE / name).read_text())["description"])
    assert found is not None
    return int(found.group(1))


# (file, the action index of the bad play, the lesson it breaks); see make_scenarios.py
PASS_GOUJI = ("pass_gouji.json", bad_step("pass_gouji.json"), Lesson.ANSWER_OPPOSITE_GOUJI)
BREAK_GOUJI = ("break_gouji.json", bad_step("break_gouji.json"), Lesson.KEEP_GOUJI_SET)


@cache
def played(name: str) -> Replayed:
    return replay_scenario(decode((HERE / name).read_bytes()))[0]


@cache
def reviewed(name: str) -> Review:
    return review(played(name), SEAT, CONFIG)


def test_passing_the_opposites_gouji_with_the_only_answer_is_ranked_first() -> None:
    name, step, lesson = PASS_GOUJI
    hand = played(name)
    state = hand.states[step]
    # the situation is what the file says: the opposite's 够级牌, one answer, a pass
    assert state.top_gouji and state.top_seat == 1 and state.to_act == SEAT
    plays = [a for a in _legal(state) if a.kind is ActionKind.PLAY]
    assert len(plays) == 1
    first = reviewed(name).mistakes[0]
    assert (first.step, first.lesson) == (step, lesson)
    assert first.chosen.kind is ActionKind.PASS and first.better == plays[0]
    assert first.cost > CONFIG.margin


def test_breaking_a_gouji_set_for_a_small_single_is_ranked_first() -> None:
    name, step, lesson = BREAK_GOUJI
    hand = played(name)
    state = hand.states[step]
    top = state.top_play
    assert top is not None and top.size == 1 and top.base < 10 and not state.top_gouji
    got = reviewed(name)
    first = got.mistakes[0]
    assert (first.step, first.lesson) == (step, lesson)
    assert first.chosen.cards is not None and sum(first.chosen.cards) == 1
    held = state.hands[SEAT - 1]
    rank = first.chosen.cards.index(1)
    assert held[rank] >= 2  # KK: a 够级 set, split
    assert len(got.mistakes) <= 3
    assert [m.cost for m in got.mistakes] == sorted((m.cost for m in got.mistakes), reverse=True)


def test_the_review_reads_only_the_seats_own_view() -> None:
    """Other seats' hidden cards moved between them: the same judgement, deal for deal."""
    name, step, _ = PASS_GOUJI
    state = played(name).states[step]
    chosen = Action.from_json(dict(played(name).actions[step]))
    before = judge(state, SEAT, chosen, CONFIG, step)
    after = judge(_swap_hidden(state), SEAT, chosen, CONFIG, step)
    assert before is not None and before == after
    assert before.cost == reviewed(name).mistakes[0].cost


def _swap_hidden(state: HandState) -> HandState:
    """Two other seats trade a card of a rank only one of them holds, keeping both counts."""
    others = [s for s in range(6) if s != SEAT - 1 and sum(state.hands[s])]
    for x in others:
        for y in others:
            a, b = list(state.hands[x]), list(state.hands[y])
            give = next((i for i in range(NUM_RANKS) if a[i] and not b[i]), None)
            take = next((i for i in range(NUM_RANKS) if b[i] and not a[i]), None)
            if x == y or give is None or take is None:
                continue
            a[give], b[give], b[take], a[take] = a[give] - 1, b[give] + 1, b[take] - 1, a[take] + 1
            hands = list(state.hands)
            hands[x], hands[y] = tuple(a), tuple(b)
            return state._replace(hands=tuple(hands))
    raise AssertionError("no two other hands to trade between")


def test_lessons_fit_only_their_pattern() -> None:
    name, step, _ = PASS_GOUJI
    state = played(name).states[step]
    view = seat_view(state, SEAT)
    answer = next(a for a in _legal(state) if a.kind is ActionKind.PLAY)
    passed = Action(ActionKind.PASS)
    assert lesson_for(view, passed, answer) is Lesson.ANSWER_OPPOSITE_GOUJI
    assert lesson_for(view, answer, passed) is not Lesson.ANSWER_OPPOSITE_GOUJI


def test_review_text_names_the_decisions_in_both_languages() -> None:
    got = reviewed(PASS_GOUJI[0])
    zh = review_text(got, 1, tuple(f"#{s}" for s in range(1, 7)), "zh")
    en = review_text(got, 1, tuple(f"#{s}" for s in range(1, 7)), "en")
    trick = got.mistakes[0].trick
    assert "尽最大努力控制对门的够级牌" in zh and f"第 {trick} 墩" in zh
    assert f"Trick {trick}" in en and "your move pass" in en


def _legal(state: HandState) -> list[Action]:
    from bot.ai.base import options

    return options(state, state.to_act or SEAT)


def _gouji(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adapters.main", "review", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_gouji_review_json_prints_one_object_per_decision() -> None:
    name, step, lesson = PASS_GOUJI
    res = _gouji(str(HERE / name), "--seat", str(SEAT), "--json", "--deals", str(CONFIG.deals))
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert 1 <= len(rows) <= 3
    assert all({"step", "chosen", "better", "cost", "reason"} <= row.keys() for row in rows)
    assert rows[0]["step"] == step and rows[0]["reason"] == lesson.value
    assert rows[0]["chosen"] == {"do": "pass"} and rows[0]["better"]["do"] == "play"
    assert rows == [m.to_json() for m in reviewed(name).mistakes]


def test_gouji_review_bad_input_gets_one_polite_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"hands": 3}')
    cases = [
        [str(tmp_path / "missing.json"), "--seat", "1"],
        [str(HERE / PASS_GOUJI[0]), "--seat", "9"],
        [str(bad), "--seat", "2", "--lang", "en"],
        [str(HERE / PASS_GOUJI[0]), "--seat", "2", "--hand", "3"],
        [str(HERE / PASS_GOUJI[0]), "--seat", "2", "--deals", "0"],
    ]
    for args in cases:
        res = _gouji(*args)
        assert res.returncode == 2, args
        assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "Traceback" not in res.stderr


async def test_review_processes_find_exactly_what_the_thread_finds() -> None:
    """With search processes (the ``gouji`` command), the decisions are judged in review
    processes in parallel; each is seeded on its own, so the review is the same."""
    from bot.ai import review as review_module
    from bot.ai import search_pool
    from bot.ai.review import ReviewConfig, review_async

    cfg = ReviewConfig(deals=2)
    hand = played(PASS_GOUJI[0])
    alone = review(hand, SEAT, cfg)
    search_pool.configure(2)
    try:
        spread = await review_async(hand, SEAT, cfg)
    finally:
        search_pool.configure(1)
        review_module._drop()
    assert spread == alone and len(alone.mistakes) == 3
