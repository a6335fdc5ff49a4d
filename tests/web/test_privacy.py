"""No response of the web table carries another seat's cards, and a seat's own part holds
only what the manager offers it: random tables, every viewer, every state along the way.
``WebTable.view`` is what /api/state returns and what every /api/events event carries."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.web.auth import SPECTATOR, Seat
from adapters.web.config import WebConfig
from adapters.web.hub import Hub
from adapters.web.server import WebTable
from bot.engine.cards import fmt, parse
from bot.table import (
    Act,
    Actor,
    AddBots,
    ChatRef,
    FakeClock,
    GroupSettings,
    Join,
    OpenTable,
    Ready,
    Start,
    TableManager,
)

CHAT = ChatRef("dc", "77")
HUMANS = ("11", "12", "13")
VIEWERS = (*HUMANS, "99", SPECTATOR)  # the seated, a stranger, a spectator link


async def seated(seed: int) -> TableManager:
    m = TableManager(clock=FakeClock(), seed_source=lambda: seed)
    m.use_settings(CHAT, GroupSettings(turn_seconds=0, preset="dagang"))
    await m.handle(OpenTable(chat=CHAT, actor=Actor(HUMANS[0], "A")))
    for uid in HUMANS[1:]:
        await m.handle(Join(chat=CHAT, actor=Actor(uid, "P" + uid)))
    await m.handle(AddBots(chat=CHAT, actor=Actor(HUMANS[0], "A"), count=3))
    await m.handle(Start(chat=CHAT, actor=Actor(HUMANS[0], "A")))
    return m


def within(cards: str, hand: str) -> bool:
    have, want = parse(hand), parse(cards)
    return all(w <= h for w, h in zip(want, have, strict=True))


def private_strings(me: dict[str, Any]) -> list[str]:
    return (
        [p["cards"] for p in me["plays"]]
        + [s["cards"] for s in me["suggest"]]
        + [o for r in me["returns"] for o in r["options"]]
    )


async def check_views(m: TableManager, web: WebTable) -> int:
    t = m.tables[CHAT.key]
    st_ = t.run.state
    assert st_ is not None
    hands = {i + 1: fmt(h) for i, h in enumerate(st_.hands)}
    pv = st_
    public_cards = {pv.top_play.notation()} if pv.top_play else set()
    checked = 0
    for viewer in VIEWERS:
        seat = Seat(CHAT.key, viewer, 2**40)
        view = await web.view(seat)
        assert view is not None
        event = web.views.event(seat)  # what /api/events sends this page now
        assert event is not None
        sent = json.loads(event.text)
        assert (sent["public"], sent["private"]) == (view["public"], view["private"])
        own = t.seat_of(viewer) if viewer else None
        me = view["private"]
        if own is None:
            assert me is None
        else:
            assert me["seat"] == own and me["hand"] == hands[own]
            assert all(within(c, hands[own]) for c in private_strings(me))
        public = json.dumps(view["public"], ensure_ascii=False)
        for seat, hand in hands.items():
            if len(hand) >= 8 and hand not in public_cards:
                assert hand not in public, f"seat {seat}'s hand in the public view for {viewer!r}"
        checked += 1
    return checked


async def wander(seed: int, steps: int) -> int:
    m = await seated(seed)
    web = WebTable(m, WebConfig("https://x", "127.0.0.1", 0, b"k"), Hub(m))
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        if m.tables.get(CHAT.key) is None or m.tables[CHAT.key].run.state is None:
            break
        checked += await check_views(m, web)
        privs = [p for uid in HUMANS if (p := m.private_snapshot(CHAT.key, uid)) and p.legal]
        if privs:
            p = rng.choice(privs)
            action = rng.choice(p.legal)
            await m.handle(
                Act(chat=CHAT, actor=Actor(p.user_id, "x"), action=action, version=p.version)
            )
        else:
            for uid in HUMANS:
                await m.handle(Ready(chat=CHAT, actor=Actor(uid, "x")))
            m.clock.advance(5.0)  # type: ignore[attr-defined]
            await m.poll_timers()
    return checked


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(20, 120))
def test_no_response_carries_another_seats_cards(seed: int, steps: int) -> None:
    assert asyncio.run(wander(seed, steps)) > 0
