"""/gouji settings: admins change the server's rules; everyone else is politely refused."""

from __future__ import annotations

import copy

from .conftest import ADMIN, ALICE, CHAT, Harness
from .driver import find
from .fake import CHANNEL_ID, Msg

REFUSED = "只有有“管理服务器”权限的成员可以改设置。"


async def panel(h: Harness) -> Msg:
    msg = h.fake.last_private(ADMIN.id, "ephemeral")
    assert msg is not None
    return msg


def options(msg: Msg, custom_id: str) -> list[str]:
    return [str(o["value"]) for o in msg.component(custom_id)["options"]]


async def test_members_cannot_open_the_settings(harness: Harness) -> None:
    p = await harness.slash(ALICE, "settings")
    assert harness.replies(p) == [REFUSED]
    assert harness.fake.last_private(ALICE.id) is None


async def test_an_admin_changes_preset_switches_timer_and_language(harness: Harness) -> None:
    h = harness
    await h.slash(ADMIN, "settings")
    msg = await panel(h)
    assert msg.place == "ephemeral" and "大纲" in msg.content
    preset = find(msg, "gj:s:", "preset")
    assert preset is not None and options(msg, preset) == [
        "dagang", "qingdao", "weifang", "dazhong", "match",
    ]  # fmt: skip
    await h.choose(ADMIN, msg, preset, "qingdao")
    settings = await h.manager.group_settings(CHAT)
    assert settings.preset == "qingdao"
    assert "青岛场" in (await panel(h)).content

    async def set_value(name: str, value: str) -> None:
        msg = await panel(h)
        picker = find(msg, "gj:s:", "pick")
        assert picker is not None
        if name not in options(msg, picker):
            await h.choose(ADMIN, msg, picker, options(msg, picker)[-1])  # more…
            msg = await panel(h)
            picker = find(msg, "gj:s:", "pick")
            assert picker is not None and name in options(msg, picker)
        await h.choose(ADMIN, msg, picker, name)
        msg = await panel(h)
        menu = find(msg, "gj:s:", f"val.{name}")
        assert menu is not None and value in options(msg, menu)
        await h.choose(ADMIN, msg, menu, value)

    await set_value("kill_two_big", "b1")
    await set_value("turn_seconds", "i30")
    await set_value("match_hands", "i8")
    await set_value("lang", "sen")
    settings = await h.manager.group_settings(CHAT)
    assert dict(settings.overrides) == {"kill_two_big": True}
    assert (settings.turn_seconds, settings.match_hands, settings.lang) == (30, 8, "en")
    msg = await panel(h)
    assert "Server settings" in msg.content and "Two big jokers kill one = on" in msg.content
    reset = find(msg, "gj:e:", "reset")
    assert reset is not None
    await h.press(ADMIN, msg, reset)
    assert (await h.manager.group_settings(CHAT)).overrides == ()
    # A value the switch does not take is refused without a change.
    msg = await panel(h)
    await h.choose(ADMIN, msg, find(msg, "gj:s:", "pick") or "", "burn_limit")
    msg = await panel(h)
    menu = find(msg, "gj:s:", "val.burn_limit")
    assert menu is not None
    bad = copy.deepcopy(msg)
    bad.component(menu)["options"].append({"label": "99", "value": "i99"})
    p = await h.choose(ADMIN, bad, menu, "i99")
    assert h.replies(p) == ["I don't recognize this button; please use the latest message."]
    assert (await h.manager.group_settings(CHAT)).rules().burn_limit == 2


async def test_members_cannot_use_an_admins_panel(harness: Harness) -> None:
    h = harness
    await h.slash(ADMIN, "settings")
    leaked = copy.deepcopy(await panel(h))
    leaked.place, leaked.user, leaked.channel_id = "channel", None, CHANNEL_ID
    preset = find(leaked, "gj:s:", "preset")
    assert preset is not None
    p = await h.choose(ALICE, leaked, preset, "match")
    assert h.replies(p) == [REFUSED]
    assert (await h.manager.group_settings(CHAT)).preset == "dagang"
