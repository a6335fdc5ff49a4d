"""custom_id codes, play menus and private controls, without Discord."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from adapters.discord.buttons import control_of
from adapters.discord.custom_ids import (
    Ref,
    decode_counts,
    encode_counts,
    parse,
    seat_cid,
    settings_cid,
    table_cid,
)
from adapters.discord.menus import PAGE, cards_text, play_text
from adapters.discord.views import Pick, pick_from, private_view
from bot.ai import Role
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse as cards
from bot.engine.game import new_hand
from bot.engine.movegen import gen_answers, gen_leads
from bot.engine.plays import Play
from bot.engine.rules import make_rules
from bot.engine.views import seat_view
from bot.present.controls import controls_of
from bot.present.playmenu import PlayMenu, build_menu, option_groups
from bot.table import GroupSettings, PrivateSnapshot, TableSnapshot, TableStatus

BIG = 2**64 - 1
REF = Ref(BIG, BIG)
RULES = make_rules("dagang")


def menu_of(legal: list[Action]) -> PlayMenu:
    """The play menu for a hand that holds every listed play."""
    hand = tuple(max((a.cards[i] for a in legal if a.cards), default=0) for i in range(15))
    return build_menu(option_groups(legal), legal, hand)


def snapshot(legal: list[Action], role: str = "turn") -> PrivateSnapshot:
    state, _ = new_hand(RULES, 3, 1, ())
    return PrivateSnapshot(
        key=REF.key,
        seat=2,
        user_id="9",
        view=seat_view(state, 2),
        legal=tuple(legal),
        version=123456789,
        autoplay=False,
        role=Role(role),
        lang="zh",
        menu=menu_of(legal),
    )


def table_of(priv: PrivateSnapshot, declare_open: bool = False) -> TableSnapshot:
    """A table in play around ``priv``'s seat (for ``controls_of``)."""
    return TableSnapshot(
        key=priv.key,
        status=TableStatus.PLAYING,
        seats=(None,) * 6,
        creator="",
        settings=GroupSettings(),
        rules=None,
        hand_no=1,
        totals=(0, 0),
        public=None,
        version=priv.version,
        window_open=False,
        declare_open=declare_open,
        last_result=None,
    )


def view_of(priv: PrivateSnapshot, pick: Pick, declare_open: bool = False) -> discord.ui.View:
    """The seat's private view, its controls decided for a table in play."""
    return private_view(priv, REF, pick, controls_of(priv, table_of(priv, declare_open)))


def action_from(op: str) -> Action | None:
    control = control_of(op)
    return None if control is None else control.action


def component_ids(view) -> list[str]:  # type: ignore[no-untyped-def]
    return [item.custom_id for item in view.children]


def test_ids_round_trip_and_fit_in_100_characters() -> None:
    worst = "cP" + encode_counts((16,) * 13 + (4, 4))
    samples = [
        table_cid(REF, BIG, "join"),
        table_cid(REF, 5, "count", menu=True),
        seat_cid(REF, 6, BIG, worst),
        seat_cid(REF, 6, BIG, "R6." + encode_counts((16,) * 15), menu=False),
        seat_cid(REF, 1, 0, "v14.40.9", menu=True),
        settings_cid(REF, "val.tribute_without_legal"),
        settings_cid(REF, "reset", menu=False),
    ]
    for text in samples:
        assert len(text) <= 100
        cid = parse(text)
        assert cid is not None and cid.encode() == text and cid.ref == REF
    assert parse(seat_cid(REF, 4, 77, "pass")).seat == 4  # type: ignore[union-attr]
    assert parse(table_cid(REF, 77, "join")).version == 77  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "foo:bar",
        "gj:t:zzz",
        "gj:t:1.2:3",  # no op
        "gj:a:1.2:7:3:pass",  # no seat 7
        "gj:a:1.2:1:!:pass",
        "gj:x:1.2:3:join",
        "gj:s:1.2:3:preset",  # settings ids carry no version
        "gj:t:1.2:3:" + "x" * 50,
    ],
)
def test_malformed_ids_are_refused(text: str) -> None:
    assert parse(text) is None


def test_counts_codes() -> None:
    hand = cards("33TTTTT22SB")
    assert decode_counts(encode_counts(hand)) == hand
    assert decode_counts("0" * 15) is None
    assert decode_counts("0" * 14) is None
    assert decode_counts("!" * 15) is None


def test_play_texts() -> None:
    assert play_text(cards("TTTTT22S"), "zh") == "10×5 +22 +小王"
    assert play_text(cards("888"), "en") == "888"
    assert play_text(cards("SB"), "en") == "small joker +big joker"
    assert cards_text(cards("34B"), "zh") == "大王 4 3"


def menus(view: Any) -> list[Any]:
    """The select menus of a view, top to bottom (buttons left out)."""
    return [c for c in view.children if hasattr(getattr(c, "item", c), "options")]


