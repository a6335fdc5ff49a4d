"""/gouji replay, history and why on Discord: a hand is played, then watched trick by trick."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine.replay import run_scenario
from bot.i18n import t
from bot.store import Store
from bot.table import FakeClock, TableManager, TableStatus

from .conftest import ADMIN, ALICE, BOB, CHAT, Harness, running_bot, view_timers
from .driver import find, play_until
from .fake import FakeDiscord, Msg


@pytest.fixture
async def stored(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """The usual harness, with a store so finished hands are recorded."""
    store = Store(tmp_path / "dc.sqlite3")
    await store.open()
    clock = FakeClock()
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    async with running_bot(manager) as bot:
        h = Harness(fake, manager, clock, bot)
        yield h
        await h.settle()
        for task in view_timers():
            task.cancel()
    await store.close()
    assert all(token.responded for token in fake.tokens.values())


async def play_one_hand(h: Harness, hands: int = 1) -> None:
    h.settings(match_hands=hands, turn_seconds=0)
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "join") or "")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "start") or "")
    await play_until(h, [ADMIN, ALICE], {TableStatus.BETWEEN, TableStatus.FINISHED})


def stepper(h: Harness) -> Msg:
    found = [m for m in h.fake.channel_messages() if "replay.png" in m.files]
    assert found, "no stepper message"
    return found[-1]


def button(msg: Msg, label: str) -> str:
    for cid in msg.custom_ids():
        if msg.component(cid).get("label") == label:
            return cid
    raise KeyError(label)


def replies(h: Harness, payload: dict[str, Any]) -> list[str]:
    return h.replies(payload)


async def test_replay_posts_the_file_and_a_stepper_edited_in_place(stored: Harness) -> None:
    h = stored
    await play_one_hand(h)
    payload = await h.slash(BOB, "history")
    assert "#1" in replies(h, payload)[-1]

    await h.slash(ALICE, "replay", id=1)
    channel = h.fake.channel_messages()
    summary = next(m for m in channel if "gouji-1.json" in m.files)
    assert summary.content.startswith("牌局 #1") and "名次" in summary.content
    (data,) = h.fake.attachments("gouji-1.json")
    final = dict(run_scenario(json.loads(data))[-1]["final"])
    final.pop("match_scores")
    raw = (await h.manager.store.hands_from(CHAT.group_key, 1, 1))[0][1]  # type: ignore[union-attr]
    assert final == raw["final"]

    msg = stepper(h)
    first = msg.id
    assert msg.content.startswith("#1 ·") and "◀" not in [
        msg.component(c).get("label") for c in msg.custom_ids()
    ]
    await h.press(ALICE, msg, button(msg, "▶"))
    await h.press(ALICE, stepper(h), button(stepper(h), "▶"))
    await h.press(ALICE, stepper(h), button(stepper(h), "◀"))
    msg = stepper(h)
    assert (
        msg.id == first
        and len([m for m in h.fake.channel_messages() if "replay.png" in m.files]) == 1
    )
    assert "/gouji why 1 1" in msg.content
    assert len(msg.versions) == 4  # posted once, edited three times


async def test_stale_and_foreign_presses_are_refused(stored: Harness) -> None:
    h = stored
    await play_one_hand(h)
    await h.slash(ALICE, "replay")
    msg = stepper(h)
    old = button(msg, "▶")
    before = copy.deepcopy(msg)  # a client still showing the first view
    foreign = await h.press(BOB, msg, old)
    assert replies(h, foreign)[-1] == t("dc_rec_not_yours")
    await h.press(ALICE, msg, old)
    stale = await h.press(ALICE, before, old)  # the button of the view before the move
    assert replies(h, stale)[-1] == t("dc_rec_stale")
    assert len(stepper(h).versions) == 2


async def test_a_hand_in_play_is_refused_and_why_answers(stored: Harness) -> None:
    h = stored
    await play_one_hand(h, hands=2)
    await h.tick(15)  # the next hand is dealt
    assert h.manager.snapshot(CHAT.key).status is TableStatus.PLAYING  # type: ignore[union-attr]
    refused = await h.slash(BOB, "replay", id=2)
    assert replies(h, refused)[-1] == t("rec_in_play")
    answer = await h.slash(BOB, "why", id=1, step=1)
    assert replies(h, answer)[-1].startswith("第 1 轮为什么结束")
    nothing = await h.slash(BOB, "replay", id=7)
    assert replies(h, nothing)[-1] == t("rec_no_such_hand", number=7)


TELEGRAM_WORDS = re.compile(
    r"本群|(?<!gouji )/(replay|why|join|addbot|removebot|count|settings|begin|leave|help|stats)\b"
    r"|/gouji(?! [a-z])"
)


def shown_texts(h: Harness) -> list[str]:
    """Every text the bot sent to Discord: message contents, embeds, replies."""
    texts = []
    for call in h.fake.calls:
        payload = call.payload if isinstance(call.payload, dict) else {}
        data = payload.get("data") if isinstance(payload.get("data"), dict) else payload
        for field_ in ("content",):
            value = data.get(field_)
            if isinstance(value, str):
                texts.append(value)
    return texts


async def test_every_text_on_discord_names_discords_commands(stored: Harness) -> None:
    h = stored
    await play_one_hand(h, hands=2)
    await h.slash(ALICE, "history")
    await h.slash(ALICE, "replay")
    msg = stepper(h)
    await h.press(BOB, msg, button(msg, "▶"))  # someone else's replay
    await h.slash(BOB, "why", id=1, step=1, seat=2)  # a seat without cards
    await h.slash(BOB, "replay", id=0)
    await h.slash(BOB, "stop")  # not the creator
    await h.slash(ADMIN, "new")  # the table again
    await h.tick(15)
    texts = shown_texts(h)
    assert any("/gouji replay" in x for x in texts), texts
    wrong = [x for x in texts if TELEGRAM_WORDS.search(x)]
    assert not wrong, wrong
