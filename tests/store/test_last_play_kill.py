"""A worker killed at every stage of a hand's last play (issue #38, item 1).

Real ``gouji`` webhook workers (``tests.store.paused_worker``) play a one-hand match: one
human pressing the buttons of their hand message (every press to a random live worker,
delivered again until a worker answers it 200, as Telegram does) and five AI seats. The
worker that runs the stage below stops there and is SIGKILLed:

* ``hand_commit`` — the step that finishes the hand is written, not committed;
* ``hand_committed`` — just after that commit, before any of its messages is sent;
* ``draw`` — while the result picture is drawn (the outbox rows handed to the adapter);
* ``mark`` — the result picture is out (the platform answered), its mark not committed.

Then the match must end as if nothing happened: one finished hand stored, the result
picture, the "match over" text and the final table edit each delivered once (on
Telegram one duplicate is allowed in the ``mark`` window only: the Bot API has no
idempotency key), the human's hand message ending on the finished table's caption, and
no message left unsent.

On PostgreSQL two workers share the tables; the other one finishes (its relay takes the
dead worker's chats once their leases run out). On SQLite the one process (``solo``: it
sends through the outbox too) is started again on the same file, at every stage, and
finishes the same way: what the killed process owed is in the outbox, sent once.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import pytest

from adapters.telegram.views import private_caption
from bot.cluster.shell import shared_manager
from bot.i18n import t
from bot.store import Store
from bot.table import TableStatus
from tests.telegram.harness import op_of

from .webhook_cluster import CHAT, GROUP, HUMAN, Cluster

SETTINGS = {"match_hands": 1, "turn_seconds": 0}
# Buttons the scripted human presses, best first: pass, ready, a ready-made play, do not
# burn, then the steps of the play menu.
PREFERRED = ("x", "K", "g", "n", "W", "v", "z", "b", "r")
OVER = t("tg_cap_finished", "zh")
MATCH_OVER = t("match_over", "zh", a=0, b=0).split("：")[0]


async def play_out(c: Cluster) -> None:
    """Press the human's buttons until the group's table says the match is over."""
    pressed: dict[tuple[int, str, int], float] = {}
    while not match_over(c):
        msg = c.hand()
        ops = {op_of(d): d for _, d in msg.buttons()} if msg is not None else {}
        data = next((ops[op] for op in PREFERRED if op in ops), None)
        if msg is None or data is None:
            await asyncio.sleep(0.1)
            continue
        mark = (msg.message_id, data, id(msg.markup))
        if time.monotonic() - pressed.get(mark, -10.0) < 5.0:
            await asyncio.sleep(0.1)  # pressed already: wait for the keyboard to change
            continue
        pressed[mark] = time.monotonic()
        await c.route(c.api.fake.press(HUMAN, msg, data))


def match_over(c: Cluster) -> bool:
    try:
        caption = c.api.fake.last_photo(GROUP, "table.png").caption or ""
    except LookupError:
        return False
    return OVER in caption


async def kill_when_paused(c: Cluster, restart: bool) -> str:
    """SIGKILL the worker that stopped at the stage (started again on SQLite)."""
    while not (c.paused.exists() and c.paused.read_text()):
        await asyncio.sleep(0.05)
    name = c.paused.read_text()
    i = c.index(name)
    c.armed.unlink()
    c.kill(i)
    if restart:
        await c.start(i)
    return name


async def unsent(target: str) -> int:
    store = Store(target)
    await store.open()
    try:
        async with store.transaction(readonly=True) as tx:
            row = await tx.tx.fetchone(
                "SELECT count(*) FROM outbox WHERE state NOT IN ('sent', 'dropped')"
            )
    finally:
        await store.close()
    return int(row[0]) if row is not None else 0


async def settled(c: Cluster, shared: bool, limit: float = 120.0) -> None:
    """Until the match-over text is out and (with an outbox) nothing is left to send."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        texts = [x for call in c.api.fake.sends_to(GROUP) for x in call.texts()]
        if any(x.startswith(MATCH_OVER) for x in texts) and not (shared and await unsent(c.target)):
            await asyncio.sleep(2.0)  # an edit the last mark allowed is on its way
            return
        await asyncio.sleep(0.5)
    raise AssertionError("the match's last messages never went out")


async def final_caption(target: str) -> str | None:
    """The caption the finished table gives the human's hand message (None when the
    table's record cannot give the hand: one SQLite process keeps no deal of a table
    that ended)."""
    store = Store(target)
    await store.open()
    try:
        hands = await store.finished_hands(CHAT.group_key)
        assert len(hands) == 1  # the hand is stored once
        reader = shared_manager(store, worker="reader")
        await reader.refresh(CHAT.key)
        snap = reader.snapshot(CHAT.key)
        priv = reader.private_snapshot(CHAT.key, str(HUMAN["id"]))
        assert snap is not None and snap.status is TableStatus.FINISHED
        return None if priv is None else private_caption(priv, snap, priv.lang)
    finally:
        await store.close()


async def check_ends(c: Cluster, stage: str) -> None:
    calls = [x for x in c.api.fake.sends_to(GROUP) if x.error is None]
    posted = Counter(
        (x.method, tuple(x.texts()), tuple(x.upload_names()))
        for x in calls
        if x.method in ("sendMessage", "sendPhoto")
    )
    results = sum(n for (_, _, names), n in posted.items() if "result.png" in names)
    over = sum(n for (_, texts, _), n in posted.items() if any(MATCH_OVER in x for x in texts))
    finals = Counter(
        (x.method, tuple(x.texts()))
        for x in calls
        if x.method.startswith("edit") and any(OVER in text for text in x.texts())
    )
    twice = sum(n - 1 for n in posted.values()) + sum(n - 1 for n in finals.values())
    window = 1 if stage == "mark" else 0  # posted again by the next sender, at most once
    assert results - 1 <= window and results >= 1, posted
    assert over == 1 and finals, (over, finals)
    assert twice <= window, (posted, finals)
    hand = c.api.fake.last_photo(HUMAN["id"], "hand.png")
    want = await final_caption(c.target)
    if want is None:  # at least: the hand says it is over, and offers nothing to press
        assert (hand.caption or "").split("\n")[1] == t("tg_role_done", "zh"), hand.caption
        assert not {op_of(d) for _, d in hand.buttons()} & set(PREFERRED)
    else:
        assert hand.caption == want


STAGES = ["hand_commit", "hand_committed", "draw", "mark"]


@pytest.mark.parametrize("stage", STAGES)
async def test_a_worker_killed_at_any_stage_of_the_last_play_loses_and_repeats_nothing(
    store_target: str, tmp_path: Path, stage: str
) -> None:
    shared = store_target.startswith("postgres")
    c = Cluster(store_target, tmp_path)
    await c.open(["w0", "w1"] if shared else ["w0"], SETTINGS)
    try:
        for i in range(len(c.workers)):
            await c.start(i, pause_at=stage)
        for text in ("/gouji", "/addbot 5", "/begin"):
            await c.say(text, 0)
        c.armed.write_text("")
        killer = asyncio.create_task(kill_when_paused(c, restart=not shared))
        await asyncio.wait_for(play_out(c), 240)
        # The table may say "over" before the result picture is drawn, sent and marked.
        await asyncio.wait_for(killer, 60)
        await settled(c, shared)
        await check_ends(c, stage)
    finally:
        await c.close()