def test_a_big_lead_is_paged_and_every_menu_fits() -> None:
    hand = cards("8" * 16 + "2" * 10 + "SSSSBBBB" + "KKK")
    legal = [Action.play(p) for p in gen_leads(hand, RULES)]
    assert len(legal) > 1000
    menu = menu_of(legal)
    assert {r.base for r in menu.ranks} == {8, 13, 15, 0}
    priv = snapshot(legal)
    view = view_of(priv, Pick())
    # rank menu, the suggested leads (whole sets), autoplay, refresh
    assert len(view.children) == 3 + len(menu.suggestions) and menu.suggestions
    # The suggested plays come first, on the top row; rank options show how many you hold.
    top = [c for c in view.children if c.row == 0]
    assert len(top) == len(menu.suggestions)
    assert all(c.custom_id.rsplit(":", 1)[1].startswith("c") for c in top)  # type: ignore[attr-defined]
    labels = [o.label for o in menus(view)[0].item.options]
    assert labels[0].endswith(" ×16"), labels
    rank8 = menu.rank(8)
    assert rank8 is not None and rank8.held == 16
    sizes = [s.size for s in rank8.sizes]
    assert len(sizes) > PAGE + 1
    view = view_of(priv, Pick(rank=8))
    size_menu = menus(view)[1]
    values = [o.value for o in size_menu.item.options]
    assert len(values) == PAGE + 1 and values[-1] == "~1"
    op = size_menu.custom_id.rsplit(":", 1)[1]
    page2 = pick_from(op, "~1")
    assert page2 == Pick(rank=8, size_page=1)
    view = view_of(priv, page2)
    values = [o.value for o in menus(view)[1].item.options]
    assert values[0] == str(sizes[PAGE])
    pick = pick_from(menus(view)[1].custom_id.rsplit(":", 1)[1], "10")
    assert pick is not None and pick.size == 10
    view = view_of(priv, pick)
    variant_menu = menus(view)[2]
    first = variant_menu.item.options[0].value
    chosen = pick_from(variant_menu.custom_id.rsplit(":", 1)[1], first)
    assert chosen is not None and chosen.cards == decode_counts(first)
    view = view_of(priv, chosen)
    ids = component_ids(view)
    assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
    play = [i for i in ids if i.rsplit(":", 1)[1].startswith("P")]
    assert len(play) == 1
    action = action_from(play[0].rsplit(":", 1)[1])
    assert action == Action(ActionKind.PLAY, chosen.cards)
    assert max(item.row or 0 for item in view.children) < 5


def test_an_answer_offers_the_cheapest_play_and_pass() -> None:
    hand = cards("99QQQ222SB")
    top = Play(8, 3)
    legal = [Action.play(p) for p in gen_answers(hand, top, RULES)]
    legal += [Action(ActionKind.PASS), Action(ActionKind.RANG)]
    menu = menu_of(legal)
    assert menu.suggestions[0].action == Action(ActionKind.PLAY, cards("QQQ"))
    ops = [i.rsplit(":", 1)[1] for i in component_ids(view_of(snapshot(legal), Pick()))]
    assert "cP" + encode_counts(cards("QQQ")) in ops
    assert "pass" in ops and "rang" in ops


def test_burn_only_controls() -> None:
    legal = [Action.burn(Play(12, 5)), Action.burn(Play(12, 4, 0, 1))]
    menu = menu_of(legal)
    assert menu.suggestions[0].action == Action(ActionKind.BURN, cards("QQQQQ"))
    pick = Pick(rank=12, size=5, cards=cards("QQQQS"))
    view = view_of(snapshot(legal, "burn"), pick)
    ops = [i.rsplit(":", 1)[1] for i in component_ids(view)]
    assert "B" + encode_counts(cards("QQQQS")) in ops
    assert "cB" + encode_counts(cards("QQQQQ")) in ops
    assert not any(op.startswith("P") for op in ops)


def test_returning_tribute() -> None:
    legal = [Action(ActionKind.RETURN_TRIBUTE, cards(c), 5) for c in ("33", "34", "44", "3K", "KK")]
    menu = menu_of(legal)
    assert menu.returns[0].giver == 5 and menu.returns[0].options[0] == cards("33")
    view = view_of(snapshot(legal, "return"), Pick())
    menu_id = view.children[0].custom_id  # type: ignore[attr-defined]
    pick = pick_from(menu_id.rsplit(":", 1)[1], encode_counts(cards("34")))
    assert pick == Pick(ret_giver=5, ret_cards=cards("34"), ret_page=0)
    view = view_of(snapshot(legal, "return"), pick)
    ops = [i.rsplit(":", 1)[1] for i in component_ids(view)]
    confirm = next(op for op in ops if op.startswith("R"))
    assert action_from(confirm) == Action(ActionKind.RETURN_TRIBUTE, cards("34"), 5)


def test_pre_play_controls() -> None:
    legal = [
        Action(ActionKind.REVOLT),
        Action(ActionKind.DECLARE_POINT),
        Action(ActionKind.DECLARE_POINT, pre=True),
    ]
    ops = [
        i.rsplit(":", 1)[1]
        for i in component_ids(view_of(snapshot(legal, "pre_play"), Pick(), True))
    ]
    assert ops == ["rev", "pt", "pp", "ready", "auto1", "refresh"]
    assert action_from("pp") == Action(ActionKind.DECLARE_POINT, pre=True)


@pytest.mark.parametrize("op", ["P", "Pzz", "R9." + "1" * 15, "R2", "x", "c", "B" + "0" * 15])
def test_bad_action_ops(op: str) -> None:
    assert action_from(op) is None


@pytest.mark.parametrize(
    ("op", "value"), [("r", "x"), ("n8", "3"), ("v8.3.0", "zz"), ("t5.0", "1"), ("q", "1")]
)
def test_bad_menu_picks(op: str, value: str) -> None:
    assert pick_from(op, value) is None


def test_chongdian_and_hui_buttons_stand_for_their_actions() -> None:
    legal = [Action.chongdian(), *(Action.hui(r) for r in HuiRanks)]
    view = view_of(snapshot(legal, "pre_play"), Pick(), True)
    items = view.children
    labels = {i.custom_id.rsplit(":", 1)[1]: str(getattr(i.item, "label", "")) for i in items}  # type: ignore[attr-defined]
    wanted = {"chong": Action.chongdian(), **{f"hui{r.value}": Action.hui(r) for r in HuiRanks}}
    assert set(wanted) <= set(labels)
    for op, action in wanted.items():
        assert action_from(op) == action
    shown = [labels[op] for op in wanted]
    assert all(shown) and len(set(shown)) == len(shown), shown
