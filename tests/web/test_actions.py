"""A page's request becomes one of the manager's commands only when the seat's menu
offers exactly that; anything else is refused before the manager sees it."""

from __future__ import annotations

from typing import Any

from adapters.web.actions import Refused, command_of
from bot.engine.actions import ActionKind
from bot.engine.cards import fmt
from bot.table import Act, Actor, AskCount, Ready, SetAutoplay

from .test_privacy import CHAT, HUMANS, seated


async def test_requests_and_refusals() -> None:
    m = await seated(4)
    for _ in range(40):  # past the declaration pause, to a seat with plays to make
        privs = [p for uid in HUMANS if (p := m.private_snapshot(CHAT.key, uid)) is not None]
        playing = [p for p in privs if p.menu.ranks]
        if playing:
            break
        for uid in HUMANS:
            await m.handle(Ready(chat=CHAT, actor=Actor(uid, "x")))
        m.clock.advance(5.0)  # type: ignore[attr-defined]
        await m.poll_timers()
    priv = playing[0]
    me = Actor(priv.user_id, "x")

    def cmd(**body: Any) -> Any:
        return command_of(body, CHAT, me, priv)

    assert isinstance(cmd(op="autoplay", on=True), SetAutoplay)
    assert cmd(op="autoplay", on="yes") == Refused("web_bad_request")
    assert isinstance(cmd(op="ready"), Ready)
    assert isinstance(cmd(op="count", target=3), AskCount)
    assert cmd(op="count", target=7) == Refused("web_bad_request")
    assert cmd(op="count", target=True) == Refused("web_bad_request")
    assert cmd(op="pass") == Refused("web_bad_request")  # no version
    assert cmd(op="pass", version=priv.version - 1) == Refused("stale")
    assert cmd(op="teleport", version=priv.version) == Refused("stale")
    for odd in ([], {}, ["play"], None, 1):  # JSON that is no op: refused, never a 500
        assert cmd(op=odd, cards="3", version=priv.version) == Refused("web_bad_request")
    assert cmd(op="play", cards="xyz", version=priv.version) == Refused("web_bad_request")
    assert cmd(op="play", cards="3" * 41, version=priv.version) == Refused("web_bad_request")
    plays = [v for r in priv.menu.ranks for s in r.sizes for v in s.variants]
    offered = cmd(op=plays[0].kinds[0].value, cards=fmt(plays[0].cards), version=priv.version)
    assert isinstance(offered, Act) and offered.action.cards == plays[0].cards
    # A hand's worth of cards the seat does not hold as one play: not offered.
    assert cmd(op="play", cards="SSSSBBBB", version=priv.version) == Refused("stale")
    for action in priv.menu.simple:
        if action.kind is ActionKind.PASS:
            assert isinstance(cmd(op="pass", version=priv.version), Act)
