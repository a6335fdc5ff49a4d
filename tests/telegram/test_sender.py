"""The Sender on a fake clock: group budget, coalesced edits, 429 pauses, and what a
flood of replies sheds (only replies to commands; never the game's own posts)."""

from __future__ import annotations

import itertools

from telegram.error import BadRequest, RetryAfter

from adapters.telegram.sender import Sender
from bot.cluster import receipts
from bot.table import FakeClock

GROUP = -100


class Log:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, str]] = []

    def job(self, name: str, fail: Exception | None = None):  # type: ignore[no-untyped-def]
        """A job that makes one call; with ``fail``, its first call fails so."""
        failures = [fail] if fail is not None else []

        async def run() -> bool:
            self.calls.append((self.clock.now(), name))
            if failures:
                raise failures.pop()
            return True

        return run


async def run_for(sender: Sender, clock: FakeClock, seconds: int) -> None:
    for _ in range(seconds):
        await sender.pump()
        clock.advance(1.0)
    await sender.pump()


async def test_group_budget_is_twenty_a_minute() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    for i in range(45):  # past the queue's cap of 40: the game's posts are never shed
        sender.post(GROUP, log.job(f"m{i}"))
    await run_for(sender, clock, 200)
    assert [name for _, name in log.calls] == [f"m{i}" for i in range(45)]
    times = [at for at, _ in log.calls]
    for i, at in enumerate(times):
        assert sum(1 for x in times[i:] if x < at + 60) <= 20


async def test_a_full_queue_sheds_its_oldest_reply_to_a_command() -> None:
    clock = FakeClock()
    sender = Sender(clock, stale_after=1e9)  # the cap alone
    log = Log(clock)
    for i in range(20):
        sender.post(GROUP, log.job(f"r{i}"), expendable=True)
    for i in range(25):  # the game's posts: g20..g24 make room by shedding r0..r4
        sender.post(GROUP, log.job(f"g{i}"))
    sender.post(GROUP, log.job("r20"), expendable=True)  # and this one sheds r5
    await run_for(sender, clock, 300)
    names = [name for _, name in log.calls]
    assert names == [f"r{i}" for i in range(6, 20)] + [f"g{i}" for i in range(25)] + ["r20"]


async def test_a_queue_full_of_the_games_posts_sheds_a_new_reply() -> None:
    clock = FakeClock()
    sender = Sender(clock, stale_after=1e9)
    log = Log(clock)
    for i in range(40):
        sender.post(GROUP, log.job(f"g{i}"))
    with receipts.collecting(receipts.Receipt()) as reply:
        sender.post(GROUP, log.job("r"), expendable=True)
    assert reply.dropped and reply.done and not reply.abandoned  # shed at once, not sent
    await run_for(sender, clock, 200)
    assert [name for _, name in log.calls] == [f"g{i}" for i in range(40)]


async def test_a_reply_that_waited_a_minute_is_shed_and_urgent_news_never_is() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    for i in range(25):
        sender.post(GROUP, log.job(f"r{i}"), expendable=True)
    await run_for(sender, clock, 200)
    # 19 in the first minute (one call kept for urgent news); at 60 s the rest are stale
    assert [name for _, name in log.calls] == [f"r{i}" for i in range(19)]
    for i in range(45):  # urgent: past the cap and past a minute's wait, all of it goes
        sender.post(GROUP, log.job(f"u{i}"), urgent=True)
    await run_for(sender, clock, 200)
    assert [name for _, name in log.calls][19:] == [f"u{i}" for i in range(45)]


async def test_a_relayed_reply_counts_its_wait_from_its_outbox_row() -> None:
    clock = FakeClock()
    sender = Sender(clock, wall=clock.now)
    log = Log(clock)
    queued = clock.now()
    clock.advance(61)  # the row waited in the outbox (another worker held the chat)
    with receipts.collecting(receipts.Receipt(queued=queued)) as old:
        sender.post(GROUP, log.job("old"), expendable=True)
    with receipts.collecting(receipts.Receipt(queued=clock.now() - 5)) as fresh:
        sender.post(GROUP, log.job("fresh"), expendable=True)
    await sender.pump()
    assert [name for _, name in log.calls] == ["fresh"]
    assert old.dropped and fresh.done and not fresh.dropped and fresh.shed == 0


async def test_private_chats_are_not_held_to_the_group_budget() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    for i in range(30):
        sender.post(777, log.job(f"p{i}"))
    await sender.pump()
    assert len(log.calls) == 30


