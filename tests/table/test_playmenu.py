"""The play menu: built from the engine's compact options, ranked suggestions by the AI's
cost model, and laid out with the same choices on Telegram and Discord (issue 14)."""

from __future__ import annotations

import random

import pytest

from adapters.console.prompt import listed_options
from adapters.discord.buttons import control_of as discord_control
from adapters.discord.custom_ids import Ref
from adapters.discord.custom_ids import parse as parse_cid
from adapters.discord.views import Pick, pick_from, private_view, table_view
from adapters.telegram.callback import ActPress, GroupPress, decode
from adapters.telegram.keyboards import action_keyboard, table_keyboard
from adapters.telegram.presses import control_of
from adapters.web.actions import Request, request_of
from adapters.web.payload import private_json, public_json
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse
from bot.engine.game import legal_actions, legal_options, new_hand
from bot.engine.plays import Play
from bot.engine.rules import PRESET_NAMES, make_rules
from bot.present.controls import Control, Op, controls_of
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
    SetAutoplay,
    Start,
    TableManager,
    TableSnapshot,
)

from ..discord.test_units import snapshot as unit_snapshot
from ..discord.test_units import table_of
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


# -- every front end offers the same Controls -------------------------------------------
TID = "abcdefgh"


def telegram_controls(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Control]:
    """Every control reachable by pressing through the private keyboard, and the group
    message's 报户 buttons."""
    seen: set[str] = set()
    found: set[Control] = set()
    todo: list[Control | None] = [None]
    while todo:
        screen = todo.pop()
        for row in action_keyboard(priv, TID, "zh", snap, screen).inline_keyboard:
            for button in row:
                data = button.callback_data
                assert isinstance(data, str)
                if data in seen:
                    continue
                seen.add(data)
                press = decode(data)
                assert isinstance(press, ActPress) and press.version == priv.version
                control = control_of(press)
                assert control is not None
                if control.is_nav:
                    todo.append(control)
                else:
                    found.add(control)
    group = table_keyboard(snap, TID, "zh")
    for row in group.inline_keyboard if group is not None else ():
        for button in row:
            pressed = decode(button.callback_data)  # type: ignore[arg-type]
            if isinstance(pressed, GroupPress) and pressed.op == "c":
                found.add(Control(Op.ASK, target=pressed.seat or 0))
    return found


def discord_controls(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Control]:
    """Every control reachable by picking through the private menus, and the table
    message's 报户 menu."""
    ref = Ref(1, 1)
    seen: set[Pick] = set()
    found: set[Control] = set()
    todo = [Pick()]
    while todo:
        pick = todo.pop()
        if pick in seen:
            continue
        seen.add(pick)
        for item in private_view(priv, ref, pick, controls_of(priv, snap)).children:
            cid = parse_cid(item.custom_id or "")  # type: ignore[attr-defined]
            assert cid is not None and cid.version == priv.version
            options = getattr(getattr(item, "item", item), "options", None)
            if options is None:
                control = discord_control(cid.op)
                assert control is not None, cid.op
                found.add(control.plain())
            for opt in options or ():
                nxt = pick_from(cid.op, opt.value)
                assert nxt is not None
                todo.append(nxt)
    for item in table_view(snap, ref).children:
        cid = parse_cid(item.custom_id or "")  # type: ignore[attr-defined]
        assert cid is not None
        if cid.op == "count":
            for opt in getattr(getattr(item, "item", item), "options", ()):
                found.add(Control(Op.ASK, target=int(opt.value)))
    return found


def web_controls(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Control]:
    """What the page's buttons send, read back as the server reads a request."""
    mine, public = private_json(priv, snap), public_json(snap)
    bodies: list[dict[str, object]] = [
        {"op": kind, "cards": p["cards"]} for p in mine["plays"] for kind in p["kinds"]
    ]
    bodies += [{"op": x["kind"], "cards": x["cards"]} for x in mine["suggest"]]
    bodies += [dict(x) for x in mine["simple"]]
    bodies += [
        {"op": "return", "cards": o, "target": r["giver"]}
        for r in mine["returns"]
        for o in r["options"]
    ]
    if mine["ready"]:
        bodies.append({"op": "ready"})
    if public["askable"]:
        bodies += [{"op": "count", "target": n} for n in range(1, 7)]
    if public["status"] == "playing" and priv.view.public.result is None:
        bodies.append({"op": "autoplay", "on": not mine["autoplay"]})
    found = set()
    for body in bodies:
        asked = request_of({**body, "version": public["version"]})
        assert isinstance(asked, Request), body
        found.add(asked.control)
    return found


def terminal_controls(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Control]:
    """What the terminal lists (each also typed as cards or a letter), Enter's meaning,
    auto and c N: its list is a part of the plays, the rest are typed as cards."""
    controls = controls_of(priv, snap)
    listed = listed_options(priv, controls)
    assert {a for a, _ in listed} <= controls.actions()
    simple = [a for a, _ in listed if not a.cards]
    assert simple == [c.action for c in controls.simple]
    found = {Control.act(a) for a in controls.actions()}  # typed: any play, as notation
    found |= {c for c in (controls.ready, controls.decline) if c is not None}
    found |= {c for c in controls.own if c.op is Op.AUTOPLAY}
    return found | set(controls.asks)


