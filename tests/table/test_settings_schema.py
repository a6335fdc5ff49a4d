"""The one settings schema: every value checked by type and range before use (issue 9 items
1 and 3), at the manager API and in the typed command form."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import GoujiError
from bot.engine.rules import PRESETS, Rules, switch_names
from bot.present.schema import Scope, SettingKind, menu_settings, schema, spec_of
from bot.table import (
    AddBots,
    AskCount,
    ChangeSettings,
    GroupSettings,
    Join,
    Kick,
    OpenTable,
    RemoveBot,
    SwapSeat,
    apply_setting_changes,
)

from ..live import live
from .conftest import ADMIN, CHAT, PLAYERS
from .test_play import ME, start_one_human

MALFORMED = [
    {"tribute_order": ["men", 1, "point", "luo"]},
    {"tribute_order": "men,burn,point,luo"},
    {"preset": ["dagang"]},
    {"preset": [1]},
    {"preset": {"x": 1}},
    {"burn_limit": [[[[[]]]]]},
    {"burn_limit": 1.0},
    {"burn_limit": True},
    {"burn_limit": 99},
    {"turn_seconds": 30.0},
    {"lang": ["zh"]},
    {"ai_fill": 1},
    {"rang": "yes"},
    {"gouji_twos": True},  # True == 1 but is not the number 1
    {"score_table": [4, 2, 0, 0, -2]},
    {"score_table": [4, 2, 0, 0, -2, 1.5]},
    {"remove_threes": "10"},
    {1: 2},
    {("preset",): "dagang"},
]


@pytest.mark.parametrize("changes", MALFORMED, ids=str)
def test_malformed_values_are_refused_with_a_code(changes: dict[object, object]) -> None:
    with pytest.raises(GoujiError) as err:
        apply_setting_changes(GroupSettings(), changes)
    assert err.value.code.value in ("bad_switch_value", "unknown_switch")
    # What was sent is quoted short, whatever its size.
    assert all(len(str(err.value.params.get(k, ""))) <= 40 for k in ("switch", "value"))


@pytest.mark.parametrize("changes", MALFORMED, ids=str)
async def test_the_manager_answers_politely_and_changes_nothing(
    make_manager,  # type: ignore[no-untyped-def]
    changes: dict[object, object],
) -> None:
    m, rec = make_manager()
    before = await m.group_settings(CHAT)
    reply = await m.handle(ChangeSettings(chat=CHAT, actor=ADMIN, changes=changes))  # type: ignore[arg-type]
    assert not reply.ok and reply.key in ("bad_switch_value", "unknown_switch")
    assert await m.group_settings(CHAT) == before
    assert rec.outs == []


async def test_a_changes_value_that_is_not_a_mapping_is_refused(make_manager) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    reply = await m.handle(ChangeSettings(chat=CHAT, actor=ADMIN, changes=["preset"]))  # type: ignore[arg-type]
    assert not reply.ok and reply.key == "bad_switch_value"


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("tribute_order", "men,1,point,luo"),
        ("preset", "[1]"),
        ("burn_limit", "[" * 5000),
        ("burn_limit", "1e3"),
        ("burn_limit", "３"),  # a full-width digit is not an ASCII number
        ("score_table", "1,2,3"),
        ("rang", "maybe"),
    ],
)
def test_typed_values_are_parsed_by_the_schema_not_by_json(name: str, raw: str) -> None:
    with pytest.raises(GoujiError) as err:
        spec_of(name).parse(raw)
    assert err.value.code.value == "bad_switch_value"


def test_typed_values_that_fit() -> None:
    assert spec_of("tribute_order").parse("luo, point, burn, men") == (
        "luo",
        "point",
        "burn",
        "men",
    )
    assert spec_of("score_table").parse("[2,1,0,0,-1,-2]") == (2, 1, 0, 0, -1, -2)
    assert spec_of("burn_limit").parse(" 3 ") == 3
    assert spec_of("rang").parse("关") is False
    assert spec_of("preset").parse("QingDao") == "qingdao"


def test_the_schema_covers_every_switch_and_knows_its_presets() -> None:
    specs = schema()
    assert set(switch_names()) <= set(specs)
    for name in switch_names():
        spec = specs[name]
        assert spec.scope is Scope.RULES and spec.help_key == "sw_" + name
        for preset in spec.presets:
            assert PRESETS[preset][name] != getattr(Rules(), name)
        # The default value passes its own check; every menu value too.
        assert spec.validate(getattr(Rules(), name)) == getattr(Rules(), name)
        for value in spec.menu_values:
            assert spec.validate(value) == value
    assert "dadian" in specs["dadian"].help_key and "qingdao" in specs["dadian"].presets
    assert specs["burn_limit"].kind is SettingKind.INT
    assert specs["turn_seconds"].scope is Scope.TABLE
    menus = {s.name for s in menu_settings()}
    assert "tribute_order" not in menus and "burn_limit" in menus and "preset" not in menus


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(schema())),
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**9), 10**9),
        st.floats(allow_nan=True),
        st.text(max_size=30),
        st.lists(st.one_of(st.integers(), st.text(max_size=5)), max_size=8),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    ),
)
def test_any_value_is_accepted_or_refused_with_a_code(name: str, value: object) -> None:
    try:
        new = apply_setting_changes(GroupSettings(), {name: value})
    except GoujiError as err:
        assert err.code.value in ("bad_switch_value", "unknown_switch", "unknown_preset")
        return
    new.rules()  # whatever was accepted makes rules
    assert GroupSettings.from_json(new.to_json()) == new


def test_stored_settings_that_no_longer_fit_fall_back_to_defaults() -> None:
    raw = {
        "preset": ["x"],
        "turn_seconds": "soon",
        "overrides": {"burn_limit": [[1]], "rang": False},
    }
    loaded = GroupSettings.from_json(raw)
    assert loaded.preset == "dagang" and loaded.turn_seconds == 45
    assert dict(loaded.overrides) == {"rang": False}


@pytest.mark.parametrize("bad", [1.0, True, "1", None, 0, 7])
async def test_seats_and_targets_must_be_ints(make_manager, bad: object) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager()
    await m.handle(OpenTable(chat=CHAT, actor=PLAYERS[0]))
    await m.handle(AddBots(chat=CHAT, actor=PLAYERS[0], count=2))
    table = live(m, CHAT.key)
    seats = list(table.seats)
    if bad is not None:
        r = await m.handle(Join(chat=CHAT, actor=PLAYERS[1], seat=bad))  # type: ignore[arg-type]
        assert not r.ok and r.key == "bad_seat"
        r = await m.handle(RemoveBot(chat=CHAT, actor=PLAYERS[0], seat=bad))  # type: ignore[arg-type]
        assert not r.ok
    r = await m.handle(SwapSeat(chat=CHAT, actor=PLAYERS[0], seat=bad))  # type: ignore[arg-type]
    assert not r.ok and r.key == "bad_seat"
    r = await m.handle(Kick(chat=CHAT, actor=ADMIN, seat=bad))  # type: ignore[arg-type]
    assert not r.ok and r.key == "bad_seat"
    r = await m.handle(AddBots(chat=CHAT, actor=PLAYERS[0], count=bad))  # type: ignore[arg-type]
    assert table.seats[:3] == seats[:3]  # nobody moved, nobody was removed


@pytest.mark.parametrize("bad", [2.0, True, "2", 0, 9])
async def test_count_targets_must_be_ints(make_manager, bad: object) -> None:  # type: ignore[no-untyped-def]
    m, _ = make_manager(seed=26)
    await start_one_human(m, preset="dagang")
    r = await m.handle(AskCount(chat=CHAT, actor=ME, target=bad))  # type: ignore[arg-type]
    assert not r.ok and r.key == "bad_target"
