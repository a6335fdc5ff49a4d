"""The terminal table, driven with scripted input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from adapters.console import ConsoleTable, watch

ROOT = Path(__file__).resolve().parents[2]


class Script:
    """Answers prompts: first from a list, then always ``default``."""

    def __init__(self, lines: list[str], default: str = "#1") -> None:
        self.lines = list(lines)
        self.default = default
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        if len(self.prompts) > 3000:
            return "q"
        return self.default


async def test_a_whole_match_in_the_terminal() -> None:
    out = io.StringIO()
    script = Script([])
    table = ConsoleTable(preset="dagang", seed=4, hands=1, input_fn=script, out=out, color=False)
    assert await table.run() == 0
    text = out.getvalue()
    assert "你的牌" in text and "头科" in text and "大落" in text
    assert "比赛结束" in text
    assert len(script.prompts) > 5


async def test_bad_input_is_explained_and_quit_stops(tmp_path: Path) -> None:
    out = io.StringIO()
    script = Script(["88X", "#999", "h", "q"])
    table = ConsoleTable(preset="weifang", seed=8, hands=2, input_fn=script, out=out, color=False)
    assert await table.run() == 0
    text = out.getvalue()
    assert "“X”" in text  # the bad character is named
    assert "没有这个编号" in text  # 999 is not an option
    assert "出牌：#N 选列表里的第 N 项" in text  # help
    assert "比赛结束" in text  # q ends the match politely


async def test_english_terminal() -> None:
    out = io.StringIO()
    table = ConsoleTable(seed=4, hands=1, lang="en", input_fn=Script([]), out=out, color=False)
    await table.run()
    text = out.getvalue()
    assert "Your hand" in text and "Match over" in text


async def test_watch_plays_one_hand_and_is_seeded() -> None:
    a, b = io.StringIO(), io.StringIO()
    await watch("qingdao", 12, "zh", out=a)
    await watch("qingdao", 12, "zh", out=b)
    assert a.getvalue() == b.getvalue()
    assert "头科" in a.getvalue() and "比赛结束" in a.getvalue()


def test_cli_referee_prints_json_lines(tmp_path: Path) -> None:
    scenario = {
        "hands": ["SS888TTTTT3", "JJJJJSQQ4", "5678", "QQQQQ9", "6K", "7A"],
        "leader": 1,
        "actions": [
            {"seat": 1, "do": "play", "cards": "TTTTT"},
            {"seat": 3, "do": "play", "cards": "5"},
            {"seat": 2, "do": "burn", "cards": "JJJJJ"},
        ],
    }
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario))
    res = subprocess.run(
        [sys.executable, "-m", "bot", "referee", str(f), "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x.get("ok") for x in lines[:3]] == [True, False, True]
    assert lines[1]["error"] == "gouji_opposite_only"
    assert lines[-1]["final"]["burner"] == 2 and lines[-1]["final"]["to_act"] == 5


def test_referee_runs_on_a_bare_python_with_only_the_source_tree(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(
        json.dumps(
            {
                "hands": ["5", "6", "7", "8", "9", "T"],
                "actions": [
                    {"seat": 1, "do": "play", "cards": "5"},
                    {"seat": 2, "do": "play", "cards": "X"},
                ],
            }
        )
    )
    res = subprocess.run(
        [sys.executable, "-S", "-m", "bot.engine.replay", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert lines[1]["error"] == "bad_notation" and "X" in lines[1]["message"]


# -- issue 9: the terminal as a new player meets it -------------------------------------


async def _run(
    lines: list[str], lang: str = "en", seed: int = 7, hands: int = 1, **kw: object
) -> str:
    out = io.StringIO()
    table = ConsoleTable(
        seed=seed, hands=hands, lang=lang, input_fn=Script(lines), out=out, color=False, **kw
    )  # type: ignore[arg-type]
    assert await table.run() == 0
    return out.getvalue()


async def test_digits_are_cards_and_menu_numbers_need_a_hash() -> None:
    # Seed 7: a set of three is on top when you first act (what it is depends on how the
    # AI seats play), so the card "2" alone is the wrong number of cards.
    text = await _run(["2", "1", "#2", "q"])
    assert "Wrong number of cards: play 3." in text  # "2" is the card 2, not option 2
    assert "“1” is not a card" in text and "#1" in text  # no card 1: the hint names #1
    option = re.search(r"^  #2 .*?([3-9TJQKA2SB]+)$", text, re.MULTILINE)
    assert option is not None and option[1] != "2"
    assert text.count(f"You: {option[1]}") == 1  # only "#2" played option 2


async def test_lone_b_or_s_is_explained_not_played() -> None:
    text = await _run(["b", "n", "S", "n", "q"])
    assert text.count("Nothing played.") == 2
    assert "You: B" not in text and "You: S" not in text


async def test_refusals_say_why_and_help_offers_only_what_exists() -> None:
    text = await _run(["d", "q"])  # 大纲 has no 明点
    assert "There are no point declarations" in text
    assert "d declare a point" not in text  # not offered in the help line either


async def test_second_person_english_and_no_group_wording() -> None:
    text = await _run(["c 3"], hands=1)
    assert "You win the trick." in text or "You: " in text
    for wrong in ("You wins", "You declares", "You's", "You pays", "card(s)"):
        assert wrong not in text
    assert "posted in the group" not in text


async def test_autoplay_turns_off_again_and_is_announced_once() -> None:
    polls: list[float] = []

    def poll(timeout: float) -> str | None:
        polls.append(timeout)
        return "auto" if len(polls) == 3 else None

    out = io.StringIO()
    script = Script(["auto"], default="p")
    table = ConsoleTable(
        seed=7, hands=1, lang="en", input_fn=script, poll_fn=poll, out=out, color=False
    )
    await table.run()
    text = out.getvalue()
    assert text.count("Autoplay is on.") == 1
    assert "Autoplay is off." in text
    assert len(script.prompts) > 2  # after taking the seat back, you are asked again


async def test_tribute_cards_given_and_received_are_shown() -> None:
    # Whether you pay tribute in hand 2 depends on how the AI seats played hand 1, so
    # look through a few seeds for a match where you do (bounded).
    paid = None
    text = ""
    for seed in range(1, 20):
        text = await _run([], seed=seed, hands=2)
        paid = re.search(r"You pay (AI \d \(seat \d\)) tribute: ([2SB]+)\n", text)
        if paid:
            break
    assert paid is not None, "you paid no tribute in 19 seeded matches"
    assert re.search(re.escape(paid[1]) + r" returns [3-9TJQKA2SB]+ to you\.", text)


async def test_burn_cards_are_shown() -> None:
    # AI hands burn now and then: watch seeded hands until one does (bounded).
    burns: list[str] = []
    for seed in range(1, 60):
        out = io.StringIO()
        await watch("dagang", seed, "zh", out=out)
        burns = [ln for ln in out.getvalue().splitlines() if "烧牌" in ln and "成功" not in ln]
        if burns:
            break
    assert burns, "no burn in 59 seeded hands"
    for line in burns:
        cards = line.rstrip("！").partition("烧牌：")[2]
        assert cards and set(cards) <= set("3456789TJQKA2SB"), line


def test_ctrl_c_ends_the_match_like_q(tmp_path: Path) -> None:
    import os
    import signal
    import time

    env = {k: v for k, v in os.environ.items() if not k.startswith("GOUJI_")}
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "-m", "adapters.main", "--seed", "7", "--hands", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 30
    while b"> " not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read1(4096)  # type: ignore[attr-defined]
    assert b"> " in seen
    proc.send_signal(signal.SIGINT)  # one press
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert "比赛结束" in (seen + out).decode()


def test_competition_rows_add_up_to_the_team_scores() -> None:
    # 比赛 (issue 9.12): places' points plus each itemized ±1 give the team totals.
    import random

    from bot.engine import make_rules, new_hand
    from bot.engine.state import same_team
    from render.samples import play

    seen_bonus = False
    for seed in range(1, 40):
        state, _ = new_hand(make_rules("match"), seed)
        state = play(state, random.Random(seed))
        res = state.result
        assert res is not None
        for team, seat in ((0, 1), (1, 2)):
            places = sum(res.seat_points[s - 1] for s in range(1, 7) if same_team(s, seat))
            plus = sum(1 for b in res.bonuses if same_team(b.earner, seat))
            minus = sum(1 for b in res.bonuses if same_team(b.payer, seat))
            raw = places + plus - minus
            assert raw == res.itemized_scores()[team]
            # positive_only (on in 比赛) records the losing team as 0, shown as its own line.
            assert res.team_scores[team] in (raw, 0), (seed, res)
        seen_bonus = seen_bonus or bool(res.bonuses)
    assert seen_bonus


async def test_terminal_result_itemizes_competition_points() -> None:
    out = io.StringIO()
    for seed in range(1, 40):
        out = io.StringIO()
        table = ConsoleTable(
            preset="match", seed=seed, hands=1, lang="en", input_fn=Script([]), out=out, color=False
        )
        await table.run()
        if "+1," in out.getvalue():
            break
    text = out.getvalue()
    bonus_lines = [ln for ln in text.splitlines() if "+1," in ln and ln.rstrip().endswith("-1")]
    assert bonus_lines, text[-800:]


# -- rules v2: 冲点 and 烩 in the terminal ------------------------------------------------


async def test_a_revolter_is_offered_chongdian_and_x_takes_it() -> None:
    # Seed 208 under 大众场 (chongdian on): you may revolt; after it, x chooses 冲点.
    text = await _run(["v", "x", "q"], preset="dazhong", seed=208)
    _, after_revolt = text.split("You declare a revolution!", 1)
    helps = [ln for ln in text.splitlines() if ln.startswith("Before the first play")]
    assert "x charge (冲点)" not in helps[0]  # offered only to a revolter
    assert "x charge (冲点)" in helps[-1]
    assert "You go for 冲点" in after_revolt
    # 冲点 leads pure gouji plays only: the options listed after it offer no low sets
    # (the screen shows them above the messages that led to it).
    frame = after_revolt.split("You go for 冲点", 1)[0].rpartition("Dazhong · hand")[2]
    options = [ln for ln in frame.splitlines() if ln.startswith("  #")]
    plays = [ln.rpartition(" ")[2] for ln in options if "Cheapest" in ln or "Lead" in ln]
    assert plays and plays[0] == "JJJJ" and "999" not in plays and "77777" not in plays


async def test_hui_and_chongdian_are_explained_where_the_preset_has_none() -> None:
    text = await _run(["u", "x", "q"])  # 大纲: 烩 off, 冲点 off
    assert "This preset does not set 3s or 4s aside (no 烩)." in text
    assert "This preset has no charge (冲点)." in text
    assert "You go for 冲点" not in text
