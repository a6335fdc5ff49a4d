"""烩 and 冲点 at a chat table (RULES §10, issue 15 item 5): a person is offered them in the
pre-play pause, and taking them goes through the engine with every card accounted for."""

from __future__ import annotations

from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse
from bot.table import Act, DeadlineKind, Notice, OpenTable, Start, TableManager

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]
THREE = parse("3").index(1)  # the counts index of rank 3


async def start_with_bots(m: TableManager, **settings: object) -> None:
    set_settings(m, **{"turn_seconds": 30, **settings})
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok  # five AI seats fill in


async def test_the_leader_is_offered_hui_and_taking_it_sets_the_threes_aside(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=2)  # seed 2: seat 1 (a person) leads the first hand
    await start_with_bots(m, hui="threes")  # 大纲 with 烩 on (no 憋三)
    t = m.tables[CHAT.key]
    st = t.state
    assert st is not None and st.leader == 1 and not st.started
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and priv.role == "pre_play"
    assert t.declare_open
    assert t.deadline is not None and t.deadline.kind is DeadlineKind.DECLARE
    hui = Action.hui(HuiRanks.THREES)
    assert hui in priv.legal and hui in priv.menu.simple
    assert not any(a.kind is ActionKind.PLAY for a in priv.legal), "no play before the pause"
    before = sum(sum(h) for h in st.hands) + sum(st.set_aside)
    threes = sum(h[THREE] for h in st.hands)
    assert threes > 0

    r = await m.handle(Act(chat=CHAT, actor=ME, action=hui))
    assert r.ok, r.key
    after = m.tables[CHAT.key].state
    assert after is not None
    assert all(h[THREE] == 0 for h in after.hands)
    assert after.set_aside[THREE] == threes
    # Cards are conserved: what left the hands is set aside; the leader has not played yet.
    assert not after.started
    assert sum(sum(h) for h in after.hands) + sum(after.set_aside) == before
    notices = [o for o in rec.outs if isinstance(o, Notice) and o.key == "ev_hui"]
    assert len(notices) == 1 and dict(notices[0].params)["count"] == threes
    # Once taken it is not offered again, and a second 烩 is refused.
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and not any(a.kind is ActionKind.HUI for a in priv.legal)
    assert not (await m.handle(Act(chat=CHAT, actor=ME, action=hui))).ok


async def test_hui_is_not_offered_when_the_switch_is_off(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=2)
    await start_with_bots(m)
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and not any(a.kind is ActionKind.HUI for a in priv.legal)
    r = await m.handle(Act(chat=CHAT, actor=ME, action=Action.hui(HuiRanks.THREES)))
    assert not r.ok


async def test_a_revolter_under_dazhong_is_offered_chongdian_and_it_starts_the_hand(
    make_manager,
) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=208)  # seed 208: seat 1 may revolt and holds 3 pure 够级牌
    await start_with_bots(m, preset="dazhong")  # 冲点 on, 打点 on
    t = m.tables[CHAT.key]
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and priv.role == "pre_play"
    revolt = Action(ActionKind.REVOLT)
    assert revolt in priv.legal
    assert not any(a.kind is ActionKind.CHONGDIAN for a in priv.legal), "only after 革命"
    assert (await m.handle(Act(chat=CHAT, actor=ME, action=revolt))).ok
    # The revolter keeps its pause: 冲点 is offered right after the revolt.
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    chong = Action.chongdian()
    assert priv is not None and priv.role == "pre_play"
    assert chong in priv.legal and chong in priv.menu.simple
    t = m.tables[CHAT.key]
    assert t.declare_open and 1 not in t.ready
    st = t.state
    assert st is not None
    total = sum(sum(h) for h in st.hands)

    assert (await m.handle(Act(chat=CHAT, actor=ME, action=chong))).ok, "冲点 accepted"
    st = m.tables[CHAT.key].state
    assert st is not None and st.started and st.to_act == 1
    assert not m.tables[CHAT.key].declare_open, "冲点 ends the declaration pause"
    keys = [o.key for o in rec.outs if isinstance(o, Notice)]
    assert "ev_chongdian" in keys
    # The revolter now leads its pure 够级牌: plays are offered, no pre-play actions.
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and priv.role == "turn"
    assert any(a.kind is ActionKind.PLAY for a in priv.legal)
    assert not any(a.kind in (ActionKind.CHONGDIAN, ActionKind.REVOLT) for a in priv.legal)
    assert sum(sum(h) for h in st.hands) == total  # nothing played yet: cards all in hand
    # Three leads (the opposite, an AI, answers each) and the result is announced.
    for _ in range(3):
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        assert priv is not None
        lead = next(a for a in priv.legal if a.kind is ActionKind.PLAY)
        assert (await m.handle(Act(chat=CHAT, actor=ME, action=lead, version=priv.version))).ok
    keys = [o.key for o in rec.outs if isinstance(o, Notice)]
    assert "ev_chongdian_result" in keys
