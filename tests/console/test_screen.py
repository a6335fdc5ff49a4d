"""The terminal as a person sees it: `gouji` in a real 80×24 terminal (tmux, pexpect), and
every flag and subcommand from a shell, as a newcomer runs them (issue 36)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOUJI = [sys.executable, "-m", "adapters.main"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOUJI_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "data")])
    env.update(extra)
    return env


def _gouji(*args: str, cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GOUJI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(**env),
        timeout=120,
    )


# -- the screen at 80×24 (tmux) ----------------------------------------------------------


class Tmux:
    def __init__(self, command: str, cwd: Path) -> None:
        self.name = f"gouji-{uuid.uuid4().hex[:8]}"
        env = " ".join(
            f"{k}={v}"
            for k, v in _env(TERM="xterm-256color").items()
            if k in ("PYTHONPATH", "TERM", "PATH", "HOME")
        )
        subprocess.run(
            [
                "tmux",
                "new-session",
                "-d",
                "-s",
                self.name,
                "-x",
                "80",
                "-y",
                "24",
                f"cd {cwd} && env {env} {command}; sleep 60",
            ],
            check=True,
        )

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> list[str]:
        out = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        ).stdout
        return out.split("\n")[:24]

    def wait_for(self, pattern: str, timeout: float = 60) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.screen()
            if any(re.search(pattern, r) for r in rows):
                return rows
            time.sleep(0.3)
        raise AssertionError(f"{pattern!r} never shown:\n" + "\n".join(self.screen()))

    def wait_above_prompt(self, pattern: str, timeout: float = 60) -> list[str]:
        """The screen once the row right above the prompt matches: a pattern that the
        screen already shows elsewhere (the help names every command) cannot pass early."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.screen()
            prompts = [i for i, r in enumerate(rows) if r.startswith(">")]
            if prompts and prompts[-1] > 0 and re.search(pattern, rows[prompts[-1] - 1]):
                return rows
            time.sleep(0.3)
        raise AssertionError(f"{pattern!r} never above the prompt:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Callable[[str], Tmux]]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    opened: list[Tmux] = []

    def make(command: str) -> Tmux:
        t = Tmux(command, tmp_path)
        opened.append(t)
        return t

    yield make
    for t in opened:
        t.close()


def _prompt_row(rows: list[str]) -> int:
    return max(i for i, r in enumerate(rows) if r.startswith(">"))


def test_the_game_fits_80x24_and_the_answer_is_right_above_the_prompt(
    tmux: Callable[[str], Tmux],
) -> None:
    term = tmux(f"{sys.executable} -m adapters.main --seed 7 --hands 1 --lang en --no-save")
    term.wait_for(r"^>")  # (tmux drops the space after it)
    term.send("hello", "Enter")
    rows = term.wait_for(r"neither a command nor cards")
    p = _prompt_row(rows)
    assert "“hello” is neither a command nor cards" in rows[p - 1]  # right above the prompt
    text = "\n".join(rows)
    # The whole game is on the screen: the table, the top play, your hand, the short list.
    assert "you: team 1-3-5, your 对头 (opposite) is seat 4" in text
    assert all(re.search(rf"^. {s} ", text, re.MULTILINE) for s in range(1, 7))
    assert "On top: seat" in text and "Your hand (" in text and "  #1 " in text
    term.send("h", "Enter")
    rows = term.wait_for(r"q quit \(or Ctrl-C\)")
    p = _prompt_row(rows)
    assert "q quit (or Ctrl-C)" in rows[p - 1]  # the help, whole, above the prompt
    term.send("r", "Enter")
    rows = term.wait_above_prompt(r"defer|让")
    assert not any("q quit (or Ctrl-C)" in r for r in rows[_prompt_row(rows) - 1 :])


def test_q_between_hands_quits_in_a_real_terminal(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        [*GOUJI[1:], "--seed", "3", "--hands", "3", "--lang", "en", "--no-save"],
        cwd=str(tmp_path),
        env=_env(),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=300,  # a whole hand at a person's pace (0.6 s a play) on a busy machine
    )
    child.expect("> ")
    child.sendline("auto")
    child.expect("Press Enter for the next hand")  # 托管 played hand 1 at a person's pace
    child.sendline("q")
    child.expect("Match over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Hand 2: seat" not in (child.before or "")


def test_the_table_says_when_an_expert_seat_is_thinking(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        [*GOUJI[1:], "--watch", "--ai", "expert", "--seed", "3"],
        cwd=str(tmp_path),
        env=_env(GOUJI_SEARCH_PROCESSES="0"),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
    )
    # Something is shown within seconds: the first seat that thinks a while says so.
    child.expect("思考中…", timeout=20)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()


def test_ctrl_c_in_replay_is_quiet(tmp_path: Path) -> None:
    rec = tmp_path / "h.json"
    made = _gouji("--watch", "--seed", "3", "--record", str(rec), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    child = pexpect.spawn(
        sys.executable,
        [*GOUJI[1:], "replay", str(rec)],
        cwd=str(tmp_path),
        env=_env(),
        encoding="utf-8",
        timeout=30,
        # A runner started in the background ignores SIGINT, and an ignored SIGINT is
        # inherited: give the child the default a person's terminal gives it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect("q")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 130  # interrupted: said by the status, not by a traceback


# -- errors and flags: one line, no traceback, an exit status ----------------------------


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (["--hands", "-1"], {}, "0 to 50"),
        (["--hands", "51"], {}, "0 to 50"),
        (["--record", "x.json"], {}, "use it with --watch"),
        (["--watch", "--hands", "3"], {}, "--watch plays one hand"),
        (["--shards", "0/2"], {}, "GOUJI_DISCORD_TOKEN"),
        (["--watch"], {"GOUJI_LOG": "loud"}, "not a log level"),
        (["export", "--db", "typo.sqlite3", "--group", "tg:-1", "--hand", "1"], {}, "no such"),
        (["export", "--db", ".", "--group", "tg:-1", "--hand", "1"], {}, "is not a file"),
    ],
)
def test_bad_flags_get_one_line(
    tmp_path: Path, args: list[str], env: dict[str, str], says: str
) -> None:
    res = _gouji(*args, cwd=tmp_path, **env)
    assert res.returncode == 2, res
    assert "Traceback" not in res.stderr and says in res.stderr
    assert len([ln for ln in res.stderr.splitlines() if ln.startswith("gouji")]) == 1
    assert not (tmp_path / "typo.sqlite3").exists()  # export creates no database


def test_lowercase_log_level_and_render_demo_on_a_file(tmp_path: Path) -> None:
    res = _gouji("--no-save", "--hands", "1", cwd=tmp_path, stdin="q\n", GOUJI_LOG="info")
    assert res.returncode == 0 and "Traceback" not in res.stderr
    (tmp_path / "afile").write_text("x")
    res = _gouji("render-demo", "afile", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.strip() == "gouji: afile is a file, not a directory"


def test_lang_applies_to_the_referee_as_to_replay(tmp_path: Path) -> None:
    scenario = str(ROOT / "tests/engine/scenarios/s07_rang_off.json")
    en = _gouji("--lang", "en", "referee", scenario, cwd=tmp_path)
    zh = _gouji("referee", scenario, cwd=tmp_path)
    assert "This preset has no deferring (让)." in en.stdout
    assert "这个玩法不许让牌。" in zh.stdout


def test_help_says_what_hands_0_means(tmp_path: Path) -> None:
    res = _gouji("--help", cwd=tmp_path)
    assert "0 means no limit" in " ".join(res.stdout.split())


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    scenario = ROOT / "tests/engine/scenarios/s08_burn_failed.json"
    env = _env()
    for command in (
        f"{sys.executable} -m adapters.main referee {scenario} | head -1",
        f"{sys.executable} -m adapters.main --watch --seed 3 | head -2",
    ):
        res = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, cwd=tmp_path, env=env
        )
        assert res.stderr == "", (command, res.stderr)
        assert len(res.stdout.splitlines()) >= 1


# -- README's terminal commands, as written ----------------------------------------------


def _readme_block(title: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split(f"## {title}", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [ln.split("#")[0].strip() for ln in block.splitlines() if ln.strip()]


def test_the_readme_terminal_commands_run_as_written(tmp_path: Path) -> None:
    for line in _readme_block("Play in the terminal"):
        if not line.startswith("gouji"):
            continue
        args = [a for a in line.split()[1:] if not a.startswith("[")]  # [optional] flags
        if "export" in args:
            continue  # needs a played hand: run after the terminal match below
        if "--ai" in args and "expert" in args:
            args += ["--hands", "1"]
        if args and args[0] == "referee":
            args[1] = str(ROOT / args[1])
        res = _gouji(*args, cwd=tmp_path, stdin="q\n" * 3, GOUJI_SEARCH_PROCESSES="0")
        assert res.returncode == 0, (line, res.stderr[-500:])
        assert "Traceback" not in res.stderr, line
    # The terminal match above kept its hands (none finished: q) — play one under 托管.
    res = _gouji("--seed", "3", "--hands", "1", cwd=tmp_path, stdin="auto\n")
    assert res.returncode == 0
    exported = _gouji(
        "export",
        "--db",
        "gouji.sqlite3",
        "--group",
        "console:local",
        "--hand",
        "1",
        "--out",
        "h1.json",
        cwd=tmp_path,
    )
    assert exported.returncode == 0, exported.stderr
    assert _gouji("replay", "h1.json", "--all", cwd=tmp_path).returncode == 0
