"""The terminal as a newcomer meets it (issue 36), driven in-process with scripted input:
input, refusals, 托管, teams, texts and the local file of finished hands."""

from __future__ import annotations

import io
import random
import re
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from adapters.console import ConsoleTable, watch
from adapters.console.format import grouped
from adapters.console.replay import export_main, replay_main
from adapters.console.screen import Frame, pad, width
from adapters.console.thinking import ThinkingPolicy
from bot.ai import HeuristicPolicy
from bot.engine.actions import Action
from bot.engine.game import new_hand
from bot.engine.queries import burn_refusal, rang_refusal
from bot.engine.rules import make_rules
from bot.engine.views import SeatView
from bot.i18n import error_text, t
from bot.i18n.catalogue import Lang

from .test_console import Script


async def _run(
    lines: Sequence[str],
    lang: Lang = "en",
    seed: int = 7,
    hands: int = 1,
    default: str = "#1",
    **kw: object,
) -> tuple[str, Script]:
    out = io.StringIO()
    script = Script(list(lines), default=default)
    table = ConsoleTable(
        seed=seed, hands=hands, lang=lang, input_fn=script, out=out, color=False, **kw
    )  # type: ignore[arg-type]
    assert await table.run() == 0
    return out.getvalue(), script


# -- 1, 2: the screen --------------------------------------------------------------------


def test_a_frame_keeps_the_newest_messages_right_above_the_prompt() -> None:
    top = [f"table row {i}" for i in range(14)]
    messages = [f"message {i}" for i in range(40)]
    lines = Frame(top, ["help: p pass …"], messages).lines(80, 24)
    assert len(lines) == 23  # and the prompt on the 24th row
    assert lines[-1] == "message 39" and lines[:14] == top
    assert lines[15] == "…"  # older messages gave way, and it says so
    # A long message wraps: it takes the rows it needs, never cut.
    wide = "牌" * 100  # 200 columns: three rows at 80
    lines = Frame(top, ["help"], ["old", wide]).lines(80, 24)
    assert lines[-1] == wide


async def test_the_short_list_is_the_play_menus_suggestions() -> None:
    text, _ = await _run(["q"])
    options = [ln for ln in text.splitlines() if ln.startswith("  #")]
    assert 1 <= len(options) <= 8  # not 40 lines
    assert any("Cheapest" in ln or "Lead the set" in ln for ln in options)


# -- 3, 4, 5: between hands, 托管 as a word, its pace ------------------------------------


async def test_q_between_hands_quits_and_auto_takes_the_seat_back() -> None:
    text, script = await _run(["auto"], hands=3, default="q")
    # 托管 plays hand 1; at the prompt between hands q ends the match: no hand 2.
    assert "Autoplay is on." in text and "Match over" in text
    assert "Hand 2: seat" not in text
    assert script.prompts[-1].startswith("Press Enter for the next hand (still on autoplay")

    text, script = await _run(["auto", "auto", "q"], hands=2, default="q")
    # auto at the prompt between hands: hand 2 is dealt and you decide in it.
    assert "Autoplay is off." in text and "Hand 2: seat" in text
    assert script.prompts[-1] == "> "


async def test_a_lone_t_asks_and_auto_is_the_word_for_autoplay() -> None:
    text, script = await _run(["t", "n", "q"])
    assert "“t” alone: play one T?" in script.prompts[1]
    assert "Nothing played." in text and "Autoplay is on." not in text
    assert "You: T\n" not in text
    text, _ = await _run(["auto", "q"], default="q")
    assert "Autoplay is on." in text


async def test_autoplay_is_paced_and_auto_takes_the_seat_back_at_your_next_decision() -> None:
    polls: list[float] = []

    def poll(timeout: float) -> str | None:
        polls.append(timeout)
        return "auto" if len(polls) == 12 else None

    text, script = await _run(["auto"], default="q", poll_fn=poll, pace=0.25)
    assert polls and set(polls) == {0.25}  # every pause is the pace
    played = text.split("Autoplay is off.")[0].count("\nAI ")
    assert played >= 8  # a pause after each play shown, not one for the hand
    # Taken back: the next decision of yours is asked, before the hand is over.
    assert script.prompts[-1] == "> " and "Hand 1 result" not in text.split("Autoplay is off.")[0]


