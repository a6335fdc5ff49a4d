"""Receipts through the Telegram Sender: a message handed over by the outbox relay is
acknowledged only once its call has returned — not when it is queued, not when the call
is refused with 429 (it will be made again), and a coalesced edit settles every touch
made before it ran. A call whose relay is no longer sure of its lease is not made."""

from __future__ import annotations

import datetime as dtm
import warnings

from telegram.error import RetryAfter

from adapters.pacing import BudgetMemory
from adapters.telegram.sender import Sender, _retry_seconds
from bot.cluster import receipts
from bot.table import FakeClock

GROUP = -100


def job(calls: list[str], name: str, fail: list[Exception] | None = None):  # type: ignore[no-untyped-def]
    async def run() -> bool:
        calls.append(name)
        if fail:
            raise fail.pop()
        return True

    return run


async def test_a_posted_message_is_acknowledged_after_its_call() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    with receipts.collecting(receipts.Receipt()) as receipt:
        sender.post(GROUP, job(calls, "result"), urgent=True)
    assert not receipt.done and calls == []  # queued is not sent
    await sender.pump()
    assert calls == ["result"] and receipt.done


async def test_a_refused_call_stays_unacknowledged_until_it_is_made() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    with receipts.collecting(receipts.Receipt()) as receipt:
        sender.post(GROUP, job(calls, "result", [RetryAfter(dtm.timedelta(seconds=5))]))
    await sender.pump()
    assert calls == ["result"] and not receipt.done  # 429: it goes again
    clock.advance(6)
    await sender.pump()
    assert calls == ["result", "result"] and receipt.done


async def test_a_coalesced_edit_settles_every_touch_before_it_ran() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    with receipts.collecting(receipts.Receipt()) as first:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    with receipts.collecting(receipts.Receipt()) as second:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    await sender.pump()
    assert calls == ["edit"] and first.done and second.done
    with receipts.collecting(receipts.Receipt()) as third:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    await sender.pump()
    assert not third.done  # paced: the next edit runs 3 s later
    clock.advance(3.5)
    await sender.pump()
    assert calls == ["edit", "edit"] and third.done


async def test_taking_a_chat_over_recalls_the_budget_others_spent() -> None:
    clock = FakeClock()

    class Shared(BudgetMemory):
        def __init__(self) -> None:
            self.times: list[float] = []

        def load(self, chat: object) -> list[float]:
            return list(self.times)

        def load_edits(self, chat: object) -> list[float]:
            return []

        async def save(self, chat: object, times: object, edits: object) -> None:
            return None

    memory = Shared()
    sender = Sender(clock, memory=memory, wall=clock.now)
    assert sender.calls_in_window(GROUP) == 0
    memory.times = [clock.now() - 1.0] * 5  # another worker's calls
    assert sender.calls_in_window(GROUP) == 0  # this worker's own count
    sender.recall_chat(f"tg:{GROUP}:7")  # a topic's lease key names its group
    memory.times = []  # an older copy put back later (a table's reload) is not read
    assert sender.calls_in_window(GROUP) == 5
    sender.recall_chat("dc:1:2")  # another platform's chat: nothing of this budget
    assert sender.calls_in_window(GROUP) == 5


async def test_a_call_is_not_made_once_its_lease_is_not_sure() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    sure = [True]
    lease = receipts.Receipt(guard=lambda: sure[0])
    with receipts.collecting(lease) as posted:
        sender.post(GROUP, job(calls, "result"))
    with receipts.collecting(receipts.Receipt(guard=lambda: sure[0])) as edited:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    with receipts.collecting(receipts.Receipt()) as other:
        sender.post(-200, job(calls, "elsewhere"))
    sure[0] = False  # the renewal failed or came too late
    await sender.pump()
    assert calls == ["elsewhere"] and other.done
    assert posted.abandoned and not posted.done  # the message stays for the next sender
    assert edited.abandoned and not edited.done
    assert await posted.wait(0.0)  # nothing left to wait for


async def test_an_edit_touched_under_a_live_lease_still_goes() -> None:
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    with receipts.collecting(receipts.Receipt(guard=lambda: False)) as lost:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    with receipts.collecting(receipts.Receipt()) as kept:
        sender.touch(GROUP, "table", job(calls, "edit"), interval=3.0)
    await sender.pump()
    assert calls == ["edit"] and kept.done and lost.abandoned


async def test_what_a_call_queues_in_turn_goes_only_under_the_same_lease() -> None:
    """A repost deletes the message it replaced, a table message someone deleted is posted
    again: calls a job queues while it runs. They were made whoever held the chat by
    then (a second sender); now they are fenced by the lease of the call that queued them.
    A call no relay handed over queues its follow-up unfenced, as before."""
    clock = FakeClock()
    sender = Sender(clock)
    calls: list[str] = []
    sure = [True]

    def then(chat: int, name: str, lapse: bool = False):  # type: ignore[no-untyped-def]
        async def run() -> bool:
            calls.append(name)
            sender.post(chat, job(calls, f"{name}: follow-up"))
            if lapse:
                sure[0] = False  # the lease lapses before the follow-up's turn
            return True

        return run

    with receipts.collecting(receipts.Receipt(guard=lambda: sure[0])) as handed:
        sender.post(GROUP, then(GROUP, "repost"), urgent=True)
    await sender.pump()
    await sender.pump()
    assert calls == ["repost", "repost: follow-up"] and handed.done
    calls.clear()
    with receipts.collecting(receipts.Receipt(guard=lambda: sure[0])) as lapsed:
        sender.post(-300, then(-300, "edit", lapse=True))
    await sender.pump()
    await sender.pump()
    assert calls == ["edit"] and lapsed.done  # its own call went out; the follow-up not
    calls.clear()
    sender.post(-400, then(-400, "direct"))  # no relay: nothing to fence by
    await sender.pump()
    await sender.pump()
    assert calls == ["direct", "direct: follow-up"]


def test_a_flood_answer_is_read_without_deprecation_warnings() -> None:
    """PTB 22 warns on every int read of ``retry_after`` (its own constructor reads it);
    the adapter opts in to timedelta periods (adapters/telegram/__init__.py), so a 429
    logs no deprecation."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _retry_seconds(RetryAfter(7)) == 7.0
        assert _retry_seconds(RetryAfter(dtm.timedelta(seconds=2.5))) == 2.5