def decided(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Control]:
    """What ``controls_of`` offers, as one set of presses (no reasons, no screens)."""
    controls = controls_of(priv, snap)
    return {Control.act(a) for a in controls.actions()} | {c.plain() for c in controls.buttons()}


def telegram_actions(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Action]:
    return {c.action for c in telegram_controls(priv, snap) if c.action is not None}


def discord_actions(priv: PrivateSnapshot, snap: TableSnapshot) -> set[Action]:
    return {c.action for c in discord_controls(priv, snap) if c.action is not None}


STEPS = 120


async def lively_states(seed: int, preset: str) -> list[tuple[PrivateSnapshot, TableSnapshot]]:
    """One human seat's views through a hand with burn windows, the declaration pause, 💡,
    托管 now and then and time passing: every kind of control turns up."""
    clock = FakeClock()
    m = TableManager(clock=clock, seed_source=lambda: seed)
    set_settings(m, preset=preset, turn_seconds=0, match_hands=1, hints=preset != "match")
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    await m.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await m.handle(Start(chat=CHAT, actor=ME))
    rng = random.Random(seed)
    out = []
    for _ in range(STEPS):
        priv, snap = m.private_snapshot(CHAT.key, ME.user_id), m.snapshot(CHAT.key)
        if priv is None or snap is None:
            break
        out.append((priv, snap))
        roll = rng.random()
        if roll < 0.05 or (priv.autoplay and roll < 0.6):  # 托管 for a moment now and then
            await m.handle(SetAutoplay(chat=CHAT, actor=ME, on=not priv.autoplay))
        elif roll < 0.3 or not priv.legal:
            clock.advance(rng.choice((1.0, 3.0, 10.0)))
            await m.poll_timers()
        elif snap.declare_open and rng.random() < 0.3:
            await m.handle(Ready(chat=CHAT, actor=ME))
        else:
            action = rng.choice(priv.legal)
            await m.handle(Act(chat=CHAT, actor=ME, action=action, version=priv.version))
    return out


@pytest.mark.parametrize(("seed", "preset"), [(s, PRESET_NAMES[s % 5]) for s in range(1, 9)])
async def test_every_front_end_offers_exactly_the_same_controls(seed: int, preset: str) -> None:
    """Telegram, Discord, the web page and the terminal lay out ``controls_of`` and
    nothing else (the web page has no refresh and no 💡: it is live and has no hints;
    the terminal redraws by itself and has no 💡 either)."""
    seen: set[Op] = set()
    for priv, snap in await lively_states(seed, preset):
        if len(priv.legal) > 400:
            continue  # a huge lead: the walk is slow, and the unit tests cover paging
        want = decided(priv, snap)
        seen |= {c.op for c in want}
        assert telegram_controls(priv, snap) == want
        assert discord_controls(priv, snap) == want
        chat_only = {c for c in want if c.op in (Op.REFRESH, Op.HINT)}
        assert web_controls(priv, snap) == want - chat_only
        assert terminal_controls(priv, snap) == want - chat_only
    assert {Op.PLAY, Op.PASS, Op.AUTOPLAY, Op.REFRESH} <= seen


async def test_the_random_hands_meet_many_kinds_of_control() -> None:
    """The states above are not all alike: the pause, 让, 明点, 托管, 💡 and 报户 turn up
    (burns and tribute returns are rare at random: the next test builds them)."""
    seen: set[Op] = set()
    for seed in range(1, 9):
        for priv, snap in await lively_states(seed, PRESET_NAMES[seed % 5]):
            controls = controls_of(priv, snap)
            seen |= {c.op for c in controls.buttons()}
            seen |= {Control.act(a).op for a in controls.actions()}
    wanted = {Op.PLAY, Op.PASS, Op.RANG, Op.POINT, Op.READY, Op.AUTOPLAY, Op.HINT, Op.ASK}
    assert wanted <= seen, seen


@pytest.mark.parametrize("role", ["burn", "return"])
async def test_every_front_end_offers_burns_and_returns_alike(role: str) -> None:
    """A burn window (burning is all the seat may do: "not burning" is offered) and a
    tribute return, built as the engine would offer them."""
    if role == "burn":
        legal = [
            Action.burn(Play(12, 5)),
            Action.burn(Play(12, 4, 0, 1)),
            Action.burn(Play(0, 0, 0, 2, 1)),
        ]
    else:
        legal = [Action(ActionKind.RETURN_TRIBUTE, parse(c), 5) for c in ("3", "4", "K")]
    priv = unit_snapshot(legal, role)
    snap = table_of(priv)
    want = decided(priv, snap)
    kinds = {Op.BURN, Op.DECLINE} if role == "burn" else {Op.RETURN}
    assert kinds <= {c.op for c in want}
    assert telegram_controls(priv, snap) == want
    assert discord_controls(priv, snap) == want
    chat_only = {c for c in want if c.op in (Op.REFRESH, Op.HINT)}
    assert web_controls(priv, snap) == want - chat_only
    assert terminal_controls(priv, snap) == want - chat_only


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
