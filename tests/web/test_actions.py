"""A page's request becomes one of the manager's commands only when the seat's menu
offers exactly that; anything else is refused before the manager sees it."""

from __future__ import annotations

from typing import Any

from adapters.press import Verdict
from adapters.press import press as judge
from adapters.web.actions import Refused, Request, request_of
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import fmt
from bot.present.controls import Control, Op
from bot.table import Actor, Ready, ReplyCode

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

    async def cmd(**body: Any) -> Any:
        """What the request comes to: the page's own refusal, or the press protocol's
        answer (a reply code) for the control it names."""
        asked = request_of(body)
        if isinstance(asked, Refused):
            return asked
        pressed = await judge(m, CHAT, me, asked.control, asked.version)
        assert pressed.reply is not None
        return asked.control, pressed.verdict, pressed.reply.key

    assert request_of({"op": "autoplay", "on": True}) == Request(Control(Op.AUTOPLAY, on=True), 0)
    assert await cmd(op="autoplay", on="yes") == Refused("web_bad_request")
    assert request_of({"op": "ready"}) == Request(Control(Op.READY), 0)
    assert request_of({"op": "count", "target": 3}) == Request(Control(Op.ASK, target=3), 0)
    assert await cmd(op="count", target=7) == Refused("web_bad_request")
    assert await cmd(op="count", target=True) == Refused("web_bad_request")
    assert await cmd(op="pass") == Refused("web_bad_request")  # no version
    assert await cmd(op="teleport", version=priv.version) == Refused("web_bad_request")
    odds: list[object] = [[], {}, ["play"], None, 1]
    for odd in odds:  # JSON that is no op: refused, never a 500
        assert await cmd(op=odd, cards="3", version=priv.version) == Refused("web_bad_request")
    assert await cmd(op="play", cards="xyz", version=priv.version) == Refused("web_bad_request")
    assert await cmd(op="play", cards="3" * 41, version=priv.version) == Refused("web_bad_request")
    version = m.snapshot(CHAT.key).version  # type: ignore[union-attr]
    stale = await cmd(op="pass", version=priv.version - 1)
    assert stale[1:] == (Verdict.REFUSED, ReplyCode.STALE)
    # A hand's worth of cards the seat does not hold as one play: not offered.
    forged = await cmd(op="play", cards="SSSSBBBB", version=priv.version)
    assert forged[1:] == (Verdict.REFUSED, ReplyCode.STALE)
    assert m.snapshot(CHAT.key).version == version  # type: ignore[union-attr]
    plays = [v for r in priv.menu.ranks for s in r.sizes for v in s.variants]
    asked = request_of(
        {"op": plays[0].kinds[0].value, "cards": fmt(plays[0].cards), "version": priv.version}
    )
    assert isinstance(asked, Request) and asked.control.action is not None
    assert asked.control.action.cards == plays[0].cards
    for action in priv.menu.simple:
        if action.kind is ActionKind.PASS:
            passed = request_of({"op": "pass", "version": priv.version})
            assert isinstance(passed, Request)
            assert passed.control == Control.act(Action(ActionKind.PASS))
