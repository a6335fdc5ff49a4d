"""Controls decided once (bot/present/controls.py) and the one press protocol
(adapters/press.py): what a seat is offered, and a stale press or a double tap changes
nothing and is answered politely (#33)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from adapters.press import Redraw, Verdict, press
from bot.engine.actions import Action, ActionKind
from bot.engine.rules import PRESET_NAMES
from bot.present.controls import Control, Nav, Op, controls_of
from bot.table import (
    Act,
    AddBots,
    ChatRef,
    FakeClock,
    OpenTable,
    PrivateSnapshot,
    ReplyCode,
    Start,
    TableManager,
    TableSnapshot,
)

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]


async def table(seed: int, preset: str = "dagang") -> TableManager:
    m = TableManager(
        clock=FakeClock(), seed_source=lambda: seed, burn_window_seconds=0, declare_window_seconds=0
    )
    set_settings(m, turn_seconds=0, match_hands=1, preset=preset)
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    return m


def views(m: TableManager) -> tuple[PrivateSnapshot, TableSnapshot]:
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    snap = m.snapshot(CHAT.key)
    assert priv is not None and snap is not None
    return priv, snap


async def walk(seed: int, preset: str) -> list[tuple[PrivateSnapshot, TableSnapshot]]:
    """The human seat's views through a hand, acting at random."""
    m = await table(seed, preset=preset)
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        priv, snap = views(m)
        out.append((priv, snap))
        if not priv.legal:
            break
        action = rng.choice(priv.legal)
        await m.handle(Act(chat=CHAT, actor=ME, action=action, version=priv.version))
    return out


@pytest.mark.parametrize(("seed", "preset"), [(s, PRESET_NAMES[s % 5]) for s in range(1, 6)])
async def test_the_controls_offer_exactly_the_seats_legal_actions(seed: int, preset: str) -> None:
    for priv, snap in await walk(seed, preset):
        controls = controls_of(priv, snap)
        assert not priv.autoplay
        assert controls.actions() == frozenset(priv.legal)
        for a in priv.legal:
            assert controls.offers(Control.act(a))
        for c in controls.suggestions:
            assert c.action in priv.legal and c.reason is not None
            assert controls.offers(c.plain())
        # The default tree comes first: burning where no play is offered.
        kinds = {a.kind for a in priv.legal}
        if ActionKind.PLAY in kinds:
            assert controls.modes[0] is ActionKind.PLAY
        elif ActionKind.BURN in kinds:
            assert controls.modes == (ActionKind.BURN,)
        assert (controls.decline is not None) == (
            ActionKind.BURN in kinds and not kinds & {ActionKind.PLAY, ActionKind.PASS}
        )
        assert (controls.ready is not None) == (snap.declare_open and priv.seat not in snap.ready)
        assert Control(Op.REFRESH) in controls.own or priv.view.public.result is not None


async def test_a_control_not_offered_is_refused_by_offers() -> None:
    m = await table(2)
    priv, snap = views(m)
    controls = controls_of(priv, snap)
    assert not controls.offers(Control.act(Action(ActionKind.PLAY, (1,) * 15)))
    assert not controls.offers(Control(Op.PLAY, Action(ActionKind.PASS)))  # op and kind differ
    assert not controls.offers(Control.to(Op.RANK, Nav(ActionKind.PLAY, 99)))
    assert not controls.offers(Control(Op.ASK, target=3)) or controls.asks
    rank = controls.tree(controls.modes[0])[0]
    assert controls.offers(Control.to(Op.RANK, Nav(controls.modes[0], rank.base)))
    size = Nav(controls.modes[0], rank.base, rank.sizes[0].size)
    assert controls.offers(Control.to(Op.SIZE, size))
    assert not controls.offers(Control.to(Op.SIZE, replace(size, size=40)))


