"""Six users, a group, the real PTB Application on the fake Bot API: a whole hand by buttons."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from adapters.telegram.views import table_caption
from bot.i18n import t
from bot.table import TableStatus

from ..live import live
from .harness import GROUP_ID, USERS, Driver, FakeRenderer, Harness, max_per_minute, op_of

HAND_LINE = re.compile(r"^(?:手牌|Hand) ?[（(]\d+[）)][：:] ?(.+)$", re.M)


def hand_dumps(h: Harness) -> set[str]:
    """Every hand listing the bot sent privately (the card text after 手牌（n）：)."""
    dumps = set()
    for call in h.fake.calls:
        if call.chat_id is None or call.chat_id < 0:
            continue
        for text in call.texts():
            dumps.update(m.group(0) for m in HAND_LINE.finditer(text))
            dumps.update(m.group(1) for m in HAND_LINE.finditer(text) if len(m.group(1)) >= 8)
    return dumps


async def seat_six(h: Harness) -> None:
    """老王 opens; three join; 李四 joins through the deep link after a 403; 王五 through the
    [加入] button's link; 张三 leaves so an AI fills the seat at the start; the admin sets
    the turn timer first."""
    wang, li, alice, zhang, lisi, wangwu = USERS
    for u in (wang, li, alice, zhang):
        h.fake.opened.add(u["id"])
    await h.say(wang, "/gouji")
    for u in (li, alice, zhang):
        await h.say(u, "/join")
    table = live(h.manager, h.key)
    assert table is not None and len(table.humans()) == 4

    # 李四 never opened the bot: the DM fails with 403 and the group gets a deep link.
    await h.say(lisi, "/join")
    link_msg = h.fake.in_chat(GROUP_ID)[-1]
    assert "李四" in (link_msg.text or "")
    ((_, url),) = link_msg.buttons()
    assert url.startswith("https://t.me/gouji_test_bot?start=j_")
    payload = url.split("start=", 1)[1]
    await h.feed(h.fake.start(lisi, payload))
    await h.drain()
    assert any(
        "5" in (m.text or "") or "入座" in (m.text or "") for m in h.fake.in_chat(lisi["id"])
    )

    # 王五 presses [加入]: the answer opens the bot with the join payload.
    answer = await h.press(
        wangwu, h.table_message(), h.table_message().button(lambda t_, d: d.endswith(":j"))
    )
    assert answer["url"].startswith("https://t.me/gouji_test_bot?start=j_")
    await h.feed(h.fake.start(wangwu, answer["url"].split("start=", 1)[1]))
    assert len(table.humans()) == 6

    await h.say(zhang, "/leave")
    assert len(table.humans()) == 5

    # The admin sets a 60-second turn timer from the menu; a non-admin's press is refused.
    await h.say(wang, "/settings")
    await h.drain()
    menu = h.fake.in_chat(wang["id"])[-1]
    refused = await h.press(li, menu, "s:T")
    assert refused["text"] == t("not_admin")
    await h.press(wang, menu, "s:T")
    saved = await h.press(wang, menu, "s:t:60")
    assert saved["text"] == t("settings_saved")
    start = h.table_message().button(lambda t_, d: d.endswith(":s"))
    answer = await h.press(wang, h.table_message(), start)
    assert answer["text"] == t("started")
    assert table.status is TableStatus.PLAYING
    assert sum(1 for s in table.seats if s is not None and s.is_ai) == 1
    assert table.turn_seconds == 60


async def test_whole_hand_by_buttons(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    h = await Harness(tmp_path).open()
    wang, li, alice, _zhang, lisi, wangwu = USERS
    await seat_six(h)
    humans = [wang, li, alice, lisi, wangwu]
    await h.drain()

    # Every seated human has a hand message with a keyboard; keep one for a stale press.
    old_msg = h.hand_message(alice)
    old_data = next(d for _, d in old_msg.buttons() if op_of(d) == "t")  # any versioned op
    old_data = old_data.rsplit(":", 2)[0] + ":x"  # 过 at the version of the deal

    driver = Driver(h, humans)
    for _ in range(30):
        await driver.step()
        await h.tick(1.0)
    snap = h.manager.snapshot(h.key)
    assert snap is not None and snap.public is not None

    # 报户 by command and by the table's button; answers go to the group as messages.
    before = len(h.fake.sends_to(GROUP_ID))
    await h.say(alice, "/count 2")
    press = h.table_message().button(lambda t_, d: d.endswith(":c:3"))
    await h.press(li, h.table_message(), press)

    def asks() -> int:
        sent = [c for c in h.fake.sends_to(GROUP_ID)[before:] if c.method == "sendMessage"]
        return sum("报户" in c.params["text"] for c in sent)

    # Play on while the answers wait for the group's budget.
    for _ in range(60):
        if asks() == 2:
            break
        await driver.step()
        await h.tick(1.0)
    assert asks() == 2

    # A stale button: answered "out of date", nothing changes.
    version = h.manager.tables[h.key].version
    hands = h.manager.tables[h.key].state.hands  # type: ignore[union-attr]
    answer = await h.press(alice, old_msg, old_data)
    assert answer["text"] == t("stale")
    assert h.manager.tables[h.key].version == version
    assert h.manager.tables[h.key].state.hands == hands  # type: ignore[union-attr]

    await driver.play_hand()
    await h.drain()
    assert driver.navigated > 0, "the rank → (size →) play path was used"
    assert not h.errors, h.errors
    notices = " ".join(h.group_texts())
    assert "超时" not in notices, "every human acted through the buttons in time"

    # The result image reached the group; the table message shows the latest state.
    results = [c for c in h.fake.sends_to(GROUP_ID) if "result.png" in c.upload_names()]
    assert len(results) == 1
    snap = h.manager.snapshot(h.key)
    assert snap is not None and snap.status is TableStatus.BETWEEN
    table_msg = h.table_message()
    assert table_msg.photo == FakeRenderer().table(snap)
    notices_kept = list(h.bot.ctx.notices.get(h.key) or ())
    assert table_msg.caption == table_caption(snap, notices_kept, "zh")

    # Privacy: group messages carry only table/result images and never a private hand.
    group_calls = h.fake.sends_to(GROUP_ID)
    uploads = {name for c in group_calls for name in c.upload_names()}
    assert uploads <= {"table.png", "result.png"}
    private_uploads = {n for c in h.fake.calls if (c.chat_id or 0) > 0 for n in c.upload_names()}
    assert private_uploads == {"hand.png"}
    dumps = hand_dumps(h)
    assert len(dumps) > 10
    group_text = "\n".join(h.group_texts())
    leaks = [d for d in dumps if d in group_text]
    assert not leaks, leaks
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert not [d for d in dumps if d in logged]

    # Traffic: never more than 20 sends and edits to the group in any minute.
    assert max_per_minute(group_calls) <= 20
    await h.close()