# -- 6, 7: refusals that say why ---------------------------------------------------------


def test_the_engine_says_why_a_rang_or_a_burn_is_refused() -> None:
    st, _ = new_hand(make_rules("dagang"), 3)
    leader = st.to_act
    assert leader is not None
    assert rang_refusal(st, leader) == (rang_refusal(st, leader) or ("", ""))
    code, reason = rang_refusal(st, leader) or (None, None)
    assert (str(code), reason) == ("rang_not_allowed", "lead")
    code, reason = burn_refusal(st, leader) or (None, None)
    assert (str(code), reason) == ("burn_not_allowed", "lead")
    off = make_rules("dagang", {"rang": False})
    st_off, _ = new_hand(off, 3)
    assert (rang_refusal(st_off, leader) or (None, None))[1] == "off"
    text = error_text("rang_not_allowed", {"reason": "lead"}, "en")
    assert text == "You lead: there is nothing to defer (让)."


async def test_refusals_in_the_terminal_say_why() -> None:
    # Find a seeded hand you lead (bounded), then: r, b 99, and v (you hold a joker or a 2).
    text = ""
    for seed in range(1, 40):
        text, _ = await _run(["r", "b 99", "v", "q"], seed=seed)
        if "Hand 1: seat 1 leads" in text:
            break
    assert "Hand 1: seat 1 leads" in text, "you led no hand in 39 seeds"
    assert "You lead: there is nothing to defer (让)." in text
    assert "You lead: there is no play on the table to burn" in text
    # 革命 before the first play: the card that forbids it is named (not "only before the
    # first play", which is false here).
    assert "Revolts and points are declared before the first play" not in text
    assert re.search(r"You hold [^.]*(joker|2)[^.]*revol", text), text[-400:]


async def test_pressing_a_card_in_the_pre_play_pause_says_to_press_enter() -> None:
    text, _ = await _run(["p", "q"], preset="qingdao")  # seed 7: you may declare (明点)
    assert "Before the first play the table is waiting for you: press Enter" in text
    assert "seats may still revolt or declare" not in text


# -- 8, 9, 10: teams, asked again, autopass, listed numbers only -------------------------


async def test_teams_and_the_opposite_are_written() -> None:
    text, _ = await _run(["q"])
    assert "you: team 1-3-5, your 对头 (opposite) is seat 4" in text
    assert re.search(r"^  4 AI 4 +opposite \(对头\)", text, re.MULTILINE)
    assert re.search(r"^. 3 AI 3 +partner", text, re.MULTILINE)
    zh, _ = await _run(["q"], lang="zh")
    assert "你是 1-3-5 队，对头是 4 号" in zh


async def test_asked_again_is_explained_and_autopass_passes_for_you() -> None:
    found = ""
    for seed in range(1, 30):
        text, _ = await _run([], seed=seed, default="p")
        if "Asked again" in text:
            found = text
            break
    assert found, "no final-say question in 29 seeded hands"
    text, _ = await _run(["autopass"], seed=seed, default="p")
    assert "Autopass is on" in text and "passed for you" in text


async def test_only_listed_numbers_are_options() -> None:
    text, _ = await _run(["#40", "#127", "q"])
    listed = re.findall(r"^  #(\d+) ", text, re.MULTILINE)
    assert listed and max(map(int, listed)) < 40
    # Neither plays anything: each is answered with the numbers there are.
    assert text.count(f"No such option: the list has #1–#{max(map(int, listed))}") == 2


# -- 11: a sign that an AI seat is thinking ----------------------------------------------


