"""/replay, /history and /why on Telegram: a hand is played, then watched trick by trick."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from bot.engine.replay import run_scenario
from bot.i18n import t
from bot.records.steps import Frame

from .fakeapi import Message
from .harness import GROUP_ID, USERS, Driver, Harness, max_per_minute

wang, li, alice, zhang, lisi, wangwu = USERS


def fake_image(
    frame: Frame, names: Sequence[str], hand_no: int, at: tuple[int, int], lang: str
) -> bytes:
    return f"replay:{hand_no}:{at[0]}:{lang}".encode()


async def played_hand(tmp_path: Path) -> Harness:
    h = await Harness(tmp_path).open()
    h.bot.records.image = fake_image
    h.fake.opened.add(wang["id"])
    await h.say(wang, "/gouji")
    await h.say(wang, "/addbot 5")
    await h.say(wang, "/begin")
    await Driver(h, [wang]).play_hand()
    await h.drain()
    return h


def stepper(h: Harness) -> Message:
    return h.fake.last_photo(GROUP_ID, "replay.png")


def data_of(msg: Message, label: str) -> str:
    return msg.button(lambda text, _: text == label)


async def test_replay_posts_summary_file_and_a_stepper_that_edits_in_place(
    tmp_path: Path,
) -> None:
    h = await played_hand(tmp_path)
    await h.say(li, "/history")
    await h.drain()
    history = [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1]
    assert history is not None and "#1" in history and "头科" in history

    await h.say(wang, "/replay 1")
    await h.drain()
    texts = [m.text or "" for m in h.fake.in_chat(GROUP_ID)]
    assert any(text.startswith("牌局 #1") and "名次" in text for text in texts)
    doc = next(m for m in h.fake.in_chat(GROUP_ID) if m.document_name == "gouji-1.json")
    assert doc.document is not None
    scenario = json.loads(doc.document)
    record = (await h.store.hands_from(f"tg:{GROUP_ID}", 1, 1))[0][1]  # type: ignore[union-attr]
    final = dict(run_scenario(scenario)[-1]["final"])
    final.pop("match_scores")
    assert final == record["final"]

    msg = stepper(h)
    assert msg.photo == b"replay:1:0:zh" and "◀" not in [b for b, _ in msg.buttons()]
    first_id = msg.message_id
    await h.press(wang, msg, data_of(msg, "▶"))
    await h.drain()
    msg = stepper(h)
    assert msg.message_id == first_id and msg.photo == b"replay:1:1:zh"
    await h.press(wang, msg, data_of(msg, "▶"))
    await h.drain()
    await h.press(wang, stepper(h), data_of(stepper(h), "◀"))
    await h.drain()
    msg = stepper(h)
    assert msg.message_id == first_id and msg.photo == b"replay:1:1:zh"
    assert "/why 1 1" in (msg.caption or "")
    assert len([m for m in h.fake.in_chat(GROUP_ID) if m.photo_name == "replay.png"]) == 1
    assert max_per_minute(h.fake.sends_to(GROUP_ID)) <= 20
    assert not h.errors
    await h.close()


async def test_stale_and_foreign_presses_are_refused(tmp_path: Path) -> None:
    h = await played_hand(tmp_path)
    await h.say(wang, "/replay")
    await h.drain()
    msg = stepper(h)
    old_next = data_of(msg, "▶")
    foreign = await h.press(li, msg, old_next)
    assert foreign["text"] == t("rec_not_yours")
    await h.press(wang, msg, old_next)
    await h.drain()
    stale = await h.press(wang, msg, old_next)  # the button of the view before the move
    assert stale["text"] == t("rec_stale")
    forged = await h.press(wang, stepper(h), "r:1:x:2")
    assert forged["text"] == t("tg_bad_button")
    assert stepper(h).photo == b"replay:1:1:zh"
    await h.close()


async def test_a_hand_in_play_is_refused_and_why_answers(tmp_path: Path) -> None:
    h = await played_hand(tmp_path)
    # The next hand starts: its record does not exist yet and is not shown.
    await h.tick(15)
    await h.drain()
    assert h.manager.snapshot(h.key).status.value == "playing"  # type: ignore[union-attr]
    await h.say(li, "/replay 2")
    await h.drain()
    last = [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1]
    assert last == t("rec_in_play")
    for bad in ("/replay abc", "/replay ²", "/review ²", "/replay 1 2"):
        await h.say(li, bad)  # "²".isdigit() is true, but int("²") fails
        await h.drain()
        assert [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1] == t("rec_bad_id"), bad

    await h.say(wang, "/why 1 1")
    await h.drain()
    answer = [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1]
    assert answer is not None and answer.startswith("第 1 轮为什么结束") and "§" in answer
    await h.say(wang, "/why")
    await h.drain()
    assert [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1] == t("why_usage")
    assert not h.errors
    await h.close()


def test_replay_payloads_round_trip_and_bad_ones_are_refused() -> None:
    import pytest

    from adapters.telegram.callback import BadPayload, ReplayPress, decode, encode

    press = ReplayPress(123456, 40, 41)
    assert decode(encode(press)) == press
    for bad in ("r:1:2", "r:1:2:3:4", "r:-1:0:1", "r:1:a:1", "r::0:1", "r:1:0:" + "9" * 10):
        with pytest.raises(BadPayload):
            decode(bad)


async def test_why_as_a_reply_to_the_stepper_and_to_the_table(tmp_path: Path) -> None:
    h = await played_hand(tmp_path)

    async def why_replying_to(msg: Message) -> str:
        update = h.fake.command(li, h.group, "/why")
        update["message"]["reply_to_message"] = msg.to_dict()
        await h.feed(update)
        await h.drain()
        text = [m.text for m in h.fake.in_chat(GROUP_ID) if m.text][-1]
        assert text is not None
        return text

    # Between hands the table message answers with the last hand's tributes and why.
    assert h.manager.snapshot(h.key).status.value == "between"  # type: ignore[union-attr]
    assert (await why_replying_to(h.table_message())).startswith(t("rec_owes_next"))
    await h.say(wang, "/replay 1")
    await h.drain()
    await h.press(wang, stepper(h), data_of(stepper(h), "▶"))
    await h.drain()
    assert (await why_replying_to(stepper(h))).startswith("第 1 轮为什么结束")
    # Once the next hand is dealt, the table message is a hand in play: refused.
    await h.tick(15)
    await h.drain()
    assert h.manager.snapshot(h.key).status.value == "playing"  # type: ignore[union-attr]
    assert await why_replying_to(h.table_message()) == t("rec_in_play")
    assert not h.errors
    await h.close()
