"""A press is answered, to the player and to Telegram, only once its effect is committed
(issue #38, item 2).

A real ``gouji`` webhook worker takes a play and is SIGKILLed inside that play's commit
(``commit``: written, not committed) or just after it (``committed``). Neither the
player's "好的" nor Telegram's 200 went out, so Telegram delivers the update again — here
to another worker on PostgreSQL, to the same worker started again on SQLite — and the
play takes effect exactly once: played by the second delivery when the first did not
commit it, refused as already played when it did.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from tests.telegram.harness import op_of

from .webhook_cluster import HUMAN, OK_TEXTS, Cluster

SETTINGS = {"match_hands": 1, "turn_seconds": 0}


async def wait_for_turn(c: Cluster, deliver_to: int) -> dict[str, Any]:
    """Press "ready" while the hand asks for it, until the human may pass or play; the
    update of that press (a pass, or the cheapest play)."""
    fake = c.api.fake
    for _ in range(600):
        msg = c.hand()
        shown = msg.buttons() if msg is not None else []
        buttons = {op_of(d): d for _, d in shown}
        play = next((d for text, d in shown if text.startswith("⚡")), None)
        if msg is not None and ("x" in buttons or play is not None):
            return fake.press(HUMAN, msg, buttons.get("x") or play or "")
        if msg is not None and "K" in buttons:
            update = fake.press(HUMAN, msg, buttons["K"])
            assert await c.deliver(update, deliver_to) == 200
            assert c.answers_to(update)  # answered before the 200
        await asyncio.sleep(0.05)
    raise AssertionError("the human's turn never came")


@pytest.mark.parametrize("point", ["commit", "committed"])
async def test_a_press_whose_worker_dies_before_its_answer_counts_once(
    store_target: str, tmp_path: Path, point: str
) -> None:
    shared = store_target.startswith("postgres")
    c = Cluster(store_target, tmp_path)
    await c.open(["w0", "w1"] if shared else ["w0"], SETTINGS)
    try:
        await c.start(0, pause_at=point)
        if shared:
            await c.start(1)
        other = 1 if shared else 0  # who gets the update again
        for text in ("/gouji", "/addbot 5", "/begin"):
            await c.say(text, other)
        press = await wait_for_turn(c, other)
        before = await c.human_actions()

        c.armed.write_text("")
        first = asyncio.create_task(c.deliver(press, 0))
        for _ in range(600):
            if c.paused.exists() or first.done():
                break
            await asyncio.sleep(0.05)
        assert c.paused.exists() and c.paused.read_text() == "w0", c.log_of(0)
        # Stopped inside the commit: no answer to the player, none to Telegram.
        assert not first.done() and c.answers_to(press) == []
        c.armed.unlink()
        c.kill(0)
        assert await first is None  # the connection died: Telegram will deliver it again
        assert await c.human_actions() == before + (point == "committed")
        assert c.answers_to(press) == []

        if not shared:
            await c.start(0)  # the same worker, on the same file
        assert await c.deliver(press, other) == 200
        (answer,) = c.answers_to(press)
        if point == "commit":
            assert answer in OK_TEXTS  # played now, by the second delivery
        else:
            assert answer in (t("already_played", "zh"), t("stale", "zh"))
        assert await c.human_actions() == before + 1  # played once
    finally:
        await c.close()
