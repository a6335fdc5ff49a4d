"""The group setting ``ai_level``: validated, stored, and the level each table's AI plays."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.ai import HeuristicPolicy, NormalPolicy
from bot.ai.chong import pure_plays
from bot.ai.expert import ExpertPolicy
from bot.engine import Action, ActionKind
from bot.engine.errors import GoujiError
from bot.engine.views import SeatView
from bot.table import (
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    OpenTable,
    Start,
    TableManager,
    TableStatus,
    apply_setting_changes,
)

CHAT = ChatRef("test", "levels")
ME = Actor("admin", "管理员", is_admin=True)


def test_ai_level_is_a_validated_stored_setting() -> None:
    assert GroupSettings().ai_level == "normal"
    s = apply_setting_changes(GroupSettings(), {"ai_level": "expert"})
    assert s.ai_level == "expert"
    assert GroupSettings.from_json(s.to_json()).ai_level == "expert"
    with pytest.raises(GoujiError):
        apply_setting_changes(GroupSettings(), {"ai_level": "grandmaster"})
    # A stored value that is no longer a level falls back to the default.
    assert GroupSettings.from_json({"ai_level": "godlike"}).ai_level == "normal"


async def _open(m: TableManager, **changes: object) -> GroupSettings:
    s = apply_setting_changes(GroupSettings(), {"match_hands": 1, "turn_seconds": 0, **changes})
    m.use_settings(CHAT, s)
    await m.handle(OpenTable(chat=CHAT, actor=ME, sit=False))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=6))
    return s


@pytest.mark.parametrize(
    ("level", "kind"),
    [("easy", HeuristicPolicy), ("normal", NormalPolicy), ("expert", ExpertPolicy)],
)
async def test_each_group_plays_its_level(level: str, kind: type) -> None:
    m = TableManager(clock=FakeClock(), seed_source=lambda: 5)
    settings = await _open(m, ai_level=level)
    assert isinstance(m.policy_of(settings), kind)


async def test_a_searching_level_runs_off_the_loop_and_finishes_the_hand() -> None:
    import asyncio

    clock = FakeClock()
    # A searching policy whose budget is too small to search: the worker-thread path, fast.
    m = TableManager(clock=clock, seed_source=lambda: 5, policy=ExpertPolicy(playouts=1))
    await _open(m)
    main_thread = __import__("threading").get_ident()
    seen: set[int] = set()
    inner = ExpertPolicy.choose_searching

    def spy(self, *args):  # type: ignore[no-untyped-def]
        seen.add(__import__("threading").get_ident())
        return inner(self, *args)

    ExpertPolicy.choose_searching = spy  # type: ignore[method-assign]
    try:
        assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
        for _ in range(400):
            snap = m.snapshot(CHAT.key)
            if snap is None or snap.status is not TableStatus.PLAYING:
                break
            clock.advance(4)
            await m.poll_timers()
            await asyncio.sleep(0)
    finally:
        ExpertPolicy.choose_searching = inner  # type: ignore[method-assign]
    snap = m.snapshot(CHAT.key)
    assert snap is None or snap.status is not TableStatus.PLAYING
    assert seen and main_thread not in seen  # every search ran in a worker thread


def test_telegram_settings_menu_cycles_the_ai_level() -> None:
    from adapters.telegram.callback import SettingsPress, decode, encode
    from adapters.telegram.settings_menu import SettingsMenu

    menu = SettingsMenu.__new__(SettingsMenu)  # the screens need no bot context
    _, keyboard = menu.home(GroupSettings(ai_level="easy", lang="en"))
    assert keyboard is not None
    buttons = [b for row in keyboard.inline_keyboard for b in row]
    level = [b for b in buttons if "AI level" in b.text]
    assert len(level) == 1 and "easy" in level[0].text
    press = decode(str(level[0].callback_data))
    assert isinstance(press, SettingsPress) and press == SettingsPress("A", ("normal",))
    assert menu._changes(press) == {"ai_level": "normal"}
    assert menu._changes(SettingsPress("A", ("godlike",))) is None
    assert decode(encode(SettingsPress("A", ("expert",)))) == SettingsPress("A", ("expert",))


class _ChongEager:
    """Revolts and 冲点s whenever offered with three pure 够级牌; normal otherwise."""

    def __init__(self) -> None:
        self.inner = NormalPolicy()
        self.chose: list[tuple[int, ActionKind]] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        for kind in (ActionKind.REVOLT, ActionKind.CHONGDIAN):
            a = next((a for a in legal if a.kind is kind), None)
            if a is not None and pure_plays(view.hand) >= 3:
                self.chose.append((view.seat, kind))
                return a
        return self.inner.choose(view, legal, rng)


async def test_an_ai_revolter_is_asked_again_and_may_chongdian() -> None:
    # Seed 27 under 大众: AI seat 4 may revolt holding three pure 够级牌. After its revolt
    # the table asks it again, now with 冲点 among its choices (it used to be asked once).
    policy = _ChongEager()
    m = TableManager(clock=FakeClock(), seed_source=lambda: 27, policy=policy)
    m.use_settings(CHAT, apply_setting_changes(GroupSettings(), {"preset": "dazhong"}))
    await m.handle(OpenTable(chat=CHAT, actor=ME))  # one person at seat 1, five AI seats
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    assert policy.chose == [(4, ActionKind.REVOLT), (4, ActionKind.CHONGDIAN)]
    st = m.tables[CHAT.key].state
    assert st is not None and st.chong is not None and st.chong.seat == 4


class _SlowSearch:
    """Normal's choices; its first searching decisions take a while (an expert's)."""

    def __init__(self, slow: int, seconds: float) -> None:
        self.inner = NormalPolicy()
        self.slow = slow
        self.seconds = seconds

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.inner.choose(view, legal, rng)

    def choose_searching(
        self, view: SeatView, public: object, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if self.slow > 0:
            self.slow -= 1
            __import__("time").sleep(self.seconds)
        return self.inner.choose(view, legal, rng)


async def test_an_ai_seat_thinking_longer_than_the_limit_shows_in_the_table() -> None:
    from adapters.discord.views import table_content
    from adapters.telegram.views import table_caption
    from bot.table import Out, TableChanged

    # Margins wide enough for a loaded CI machine: a slow decision takes three times the
    # limit, and a quick one (normal's, ~1 ms) would have to take 500 ms to show.
    m = TableManager(clock=FakeClock(), seed_source=lambda: 5, policy=_SlowSearch(2, 1.5))
    m.thinking_after = 0.5
    await _open(m, lang="en")
    shown: list[tuple[Out, object]] = []

    async def sink(out: Out) -> None:
        shown.append((out, m.snapshot(CHAT.key)))

    m.subscribe(sink)
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    thinking = [
        snap
        for out, snap in shown
        if isinstance(out, TableChanged) and getattr(snap, "thinking", None) is not None
    ]
    assert len(thinking) == 2  # each slow decision once, the fast ones never
    snap = thinking[0]
    assert snap.public is not None and snap.public.to_act == snap.thinking
    seat = snap.thinking
    assert f"Seat {seat}" in table_caption(snap, [], "en") and "thinking" in table_caption(
        snap, [], "en"
    )
    assert "thinking" in table_content(snap, [])
    after = m.snapshot(CHAT.key)
    assert after is not None and after.thinking is None  # the step is over: the real table
    assert "thinking" not in table_caption(after, [], "en")


async def test_a_quick_ai_seat_shows_nothing() -> None:
    from bot.table import Out, TableChanged

    m = TableManager(
        clock=FakeClock(), seed_source=lambda: 5, policy=_SlowSearch(slow=0, seconds=0.0)
    )
    await _open(m)
    shown: list[object] = []

    async def sink(out: Out) -> None:
        if isinstance(out, TableChanged):
            shown.append(m.snapshot(CHAT.key))

    m.subscribe(sink)
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok
    assert shown and all(getattr(s, "thinking", None) is None for s in shown)