async def test_ready_is_offered_once_during_the_declaration_pause() -> None:
    m = TableManager(clock=FakeClock(), seed_source=lambda: 2, burn_window_seconds=0)
    set_settings(m, turn_seconds=0, match_hands=1, hui="threes")
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    priv, snap = views(m)
    assert snap.declare_open
    controls = controls_of(priv, snap)
    assert controls.ready == Control(Op.READY)
    done = await press(m, CHAT, ME, Control(Op.READY), priv.version)
    assert done.verdict is Verdict.DONE and done.reply is not None and done.reply.ok
    assert done.redraw is Redraw.REFRESH
    priv, snap = views(m)
    assert controls_of(priv, snap).ready is None


# -- the press protocol --------------------------------------------------------------------
async def test_a_stale_press_changes_nothing_and_says_so() -> None:
    m = await table(3)
    priv, snap = views(m)
    control = next(c for c in controls_of(priv, snap).buttons() if c.action is not None)
    before = m.snapshot(CHAT.key)
    got = await press(m, CHAT, ME, control, priv.version - 1)
    assert got.verdict is Verdict.REFUSED and got.reply is not None
    assert got.reply.key == ReplyCode.STALE and not got.reply.ok
    assert got.redraw is Redraw.REFRESH
    assert m.snapshot(CHAT.key) == before


async def test_a_double_tap_is_already_played_and_changes_nothing() -> None:
    m = await table(3)
    priv, snap = views(m)
    control = next(c for c in controls_of(priv, snap).buttons() if c.action is not None)
    first = await press(m, CHAT, ME, control, priv.version)
    assert first.verdict is Verdict.DONE and first.reply is not None and first.reply.ok
    assert first.redraw is Redraw.SWAP and first.priv is not None
    assert first.controls is not None and first.controls.version == first.priv.version
    after = m.snapshot(CHAT.key)
    again = await press(m, CHAT, ME, control, priv.version)
    assert again.verdict is Verdict.REFUSED and again.reply is not None
    assert again.reply.key == ReplyCode.ALREADY_PLAYED
    assert again.redraw is Redraw.NONE
    assert m.snapshot(CHAT.key) == after


async def test_a_forged_control_is_stale_and_never_reaches_the_table() -> None:
    m = await table(3)
    priv, _ = views(m)
    before = m.snapshot(CHAT.key)
    forged = Control.act(Action(ActionKind.PLAY, (4,) + (0,) * 14))
    got = await press(m, CHAT, ME, forged, priv.version)
    assert got.verdict is Verdict.REFUSED and got.reply is not None
    assert got.reply.key == ReplyCode.STALE
    assert m.snapshot(CHAT.key) == before


async def test_navigation_and_a_newer_press_reread_first() -> None:
    m = await table(3)
    priv, snap = views(m)
    rereads: list[str] = []
    real = m.reread

    async def spy(chat: ChatRef) -> TableSnapshot | None:
        rereads.append(chat.key)
        return await real(chat)

    m.reread = spy  # type: ignore[method-assign]
    controls = controls_of(priv, snap)
    rank = controls.ranks(controls.modes[0])[0]
    got = await press(m, CHAT, ME, rank, priv.version)
    assert got.verdict is Verdict.NAVIGATE and got.controls == controls and not rereads
    await press(m, CHAT, ME, rank, priv.version + 5)
    assert rereads  # a keyboard newer than this copy: read the table again


async def test_under_autoplay_only_taking_the_seat_back_is_offered() -> None:
    m = await table(4)
    priv, _ = views(m)
    got = await press(m, CHAT, ME, Control(Op.AUTOPLAY, on=True), priv.version)
    assert got.reply is not None and got.reply.ok and got.controls is not None
    assert got.priv is not None and got.priv.autoplay
    assert got.controls.actions() == frozenset() and got.controls.ready is None
    # (the AI may have played the hand out at once: then nothing at all is left)
    priv, snap = views(await table(4))
    controls = controls_of(replace(priv, autoplay=True), snap)
    assert priv.view.public.result is None and priv.legal
    assert controls.actions() == frozenset() and controls.own == (
        Control(Op.AUTOPLAY, on=False),
        Control(Op.REFRESH),
    )


async def test_a_stranger_holds_no_hand() -> None:
    m = await table(3)
    got = await press(m, CHAT, PLAYERS[6], Control(Op.REFRESH), 1)
    assert got.verdict is Verdict.NO_HAND
