"""Receipts through the Discord adapter (bot.cluster.receipts): a message handed over by
the outbox relay is acknowledged once its Discord call returned, not at the hand-off; a
call whose relay is no longer sure of its lease is not made; and a message created again
by another worker carries the same nonce, so Discord (enforce_nonce) returns the first
one instead of posting twice."""

from __future__ import annotations

from adapters.discord.pacing import ChannelWriter, Coalescer, call_nonce, channel_rules
from bot.cluster import receipts
from bot.table import FakeClock, TableManager
from bot.table.outputs import MatchOver

from .conftest import CHAT, SteppingTiming, running_bot
from .fake import FakeDiscord


def writer(timing: SteppingTiming) -> ChannelWriter:
    return ChannelWriter(1, channel_rules(timing), timing, edit_interval=2.0)


async def test_a_write_is_acknowledged_when_its_call_returned() -> None:
    timing = SteppingTiming()
    w = writer(timing)
    nonces: list[int] = []
    done_during_call: list[bool] = []

    async def post() -> int:
        done_during_call.append(receipt.done)
        nonces.append(call_nonce())
        return 1

    with receipts.collecting(receipts.Receipt(key="dc:1:2:#5.0")) as receipt:
        w.post(post)
    with receipts.collecting(receipts.Receipt(key="dc:1:2:#5.0")) as again:
        w.post(post)  # the same message sent again (by the next worker)
    with receipts.collecting(receipts.Receipt(key="dc:1:2:#5.1")) as other:
        w.post(post)
    w.post(post)  # not from the outbox
    assert w.task is not None
    await w.task
    assert done_during_call[0] is False  # not at the hand-off: once the call returned
    assert receipt.done and again.done and other.done
    assert nonces[0] == nonces[1] != nonces[2]
    assert nonces[3] not in nonces[:3]  # drawn at random
    assert all(0 <= n < 10**19 for n in nonces)  # at most 25 characters


async def test_no_call_once_the_lease_is_not_sure() -> None:
    timing = SteppingTiming()
    w = writer(timing)
    calls: list[str] = []
    sure = [True]

    async def post() -> int:
        calls.append("post")
        return 1

    async def edit() -> int:
        calls.append("edit")
        return 1

    async def private() -> None:
        calls.append("dm")

    dm = Coalescer(private, 0.5, timing)
    with receipts.collecting(receipts.Receipt(guard=lambda: sure[0])) as posted:
        w.post(post)
        w.touch(edit)
        sure[0] = False  # the renewal failed before the writer ran
        dm.poke()
    assert w.task is not None and dm.task is not None
    await w.task
    await dm.task
    assert calls == [] and posted.abandoned and not posted.done


async def test_a_message_created_twice_is_posted_once(fake: FakeDiscord) -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 7)
    async with running_bot(manager) as bot:
        over = MatchOver(CHAT.key, (3, 1), 4, False)
        first = receipts.Receipt(key=f"{CHAT.key}#9.0")
        with receipts.collecting(first):
            await bot.sender.on_out(over)
        await bot.sender.drain()
        # The worker died before marking it sent: the next one sends the same message.
        second = receipts.Receipt(key=f"{CHAT.key}#9.0")
        with receipts.collecting(second):
            await bot.sender.on_out(over)
        await bot.sender.drain()
        assert first.done and second.done
    posts = [c for c in fake.calls if c.method == "POST" and c.path.endswith("/messages")]
    assert len(posts) == 2 and posts[0].payload["nonce"] == posts[1].payload["nonce"]
    assert posts[0].payload["enforce_nonce"] is True
    assert len(fake.channel_messages()) == 1