async def test_edits_coalesce_and_end_on_the_latest() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    state = {"v": 0}

    async def edit() -> bool:
        log.calls.append((clock.now(), f"v{state['v']}"))
        return True

    for step in range(100):  # a change every 0.2 s for 20 s
        state["v"] = step
        sender.touch(GROUP, ("table", "k"), edit, 3.0)
        await sender.pump()
        clock.advance(0.2)
    await run_for(sender, clock, 10)
    times = [at for at, _ in log.calls]
    assert all(b - a >= 3.0 - 1e-9 for a, b in itertools.pairwise(times))
    assert log.calls[-1][1] == "v99"
    assert len(log.calls) <= 8


async def test_an_edit_that_changed_nothing_does_not_hold_the_next_one() -> None:
    """The pace spaces calls. A run that found the message as it should be made none, so
    the next change goes at once — it held a whole interval before (with several
    workers the outbox relay waited for it, and the replies behind it grew stale)."""
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    changed = {"yes": False}

    async def edit() -> bool:
        if not changed["yes"]:
            return False  # nothing to change: no call
        log.calls.append((clock.now(), "edit"))
        return True

    sender.touch(GROUP, ("table", "k"), edit, 3.0)
    await sender.pump()
    assert log.calls == []
    clock.advance(0.5)
    changed["yes"] = True
    sender.touch(GROUP, ("table", "k"), edit, 3.0)
    await sender.pump()
    assert log.calls == [(clock.now(), "edit")]  # not 3 s after the empty run
    clock.advance(0.5)
    sender.touch(GROUP, ("table", "k"), edit, 3.0)
    await sender.pump()
    assert len(log.calls) == 1  # a run that made a call still spaces the next
    await run_for(sender, clock, 3)
    (first, _), (second, _) = log.calls
    assert 3.0 <= second - first < 4.0


async def test_retry_after_pauses_only_that_chat() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    sender.post(GROUP, log.job("flooded", RetryAfter(7)))
    sender.post(GROUP, log.job("next"))
    sender.post(-200, log.job("other group"))
    await sender.pump()
    assert [n for _, n in log.calls] == ["flooded", "other group"]
    for _ in range(6):
        clock.advance(1.0)
        await sender.pump()
    assert [n for _, n in log.calls] == ["flooded", "other group"]
    clock.advance(1.0)
    await sender.pump()
    # The refused message is tried again first, then the rest, in order.
    assert [n for _, n in log.calls][2:] == ["flooded", "next"]


async def test_a_failed_job_is_logged_and_the_queue_goes_on() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    sender.post(GROUP, log.job("bad", BadRequest("Chat not found")))
    sender.post(GROUP, log.job("good"))
    assert await sender.pump() is None
    assert [n for _, n in log.calls] == ["bad", "good"]
    assert sender.calls_in_window(GROUP) == 2


async def test_idle_chats_leave_memory_once_their_window_is_empty() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    for user in range(1, 501):  # five hundred private chats and one group, one message each
        sender.post(user, log.job(f"p{user}"))
    sender.post(GROUP, log.job("g"))
    await sender.pump()
    assert len(log.calls) == 501
    assert sender.lanes() == 1  # private chats go at once; the group keeps its window
    assert sender.calls_in_window(GROUP) == 1
    clock.advance(61.0)
    await sender.pump()
    assert sender.lanes() == 0 and not sender.budget._sent
    # A group that comes back still counts what it spent (its memory is consulted again).
    for i in range(25):
        sender.post(GROUP, log.job(f"again{i}"))
    await run_for(sender, clock, 70)
    times = [at for at, name in log.calls if name.startswith("again")]
    assert len(times) == 25
    assert sum(1 for x in times if x < times[0] + 60) <= 20


async def test_a_pump_drains_only_the_chats_with_work() -> None:
    """Hundreds of groups remembered for their budget's window cost a pump nothing: only
    the chat that got a new message (or whose wait ran out) is drained."""
    clock = FakeClock()
    sender = Sender(clock)
    log = Log(clock)
    for i in range(300):
        sender.post(GROUP - i, log.job(f"g{i}"))
    await sender.pump()
    assert len(log.calls) == 300 and sender.lanes() == 300  # each group's minute is on
    drained: list[int] = []
    drain = sender._drain

    async def counted(lane):  # type: ignore[no-untyped-def]
        drained.append(lane.chat)
        await drain(lane)

    sender._drain = counted  # type: ignore[method-assign]
    sender.post(GROUP - 7, log.job("again"))
    await sender.pump()
    assert drained == [GROUP - 7] and log.calls[-1][1] == "again"
    drained.clear()
    clock.advance(61)  # every window has emptied: nothing is due, the lanes are let go
    await sender.pump()
    assert drained == [] and sender.lanes() == 0
