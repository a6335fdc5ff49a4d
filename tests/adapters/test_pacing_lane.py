"""The shared pacing lane (adapters/pacing) on a fake clock, on each platform's limits:
posts in FIFO order, edits coalesced, the budget never exceeded, the history and a 429's
pause surviving a restart, and the bot-wide rate hook waited on before each call."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import discord
import pytest
from telegram.error import RetryAfter

from adapters.discord import pacing as dc
from adapters.pacing import Job, Limits, Pacer, RateBudget, Rules
from adapters.pacing.lane import Lane
from adapters.telegram import sender as tg
from bot.table import FakeClock

CHAT = -100


@dataclass(frozen=True)
class Platform:
    name: str
    limits: Limits
    retry_of: Callable[[Exception], float | None]
    too_many: Callable[[int], Exception]  # the platform's own 429


PLATFORMS = [
    Platform(
        "telegram",
        Limits(tg.GROUP_LIMIT, tg.GROUP_WINDOW, tg.GROUP_RESERVE, tg.STALE_AFTER, tg.QUEUE_CAP),
        tg.retry_of,
        RetryAfter,
    ),
    Platform("discord", dc.LIMITS, dc.retry_of, lambda s: discord.RateLimited(float(s))),
]


class Memory:
    """A budget and pause memory that outlives the pacers using it (a restart)."""

    def __init__(self) -> None:
        self.sent: dict[Hashable, list[float]] = {}
        self.edits: dict[Hashable, list[float]] = {}
        self.pauses: dict[Hashable, float] = {}

    def load(self, chat: Hashable) -> Sequence[float]:
        return self.sent.get(chat, [])

    def load_edits(self, chat: Hashable) -> Sequence[float]:
        return self.edits.get(chat, [])

    async def save(self, chat: Hashable, times: Sequence[float], edits: Sequence[float]) -> None:
        self.sent[chat], self.edits[chat] = list(times), list(edits)

    def load_pause(self, chat: Hashable) -> float:
        return self.pauses.get(chat, 0.0)

    async def save_pause(self, chat: Hashable, until: float) -> None:
        self.pauses[chat] = until


class Bucket:
    """A bot-wide rate that counts its permits (the hook a shared bucket in the
    database plugs into)."""

    def __init__(self) -> None:
        self.acquired = 0

    async def acquire(self) -> None:
        self.acquired += 1


class Log:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, str]] = []

    def job(self, name: str, fail: Exception | None = None) -> Job:
        failures = [fail] if fail is not None else []

        async def run() -> int:
            self.calls.append((self.clock.now(), name))
            if failures:
                raise failures.pop()
            return 1

        return run

    def names(self) -> list[str]:
        return [name for _, name in self.calls]


def pacer(p: Platform, clock: FakeClock, memory: Memory | None = None) -> Pacer:
    budget = RateBudget(p.limits.limit, p.limits.window, clock, memory, wall=clock.now)
    if memory is None:
        return Pacer(Rules(p.limits, budget, p.retry_of))
    return Pacer(Rules(p.limits, budget, p.retry_of, pauses=memory))


async def run_for(lanes: Pacer, clock: FakeClock, seconds: float, step: float) -> None:
    for _ in range(round(seconds / step)):
        await lanes.pump()
        clock.advance(step)
    await lanes.pump()


def most_in_window(times: list[float], window: float) -> int:
    times = sorted(times)
    return max(
        (sum(1 for x in times[i:] if x < at + window) for i, at in enumerate(times)), default=0
    )


def step_of(p: Platform) -> float:
    return p.limits.window / 60


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_posts_go_in_fifo_order_urgent_first(p: Platform) -> None:
    clock = FakeClock()
    lanes = pacer(p, clock)
    log = Log(clock)
    n = 3 * p.limits.limit
    for i in range(n):
        lanes.post(CHAT, log.job(f"reply{i}"))
        if i % 3 == 0:
            lanes.post(CHAT, log.job(f"urgent{i}"), urgent=True)
    await run_for(lanes, clock, 6 * p.limits.window, step_of(p))
    names = log.names()
    assert [x for x in names if x.startswith("reply")] == [f"reply{i}" for i in range(n)]
    assert [x for x in names if x.startswith("urgent")] == [f"urgent{i}" for i in range(0, n, 3)]
    # Queued together, the urgent ones went out before any reply.
    assert names[: n // 3] == [f"urgent{i}" for i in range(0, n, 3)]


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_edits_coalesce_and_end_on_the_latest_state(p: Platform) -> None:
    clock = FakeClock()
    lanes = pacer(p, clock)
    state = {"n": 0}
    shown: list[tuple[float, int]] = []

    async def edit() -> int:
        shown.append((clock.now(), state["n"]))
        return 1

    interval = p.limits.edit_interval
    for i in range(200):  # a change every tenth of an interval
        state["n"] = i
        lanes.touch(CHAT, "table", edit, interval)
        await lanes.pump()
        clock.advance(interval / 10)
    await run_for(lanes, clock, 3 * interval, step_of(p))
    assert shown[-1][1] == 199  # the last edit shows the last change
    assert len(shown) <= 200 / 10 + 2  # one per interval, not one per change
    assert all(b - a >= interval - 1e-9 for (a, _), (b, _) in itertools.pairwise(shown))


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_budget_is_never_exceeded(p: Platform, seed: int) -> None:
    clock = FakeClock()
    lanes = pacer(p, clock)
    log = Log(clock)
    rng = random.Random(seed)
    step = step_of(p)
    # Ten windows of random traffic: posts at about half the budget, changes all along.
    urgent, replies = 0.15 * p.limits.limit / 60, 0.3 * p.limits.limit / 60
    for i in range(600):
        roll = rng.random()
        if roll < urgent:
            lanes.post(CHAT, log.job(f"u{i}"), urgent=True)
        elif roll < urgent + replies:
            lanes.post(CHAT, log.job(f"r{i}"))
        elif roll < 0.6:
            lanes.touch(CHAT, "table", log.job("edit"), p.limits.edit_interval)
        await lanes.pump()
        clock.advance(step)
    await run_for(lanes, clock, 5 * p.limits.window, step)
    times = [at for at, _ in log.calls]
    assert log.names().count("edit") >= 10 and len(times) >= 2 * p.limits.limit
    assert most_in_window(times, p.limits.window) <= p.limits.limit
    # The edits and replies always left the reserve to the urgent posts.
    paced = [at for at, name in log.calls if not name.startswith("u")]
    assert most_in_window(paced, p.limits.window) <= p.limits.limit - p.limits.reserve
    assert not lanes.pending()


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_the_window_and_its_edits_survive_a_restart(p: Platform) -> None:
    clock = FakeClock()
    memory = Memory()
    first = pacer(p, clock, memory)
    log = Log(clock)
    for i in range(p.limits.limit):
        first.post(CHAT, log.job(f"before{i}"), urgent=True)
    first.touch(CHAT, "table", log.job("edit"), 0.0)
    await first.pump()
    assert len(log.calls) == p.limits.limit  # the whole window spent (the edit waits)
    clock.advance(p.limits.window / 2)
    again = pacer(p, clock, memory)  # a restart: nothing in memory but the store
    assert again.budget.used(CHAT) == p.limits.limit
    for i in range(p.limits.limit):
        again.post(CHAT, log.job(f"after{i}"), urgent=True)
    await run_for(again, clock, 2 * p.limits.window, step_of(p))
    assert most_in_window([at for at, _ in log.calls], p.limits.window) <= p.limits.limit
    # Which calls were edits is kept too (the lane paces its edits by the others).
    other = CHAT - 1
    edits = pacer(p, clock, memory)
    edits.touch(other, "table", log.job("edit2"), 0.0)
    edits.post(other, log.job("reply"))
    await edits.pump()
    third = pacer(p, clock, memory)
    assert (third.budget.used(other), third.budget.edits(other)) == (2, 1)


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_a_429_pauses_the_chat_and_the_pause_survives_a_restart(p: Platform) -> None:
    clock = FakeClock()
    memory = Memory()
    lanes = pacer(p, clock, memory)
    log = Log(clock)
    lanes.post(CHAT, log.job("flooded", p.too_many(30)), urgent=True)
    lanes.post(CHAT, log.job("next"), urgent=True)
    lanes.post(-200, log.job("elsewhere"), urgent=True)
    await lanes.pump()
    assert log.names() == ["flooded", "elsewhere"]  # only that chat is paused
    clock.advance(10)
    restarted = pacer(p, clock, memory)
    restarted.post(CHAT, log.job("after restart"), urgent=True)
    await run_for(restarted, clock, 19, 1.0)
    assert log.names() == ["flooded", "elsewhere"]  # still inside Telegram's/Discord's 30 s
    await run_for(restarted, clock, 2, 1.0)
    assert log.names()[2:] == ["after restart"]
    assert log.calls[2][0] >= 30


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_the_global_rate_is_asked_before_every_call(p: Platform) -> None:
    clock = FakeClock()
    budget = RateBudget(p.limits.limit, p.limits.window, clock, wall=clock.now)
    bucket = Bucket()
    lanes = Pacer(Rules(p.limits, budget, p.retry_of, rate=bucket))
    log = Log(clock)
    for chat in range(-1, -6, -1):
        lanes.post(chat, log.job(f"c{chat}"), urgent=True)
    await lanes.pump()
    assert bucket.acquired == len(log.calls) == 5


async def until(done: Callable[[], bool], seconds: float = 2.0) -> None:
    """Wait on the real clock until ``done()`` (the production loop runs on its own)."""
    for _ in range(round(seconds / 0.01)):
        if done():
            return
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("p", PLATFORMS, ids=lambda p: p.name)
async def test_a_lane_due_while_another_uploads_starts_at_once(p: Platform) -> None:
    """The production loop (``start()``): a chat's message that falls due while another
    chat's upload is still out goes at once — a player's keyboard does not wait for the
    group's result picture (issue 38). Then a failing job leaves its lane and the loop
    alive, and ``stop()`` ends the upload still out."""
    clock = FakeClock()
    lanes = pacer(p, clock)
    uploading, release = asyncio.Event(), asyncio.Event()
    sent: list[str] = []

    async def upload() -> int:
        uploading.set()
        await release.wait()
        sent.append("picture")
        return 1

    async def keyboard() -> int:
        sent.append("keyboard")
        return 1

    async def broken() -> int:
        raise RuntimeError("bad job")

    lanes.start()
    try:
        lanes.post(CHAT, upload)
        await asyncio.wait_for(uploading.wait(), 2)
        lanes.post(CHAT - 1, keyboard, urgent=True)
        await until(lambda: bool(sent))
        assert sent == ["keyboard"]  # while the picture is still uploading
        lanes.post(CHAT - 2, broken, urgent=True)
        await asyncio.sleep(0.05)
        lanes.post(CHAT - 2, keyboard, urgent=True)  # the same chat, once more
        await until(lambda: len(sent) == 2)
        assert sent == ["keyboard", "keyboard"]
        release.set()
        await until(lambda: len(sent) == 3)
        assert sent[-1] == "picture"
        uploading.clear()
        release.clear()
        lanes.post(CHAT, upload)
        await asyncio.wait_for(uploading.wait(), 2)
    finally:
        await lanes.stop()
    release.set()
    await asyncio.sleep(0.05)
    assert sent.count("picture") == 1  # the upload out at stop() was cancelled


async def test_a_drain_that_fails_is_tried_again_later_not_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A lane whose drain itself raises (a bug, not a failed call: those the lane keeps)
    is tried again a second later — the loop neither dies nor spins on it."""
    p = PLATFORMS[0]
    clock = FakeClock()
    budget = RateBudget(p.limits.limit, p.limits.window, clock, wall=clock.now)
    tries: list[int] = []

    class Flaky(Pacer):
        async def _drain(self, lane: Lane) -> None:
            tries.append(1)
            if len(tries) == 1:
                raise RuntimeError("a bug in a lane")
            await super()._drain(lane)

    lanes = Flaky(Rules(p.limits, budget, p.retry_of))
    sent: list[str] = []

    async def keyboard() -> int:
        sent.append("keyboard")
        return 1

    lanes.start()
    try:
        lanes.post(CHAT, keyboard, urgent=True)
        await asyncio.sleep(0.5)
        assert len(tries) == 1 and sent == []  # not again at once
        clock.advance(1.0)  # the loop looks again within a second of real time
        await until(lambda: bool(sent))
        assert sent == ["keyboard"] and len(tries) == 2
    finally:
        await lanes.stop()
    assert "a lane's drain failed" in caplog.text
