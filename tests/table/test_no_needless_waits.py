"""Play feel at the table: no pause for seats with nothing to declare; 报户 once per state."""

from __future__ import annotations

from bot.table import AskCount, DeadlineKind, Notice, OpenTable, Start, TableManager

from .conftest import CHAT, PLAYERS, set_settings

ME = PLAYERS[0]
ONLOOKER = PLAYERS[6]


async def start_with_bots(m: TableManager, **settings: object) -> None:
    set_settings(m, **{"turn_seconds": 30, **settings})
    await m.handle(OpenTable(chat=CHAT, actor=ME))
    assert (await m.handle(Start(chat=CHAT, actor=ME))).ok  # five AI seats fill in


async def test_a_seat_with_nothing_to_declare_does_not_hold_up_the_first_lead(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=21)
    await start_with_bots(m)  # 大纲: 革命 is on, 明点 is off
    t = m.tables[CHAT.key]
    assert t.rules is not None and t.rules.revolution != "off"
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None
    assert priv.role in (None, "turn"), "nothing to revolt or declare with this deal"
    # Ready without a tap, and no pause at all: the AI seats have already led and played.
    assert 1 in t.ready
    assert not t.declare_open
    assert t.deadline is None or t.deadline.kind is not DeadlineKind.DECLARE
    assert t.state is not None and (t.state.started or t.state.to_act == 1)


async def test_a_seat_that_can_declare_gets_its_pause(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=21)
    await start_with_bots(m, dadian=True)  # 明点 is open to every seat before the first play
    t = m.tables[CHAT.key]
    priv = m.private_snapshot(CHAT.key, ME.user_id)
    assert priv is not None and priv.role == "pre_play"
    assert t.declare_open
    assert t.deadline is not None and t.deadline.kind is DeadlineKind.DECLARE
    assert 1 not in t.ready


async def test_count_is_for_players_and_answered_once_per_state(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    m, rec = make_manager(seed=25)
    await start_with_bots(m)

    def answers() -> int:
        return sum(1 for o in rec.outs if isinstance(o, Notice) and o.key == "count_answer")

    r = await m.handle(AskCount(chat=CHAT, actor=ONLOOKER, target=2))
    assert not r.ok and r.key == "not_seated"
    assert answers() == 0
    for _ in range(6):  # a player taps the same 报户 button again and again
        r = await m.handle(AskCount(chat=CHAT, actor=ME, target=2))
        assert r.ok and r.key == "count_posted"
    assert answers() == 1
    await m.handle(AskCount(chat=CHAT, actor=ME, target=3))  # another seat: a new question
    assert answers() == 2
    m.tables[CHAT.key].version += 1  # the table moved on: the question may be asked again
    await m.handle(AskCount(chat=CHAT, actor=ME, target=2))
    assert answers() == 3