class _Slow(HeuristicPolicy):
    """Takes its time over seat 3's first decisions."""

    def __init__(self) -> None:
        super().__init__()
        self.slow = 2

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if view.seat == 3 and self.slow:
            self.slow -= 1
            time.sleep(0.5)
        return super().choose(view, legal, rng)


async def test_a_slow_ai_decision_says_it_is_thinking() -> None:
    out = io.StringIO()
    table = ConsoleTable(seed=5, hands=1, lang="zh", watch=True, out=out, policy=_Slow())
    await table.run()
    assert "电脑3 思考中…" in out.getvalue()
    fast = io.StringIO()
    await watch("dagang", 5, "zh", out=fast, ai_level="easy")
    assert "思考中" not in fast.getvalue()  # only a decision that takes a while says so


def test_the_thinking_sign_comes_after_the_delay_and_changes_no_choice() -> None:
    said: list[int] = []
    done: list[bool] = []
    inner = HeuristicPolicy()
    policy = ThinkingPolicy(inner, said.append, lambda: done.append(True), delay=0.05)
    st, _ = new_hand(make_rules("dagang"), 3)
    from bot.ai.base import options
    from bot.engine.views import seat_view

    seat = st.to_act or 1
    view, legal = seat_view(st, seat), options(st, seat)
    a = policy.choose(view, legal, random.Random(1))
    assert a == inner.choose(view, legal, random.Random(1)) and not said and not done


# -- 15, 16: second person, Chinese spacing, the English texts ---------------------------


async def test_second_person_and_chinese_spacing() -> None:
    for lang in ("en", "zh"):
        for seed in (3, 7, 12):
            text, _ = await _run(["c 4", "c 1"], lang=lang, seed=seed, default="#1")
            if lang == "en":
                bad = re.findall(r"\bYou (?!pass\b)[a-z]+s\b(?!\))", text)
                assert not bad, bad
                assert "You ask AI 4 (seat 4) for a count" in text
                assert "Your own count" in text and "You asks" not in text
            else:
                assert not re.search(r"你 [\u4e00-\u9fff]", text), lang
                assert "。 " not in text  # no space after a Chinese full stop
                assert "你问电脑4（4 号）报户" in text


def test_every_second_person_text_is_written_as_one() -> None:
    from bot.i18n.catalogue import find

    keys = [
        "ev_bought_you",
        "ev_played_you",
        "ev_passed_you",
        "ev_trick_won_you",
        "ev_went_out_you",
        "count_answer_you",
    ]
    for key in keys:
        found_en, found_zh = find(key, "en"), find(key, "zh")
        assert found_en is not None and found_zh is not None, key
        en, zh = "".join(found_en.strings), "".join(found_zh.strings)
        assert "{name}" not in en and "{name}" not in zh, key
        assert not re.match(r"你 [\u4e00-\u9fff]", zh), key


async def test_english_names_the_chinese_terms_it_keeps() -> None:
    text, _ = await _run(["h", "x", "q"])
    assert "u 烩" not in text and "x 冲点" not in text and "w waive sure plays" not in text
    assert "u set 3s/4s aside (烩" in text and "x charge (冲点)" in text
    assert "This preset has no charge (冲点)." in text
    text, _ = await _run(["1", "q"])
    assert "“1” is not a card" in text and "“1” is not cards" not in text


# -- 17: columns measured in display width -----------------------------------------------


def test_widths_are_display_columns() -> None:
    assert width("电脑2") == 5 and width("AI 2") == 4 and width("\x1b[33m你\x1b[0m") == 2
    assert width(pad("你", 8)) == width(pad("AI 2", 8)) == 8


