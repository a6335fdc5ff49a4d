"""/gouji review, the 📝 button on a hand's result and the 💡 hint switch on Discord, end
to end against the fake gateway: the review and the hint are ephemeral (the asker only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.records.desk as desk_module
from bot.ai.review import ReviewConfig, review
from bot.engine.errors import ErrorCode, GoujiError
from bot.i18n import error_text, t
from bot.i18n.texts import wording
from bot.records import HandRecord
from bot.records.replay import replay
from bot.records.teacher import review_text
from bot.store import Store
from bot.table import FakeClock, GroupSettings, TableManager, TableStatus
from bot.table.settings import apply_setting_changes

from .conftest import ADMIN, ALICE, BOB, CHAT, Harness, running_bot, view_timers
from .driver import act_once, find, play_until
from .fake import FakeDiscord, Msg

QUICK = ReviewConfig(deals=3)


@pytest.fixture(autouse=True)
def quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk_module, "REVIEW_CONFIG", QUICK)


@pytest.fixture
async def stored(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
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


async def deal(h: Harness, **settings: object) -> None:
    h.settings(match_hands=1, turn_seconds=0, **settings)
    await h.slash(ADMIN, "new")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "join") or "")
    table = h.fake.table_message()
    await h.press(ALICE, table, find(table, "gj:t:", "start") or "")


async def expected_review(h: Harness) -> str:
    """Alice's review of hand #1, worked out here from the stored record."""
    assert h.manager.store is not None
    number, raw = (await h.manager.store.hands_from(CHAT.group_key, 1, 1))[0]
    rec = HandRecord.from_json(raw, number)
    seat = rec.seat_of(str(ALICE.id))
    assert seat is not None
    with wording("dc"):  # Discord's words (/gouji replay) where a shared text names Telegram's
        return review_text(review(replay(rec), seat, QUICK), number, rec.names, "zh")


def public_texts(h: Harness) -> list[str]:
    return [m.content for m in h.fake.channel_messages() if m.content]


def ephemeral_texts(h: Harness, user: int) -> list[str]:
    return [m.content for m in h.fake.private_messages(user) if m.place == "ephemeral"]


async def test_review_is_ephemeral_and_only_of_the_askers_own_seat(stored: Harness) -> None:
    h = stored
    await deal(h)
    await play_until(h, [ADMIN, ALICE], {TableStatus.BETWEEN, TableStatus.FINISHED})
    public_before = public_texts(h)
    payload = await h.slash(ALICE, "review", id=1)
    want = await expected_review(h)
    assert h.replies(payload) == [t("review_busy", number=1), want]
    assert want in ephemeral_texts(h, ALICE.id)
    assert public_texts(h) == public_before  # nothing of it in the channel
    stranger = await h.slash(BOB, "review")
    assert h.replies(stranger) == [t("review_not_yours", number=1)]
    missing = await h.slash(ALICE, "review", id=5)
    assert h.replies(missing) == [t("rec_no_such_hand", number=5)]

    result: Msg = next(m for m in h.fake.channel_messages() if "result.png" in m.files)
    review_id = next(
        c for c in result.custom_ids() if result.component(c).get("label") == "📝 复盘"
    )
    assert review_id.endswith(":v1")
    pressed = await h.press(ALICE, result, review_id)
    assert h.replies(pressed) == [want]  # at hand now: no "正在分析…"
    foreign = await h.press(BOB, result, review_id)
    assert h.replies(foreign) == [t("review_not_yours", number=1)]
    assert public_texts(h) == public_before


async def alice_turn(h: Harness) -> Msg:
    for _ in range(600):
        priv = h.manager.private_snapshot(CHAT.key, str(ALICE.id))
        if priv is not None and priv.role == "turn" and priv.legal:
            msg = h.fake.last_private(ALICE.id)
            assert msg is not None
            return msg
        if not await act_once(h, ADMIN) and not await act_once(h, ALICE):
            await h.tick(3.5)
    raise AssertionError("Alice never had a turn")


async def test_hints_are_off_by_default(stored: Harness) -> None:
    h = stored
    await deal(h)
    msg = await alice_turn(h)
    assert find(msg, "gj:a:", "hint") is None


async def test_a_hint_is_the_experts_choice_told_to_the_player_only(stored: Harness) -> None:
    h = stored
    await deal(h, hints=True)
    msg = await alice_turn(h)
    hint = find(msg, "gj:a:", "hint")
    assert hint is not None
    public_before = public_texts(h)
    pressed = await h.press(ALICE, msg, hint)
    (answer,) = h.replies(pressed)
    assert answer.startswith("💡 专家建议：")
    assert answer in ephemeral_texts(h, ALICE.id)
    assert public_texts(h) == public_before


def test_hints_are_locked_off_in_the_match_preset() -> None:
    on = apply_setting_changes(GroupSettings(), {"hints": True})
    assert on.hints_on
    with pytest.raises(GoujiError) as refused:
        apply_setting_changes(GroupSettings(preset="match"), {"hints": True})
    assert refused.value.code is ErrorCode.SETTING_LOCKED
    moved = apply_setting_changes(on, {"preset": "match"})
    assert not moved.hints and not moved.hints_on


async def test_the_settings_panel_turns_hints_on_and_match_refuses_them(harness: Harness) -> None:
    h = harness

    async def set_hints(value: str) -> list[str]:
        await h.slash(ADMIN, "settings")
        msg = h.fake.last_private(ADMIN.id, "ephemeral")
        assert msg is not None
        picker = find(msg, "gj:s:", "pick")
        assert picker is not None
        while "hints" not in [o["value"] for o in msg.component(picker)["options"]]:
            more = msg.component(picker)["options"][-1]["value"]
            await h.choose(ADMIN, msg, picker, more)
            msg = h.fake.last_private(ADMIN.id, "ephemeral")
            assert msg is not None
            picker = find(msg, "gj:s:", "pick")
            assert picker is not None
        await h.choose(ADMIN, msg, picker, "hints")
        msg = h.fake.last_private(ADMIN.id, "ephemeral")
        assert msg is not None
        menu = find(msg, "gj:s:", "val.hints")
        assert menu is not None
        return h.replies(await h.choose(ADMIN, msg, menu, value))

    await set_hints("b1")
    assert (await h.manager.group_settings(CHAT)).hints_on
    h.settings(preset="match")
    settings = await h.manager.group_settings(CHAT)
    assert not settings.hints and not settings.hints_on
    refused = await set_hints("b1")
    assert error_text("setting_locked", {"switch": "hints"}, "zh") in refused[-1]
    assert not (await h.manager.group_settings(CHAT)).hints
