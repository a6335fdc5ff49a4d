"""A run of AI moves is printed as it is played, not once the whole run is decided.

A watched hand is one step of the table (six AI seats play it through), and so is the run
of AI moves after your play under 托管. The table tells the terminal the step's outputs
before each AI turn (``Env.live``), so with searching seats the plays come one by one
while the next seat thinks, instead of a minute of "思考中…" and then the whole hand.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence

from adapters.console import ConsoleTable
from bot.ai import policy_for
from bot.engine.actions import Action
from bot.engine.state import HandState
from bot.engine.views import SeatView
from bot.table.outputs import Out

from .test_console import Script

PLAY = re.compile(r"^电脑\d：", re.M)


class Watching:
    """``normal``'s choices, searching as the expert does (so the table asks it in a worker
    thread), noting how many plays the terminal had printed at each decision."""

    def __init__(self, out: io.StringIO) -> None:
        self.inner = policy_for("normal")
        self.out = out
        self.printed: list[int] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.inner.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: HandState, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        self.printed.append(len(PLAY.findall(self.out.getvalue())))
        return self.inner.choose(view, legal, rng)


class Unstreamed(ConsoleTable):
    """The terminal as it was: a step's lines printed only once the step is over."""

    def _live(self, outs: tuple[Out, ...]) -> None:
        return None


async def test_a_watched_hand_is_printed_as_it_is_played() -> None:
    out = io.StringIO()
    policy = Watching(out)
    table = ConsoleTable(preset="qingdao", seed=12, hands=1, watch=True, out=out, policy=policy)
    assert await table.run() == 0
    plays = len(PLAY.findall(out.getvalue()))
    assert plays > 40
    # The whole hand is one step; still, each decision found the plays before it printed.
    assert policy.printed[0] == 0
    assert policy.printed[-1] >= plays - 6
    assert policy.printed == sorted(policy.printed)


async def test_streaming_prints_every_line_once_in_order() -> None:
    live, old = io.StringIO(), io.StringIO()
    for cls, out in ((ConsoleTable, live), (Unstreamed, old)):
        table = cls(preset="dagang", seed=7, hands=1, watch=True, out=out, policy=Watching(out))
        assert await table.run() == 0
    assert live.getvalue() == old.getvalue()
    assert "头科" in live.getvalue() and "比赛结束" in live.getvalue()


async def test_autoplay_streams_the_same_lines() -> None:
    texts = []
    for cls in (ConsoleTable, Unstreamed):
        out = io.StringIO()
        script = Script(["auto"], default="")
        table = cls(preset="match", seed=3, hands=1, input_fn=script, out=out, color=False)
        assert await table.run() == 0
        texts.append(out.getvalue())
    assert texts[0] == texts[1]
    assert "托管" in texts[0] and "比赛结束" in texts[0]


async def test_q_while_the_table_plays_on_ends_the_match() -> None:
    out = io.StringIO()
    polls: list[float] = []

    def poll(timeout: float) -> str | None:
        polls.append(timeout)
        return "q\n" if len(polls) == 5 else None

    table = ConsoleTable(
        preset="dagang", seed=7, hands=1, watch=True, out=out, poll_fn=poll, policy=Watching(out)
    )
    assert await table.run() == 0
    text = out.getvalue()
    played = [line for line in text.splitlines() if PLAY.match(line) and line[4:] not in "过让"]
    assert len(played) == 5  # the pause after the fifth play read the q: no more moves
    assert text.index(played[-1]) > text.rindex("过")
    assert "比赛结束" in text and "头科" not in text