async def test_seat_rows_and_results_line_up_in_both_languages() -> None:
    for lang in ("zh", "en"):
        text, _ = await _run([], lang=lang, seed=4, default="#1")
        rows = [ln for ln in text.splitlines() if re.match(r"^[▶ ] [1-6] ", ln)]
        # Each frame's six seat rows: the last play starts at one display column in all.
        for k in range(0, len(rows) - 5, 6):
            frame = rows[k : k + 6]
            plays = [r for r in frame if re.search(r"  ([3-9TJQKA2SB]+|pass|过)$", r)]
            starts = {width(r) - width(r.split()[-1]) for r in plays}
            assert len(starts) <= 1, (lang, frame)
        results = [ln for ln in text.splitlines() if re.match(r"^  \S.*  [1-6]  .*  [+-]\d+$", ln)]
        assert len(results) == 6, text[-600:]
        cols = {width(r[: r.rindex(" ") + 1]) for r in results}
        assert len(cols) == 1, (lang, results)  # the points line up
        seats = {width(r[: re.search(r"  [1-6]  ", r).start()]) for r in results}  # type: ignore[union-attr]
        assert len(seats) == 1, (lang, results)


# -- 18: rules, 青岛场's deck, buying a 3 ------------------------------------------------


async def test_rules_command_and_qingdao_deck() -> None:
    text, _ = await _run(["rules", "q"], preset="qingdao")
    assert "Cards: 198, with 10 3s, 8 4s taken out; 33 each." in text
    assert "This table's rules: " in text and "(every rule: docs/rules.md)" in text
    bought = ""
    for seed in range(1, 30):
        zh, _ = await _run(["q"], lang="zh", preset="qingdao", seed=seed, default="q")
        if "你买 3" in zh:
            bought = zh
            break
    assert bought, "you bought no 3 in 29 seeded 青岛场 hands"
    assert "你 买" not in bought


# -- 20 and 18: the terminal keeps its finished hands; replay reads them -----------------


async def test_finished_hands_are_kept_for_export_and_replay(tmp_path: Path) -> None:
    db = tmp_path / "gouji.sqlite3"
    text, _ = await _run(["auto"], seed=3, default="q", db_path=str(db))
    assert "--group console:local --hand 1" in text
    out = tmp_path / "h.json"
    assert await export_main(str(db), "console:local", 1, path=str(out)) == 0
    shown = io.StringIO()
    assert replay_main(str(out), "en", show_all=True, out=shown) == 0
    page = shown.getvalue()
    assert not re.search(r"(?<!\()#\d", page) and "seat 6" in page  # "#6" is option 6
    hand = re.search(r"hand: (.+)$", page, re.MULTILINE)
    assert hand is not None and " " in hand[1]  # grouped ranks, as in play
    # Unknown input at the stepper is answered, not taken as "next".
    answers = iter(["huh", "q"])
    again = io.StringIO()
    replay_main(str(out), "en", out=again, input_fn=lambda _: next(answers))
    assert "“huh” is not a step command" in again.getvalue()
    assert again.getvalue().count("[Step ") == 1


def test_grouped_hands_read_high_to_low() -> None:
    from bot.engine.cards import parse

    assert grouped(parse("3345QQB")) == "B QQ 5 4 33"
    assert t("seat_label", "en", seat=6) == "seat 6"


async def test_a_session_killed_mid_hand_leaves_nothing_in_the_way(tmp_path: Path) -> None:
    db = str(tmp_path / "gouji.sqlite3")

    def dies(prompt: str) -> str:
        raise RuntimeError("killed")  # the process dies at its first prompt

    table = ConsoleTable(seed=3, hands=1, lang="en", input_fn=dies, out=io.StringIO(), db_path=db)
    with pytest.raises(RuntimeError):
        await table.run()
    # The next session ends the table left open and deals its own match.
    text, _ = await _run(["auto"], seed=3, default="q", db_path=db)
    assert "Hand 1 result" in text and "--hand 1" in text


async def test_a_file_that_cannot_keep_hands_is_said_once_and_play_goes_on(
    tmp_path: Path,
) -> None:
    text, _ = await _run(["q"], db_path=str(tmp_path))  # a directory, not a file
    assert text.count("Cannot keep finished hands in") == 1 and "Match over" in text
