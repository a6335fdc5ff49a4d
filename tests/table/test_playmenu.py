"""The play menu: built from the engine's compact options, ranked suggestions by the AI's
cost model, and laid out with the same choices on Telegram and Discord (issue 14)."""

from __future__ import annotations

import random

import pytest

from adapters.discord.buttons import control_of as discord_control
from adapters.discord.custom_ids import Ref
from adapters.discord.custom_ids import parse as parse_cid
from adapters.discord.views import Pick, pick_from, private_view
from adapters.telegram.callback import ActPress, decode
from adapters.telegram.keyboards import action_keyboard
from adapters.telegram.presses import control_of
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse
from bot.engine.game import legal_actions, legal_options, new_hand
from bot.engine.plays import Play
from bot.engine.rules import PRESET_NAMES, make_rules
from bot.present.controls import controls_of
from bot.present.playmenu import (
    PLAY_KINDS,
    Suggest,
    build_menu,
    option_groups,
    play_cost,
    play_of,
)
from bot.table import (
    Act,
    AddBots,
    FakeClock,
    OpenTable,
    PrivateSnapshot,
    Ready,
    Start,
    TableManager,
    TableSnapshot,
)

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]


def test_the_menu_groups_a_real_hand_cheapest_first() -> None:
    state, _ = new_hand(make_rules("dagang"), 42, 1)
    legal = legal_actions(state, 1)
    hand = state.hands[0]
    menu = build_menu(legal_options(state, 1), legal, hand)
    plays = {a for a in legal if a.kind is ActionKind.PLAY}
    offered = {v.action(ActionKind.PLAY) for r in menu.ranks for s in r.sizes for v in s.variants}
    assert offered == plays
    for r in menu.ranks:
        assert r.held == sum(hand[i] for i in range(13, 15)) if r.base == 0 else r.held > 0
        for s in r.sizes:
            costs = [play_cost(v.play, hand) for v in s.variants]
            assert costs == sorted(costs)
            assert all(v.play.base == r.base and v.play.size == s.size for v in s.variants)


def test_a_lead_suggests_whole_sets_and_an_answer_the_cheapest() -> None:
    hand = parse("555999KK22SB")
    leads = [Action.play(Play(5, n)) for n in (1, 2, 3)] + [Action.play(Play(5, 1, 1))]
    leads += [Action.play(Play(9, 3)), Action.play(Play(9, 1))]
    menu = build_menu(option_groups(leads), leads, hand)
    assert [s.reason for s in menu.suggestions] == [Suggest.LEAD_SET] * 2
    assert menu.suggestions[0].action == Action.play(Play(5, 3))  # never splits the 5s
    answers = [Action.play(p) for p in (Play(9, 3), Play(13, 2, 1), Play(15, 2))]
    answers.append(Action(ActionKind.PASS))
    menu = build_menu(option_groups(answers), answers, hand)
    assert menu.suggestions[0].action == Action.play(Play(9, 3))
    assert menu.suggestions[0].reason is Suggest.CHEAPEST
    assert menu.simple == (Action(ActionKind.PASS),)


def test_play_of_reads_back_any_play() -> None:
    for text in ("888SS", "TTTT2", "22SB", "SB", "3333", "A"):
        counts = parse(text)
        assert play_of(counts).counts() == counts


# -- both platforms offer the same choices -------------------------------------------------
def telegram_actions(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Action]:
    """Every action reachable by pressing through the private keyboard."""
    seen: set[str] = set()
    found: set[Action] = set()
    todo: list[ActPress | None] = [None, ActPress("abcdefgh", priv.version, "r", ("b",))]
    while todo:
        screen = todo.pop()
        markup = action_keyboard(
            priv, "abcdefgh", "zh", snap, control_of(screen) if screen else None
        )
        for row in markup.inline_keyboard:
            for button in row:
                data = button.callback_data
                assert isinstance(data, str)
                if data in seen:
                    continue
                seen.add(data)
                press = decode(data)
                assert isinstance(press, ActPress)
                control = control_of(press)
                action = control.action if control is not None else None
                if action is not None:
                    found.add(action)
                elif press.op in ("r", "b", "z", "v"):
                    todo.append(press)
    return found


