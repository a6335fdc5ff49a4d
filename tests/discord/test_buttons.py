"""Buttons that must be refused politely: stale, someone else's, mangled, foreign; and
buttons that must survive a restart."""

from __future__ import annotations

import copy
import logging

import pytest

from bot.engine.actions import ActionKind
from bot.i18n import t

from .conftest import ADMIN, ALICE, BOB, CHAT, Harness, running_bot
from .driver import act_once, find
from .fake import CHANNEL_ID, Msg

STALE = "这个按钮已经过期了，请用最新的消息操作。"
NOT_YOURS = "这不是你的座位：这些按钮只有本人能用。"
UNKNOWN = "这个按钮认不出来了，请用最新的消息。"


async def admin_answering(h: Harness) -> Msg:
    """Play on until the admin must answer a play (so pass is on offer)."""
    for _ in range(500):
        priv = h.manager.private_snapshot(CHAT.key, str(ADMIN.id))
        if priv and priv.role == "turn" and any(a.kind is ActionKind.PASS for a in priv.legal):
            msg = h.fake.last_private(ADMIN.id)
            assert msg is not None
            return msg
        if not await act_once(h, ADMIN):
            await h.tick(3.5)
    raise AssertionError("never had to answer")


async def start(h: Harness) -> None:
    h.settings(turn_seconds=0, match_hands=1)
    await h.slash(ADMIN, "new")
    await h.slash(BOB, "join")
    await h.slash(ADMIN, "start")


async def test_a_stale_button_is_refused_and_the_view_refreshed(harness: Harness) -> None:
    h = harness
    await start(h)
    msg = await admin_answering(h)
    old = copy.deepcopy(msg)
    passing = find(old, "gj:a:", "pass")
    assert passing is not None
    await h.press(ADMIN, msg, passing)  # the real press: the table moves on
    version = h.manager.snapshot(CHAT.key).version  # type: ignore[union-attr]
    # The same button again is a double tap: told politely that it went through.
    p = await h.press(ADMIN, old, passing)
    assert h.replies(p)[-1] == t("already_played")
    assert h.manager.snapshot(CHAT.key).version == version  # type: ignore[union-attr]
    # A menu from the old view is out of date: refused, and the view refreshed.
    menu = find(old, "gj:m:", "r")
    if menu is not None:
        p = await h.choose(ADMIN, old, menu, str(old.component(menu)["options"][0]["value"]))
        assert h.replies(p)[-1] == STALE


async def test_someone_elses_controls_are_refused(harness: Harness) -> None:
    h = harness
    await start(h)
    msg = await admin_answering(h)
    version = h.manager.snapshot(CHAT.key).version  # type: ignore[union-attr]
    # Pretend the admin's private controls were seen by others (they never are).
    leaked = copy.deepcopy(msg)
    leaked.place, leaked.user, leaked.channel_id = "channel", None, CHANNEL_ID
    passing = find(leaked, "gj:a:", "pass")
    assert passing is not None
    for intruder in (BOB, ALICE):  # seated elsewhere, and not seated at all
        p = await h.press(intruder, leaked, passing)
        assert h.replies(p) == [NOT_YOURS]
    assert h.manager.snapshot(CHAT.key).version == version  # type: ignore[union-attr]


async def test_mangled_and_foreign_ids(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    h = harness
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    join = find(table, "gj:t:", "join")
    assert join is not None
    ref = join.split(":")[2]
    bad = Msg(1, CHANNEL_ID, "channel", None)
    bad.apply(
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "x", "custom_id": cid}
                        for cid in ("gj:t:zzz", f"gj:t:{ref}:1:explode", "foo:bar")
                    ],
                }
            ]
        },
        [],
    )
    h.fake.messages[bad.id] = bad
    caplog.set_level(logging.WARNING)
    for cid in bad.custom_ids():
        p = await h.press(ALICE, bad, cid)
        assert h.replies(p) == [UNKNOWN]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    assert not any("explode" in r.getMessage() for r in warnings)
    assert h.manager.snapshot(CHAT.key).seats[1] is None  # type: ignore[union-attr]


async def test_buttons_work_after_a_restart(harness: Harness) -> None:
    h = harness
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    join = find(table, "gj:t:", "join")
    assert join is not None
    async with running_bot(h.manager) as fresh:
        h.bot = fresh
        p = await h.press(ALICE, table, join)
        assert h.replies(p)[0].startswith("入座成功")
        assert "阿丽" in h.fake.table_message().content