def discord_actions(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Action]:
    """Every action reachable by picking through the private menus."""
    ref = Ref(1, 1)
    seen: set[Pick] = set()
    found: set[Action] = set()
    todo = [Pick()]
    while todo:
        pick = todo.pop()
        if pick in seen:
            continue
        seen.add(pick)
        for item in private_view(priv, ref, pick, controls_of(priv, snap)).children:
            cid = parse_cid(item.custom_id or "")  # type: ignore[attr-defined]
            assert cid is not None
            control = discord_control(cid.op)
            if control is not None and control.action is not None:
                found.add(control.action)
            for opt in getattr(getattr(item, "item", item), "options", ()):
                nxt = pick_from(cid.op, opt.value)
                if nxt is not None:
                    todo.append(nxt)
    return found


async def states(seed: int, preset: str) -> list[tuple[PrivateSnapshot, TableSnapshot]]:
    """Snapshots of one human seat at a few points of a hand, chosen at random."""
    m = TableManager(
        clock=FakeClock(), seed_source=lambda: seed, burn_window_seconds=0, declare_window_seconds=0
    )
    set_settings(m, preset=preset, turn_seconds=0, match_hands=1)
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        snap = m.snapshot(CHAT.key)
        if priv is None or snap is None or not priv.legal:
            break
        if any(a.kind in PLAY_KINDS for a in priv.legal) and rng.random() < 0.5:
            out.append((priv, snap))
        choices = [a for a in priv.legal if a.kind is not ActionKind.ASK_COUNT]
        cmd = (
            Act(chat=CHAT, actor=ME, action=rng.choice(choices), version=priv.version)
            if choices
            else Ready(chat=CHAT, actor=ME)
        )
        await m.handle(cmd)
    return out


PLAY_AND_SIMPLE = frozenset(
    {
        ActionKind.PLAY,
        ActionKind.BURN,
        ActionKind.PASS,
        ActionKind.RANG,
        ActionKind.WAIVE,
        ActionKind.HUI,
        ActionKind.CHONGDIAN,
    }
)


@pytest.mark.parametrize(("seed", "preset"), [(s, PRESET_NAMES[s % 5]) for s in range(1, 7)])
async def test_both_platforms_offer_the_same_choices(seed: int, preset: str) -> None:
    compared = 0
    for priv, snap in await states(seed, preset):
        if len(priv.legal) > 400:
            continue  # a huge lead: the walk is slow, and the unit tests cover paging
        wanted = {a for a in priv.legal if a.kind in PLAY_AND_SIMPLE}
        on_telegram = {a for a in telegram_actions(priv, snap) if a.kind in PLAY_AND_SIMPLE}
        on_discord = {a for a in discord_actions(priv, snap) if a.kind in PLAY_AND_SIMPLE}
        assert on_telegram == on_discord == wanted
        compared += 1
    assert compared


async def test_both_platforms_offer_hui_before_the_first_play() -> None:
    """Seed 2 deals the first lead to seat 1 (a person): with 烩 on it may set the 3s aside,
    and Telegram, Discord and the play menu offer exactly the engine's 烩 actions."""
    m = TableManager(clock=FakeClock(), seed_source=lambda: 2, burn_window_seconds=0)
    set_settings(m, hui="threes", turn_seconds=0, match_hands=1)
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    snap = m.snapshot(CHAT.key)
    assert priv is not None and snap is not None
    wanted = {a for a in priv.legal if a.kind is ActionKind.HUI}
    assert wanted == {Action.hui(HuiRanks.THREES)}
    assert set(priv.menu.simple) >= wanted
    hui_on_telegram = {a for a in telegram_actions(priv, snap) if a.kind is ActionKind.HUI}
    assert hui_on_telegram == wanted
    assert {a for a in discord_actions(priv, snap) if a.kind is ActionKind.HUI} == wanted
