"""The web table's HTTP API over loopback: sessions, state, actions, refusals, the stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from bot.table import TableStatus

from .harness import WANG, WebHarness, get_json, post_json, telegram_init_data, web_table


async def session_token(w: WebHarness, s: aiohttp.ClientSession, who: dict[str, Any] = WANG) -> str:
    status, body = await post_json(
        s, w.base + "/api/session", {"t": w.key, "init_data": telegram_init_data(who)}
    )
    assert status == 200 and body["ok"], body
    return str(body["s"])


async def decide(w: WebHarness, s: aiohttp.ClientSession, token: str) -> bool:
    """One decision through the API, as a page would make it; False when none is due."""
    status, view = await get_json(s, w.base + "/api/state", t=w.key, s=token)
    assert status == 200
    me = view["private"]
    if me is None:
        return False
    body: dict[str, Any] = {"t": w.key, "s": token, "version": view["public"]["version"]}
    if me["returns"]:
        body.update(
            op="return", cards=me["returns"][0]["options"][0], target=me["returns"][0]["giver"]
        )
    elif me["ready"]:
        body.update(op="ready")
    elif me["role"] == "turn" and me["suggest"]:
        sug = me["suggest"][0]
        body.update(op=sug["kind"], cards=sug["cards"])
    elif me["role"] == "turn":
        ops = [a["op"] for a in me["simple"]]
        body.update(op="pass" if "pass" in ops else ops[0])
    else:
        return False
    status, answer = await post_json(s, w.base + "/api/act", body)
    if status == 429:  # more than 10 a second: a page waits too
        await asyncio.sleep(0.1)
        return True
    assert status == 200 and answer["ok"], answer
    return True


async def test_a_whole_hand_through_the_api() -> None:
    async with web_table() as w, aiohttp.ClientSession() as s:
        await w.seat_table()
        token = await session_token(w, s)
        hand_no = w.h.manager.snapshot(w.key).hand_no  # type: ignore[union-attr]
        acted = 0
        for _ in range(3000):
            snap = w.h.manager.snapshot(w.key)
            assert snap is not None
            if snap.status is not TableStatus.PLAYING or snap.hand_no != hand_no:
                break
            if await decide(w, s, token):
                acted += 1
            else:
                await w.h.tick(1.0)
        else:
            raise AssertionError("the hand did not finish")
        assert acted >= 3
        # The page's plays were the group's plays: the table message shows the hand over.
        await w.h.drain()
        texts = w.h.group_texts()
        assert texts, "the group heard of the hand"


async def test_refusals_carry_no_table_data() -> None:
    async with web_table() as w, aiohttp.ClientSession() as s:
        await w.seat_table()
        url = w.base + "/api/state"
        for token in (
            "",
            "101.1.00",
            w.token("101", ttl=-10),
            w.token("101").replace("101", "102", 1),
        ):
            status, body = await get_json(s, url, t=w.key, s=token)
            assert status == 401 and set(body) == {"ok", "error", "text"}, body
        other = telegram_init_data(WANG, token="999:another-bot")
        status, body = await post_json(s, w.base + "/api/session", {"t": w.key, "init_data": other})
        assert status == 401 and "s" not in body
        # A token for another table is refused at this one.
        status, _ = await get_json(s, url, t="tg:-1:", s=w.token("101"))
        assert status == 401
        # A spectator sees the table, and no hand; may not act.
        spectator = w.token("")
        status, view = await get_json(s, url, t=w.key, s=spectator)
        assert status == 200 and view["private"] is None
        status, body = await post_json(
            s, w.base + "/api/act", {"t": w.key, "s": spectator, "op": "pass", "version": 1}
        )
        assert status == 403


async def test_rate_limit_and_bad_input() -> None:
    async with web_table() as w, aiohttp.ClientSession() as s:
        await w.seat_table()
        token = w.token(str(WANG["id"]))
        statuses = []
        for _ in range(14):
            status, _ = await post_json(
                s,
                w.base + "/api/act",
                {"t": w.key, "s": token, "op": "play", "cards": "33333333333", "version": 0},
            )
            statuses.append(status)
        assert statuses[:10] == [409] * 10  # refused: not offered (stale version)
        assert 429 in statuses[10:]
        async with s.post(w.base + "/api/act", data=b"not json") as r:
            assert r.status == 400


async def test_stream_pushes_each_version_and_resumes() -> None:
    async with web_table() as w, aiohttp.ClientSession() as s:
        await w.seat_table()
        token = w.token(str(WANG["id"]))
        url = f"{w.base}/api/events"
        async with s.get(url, params={"t": w.key, "s": token}) as r:
            assert r.headers["Content-Type"].startswith("text/event-stream")
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
            first = await next_event(r)
            v0 = first["public"]["version"]
            # Another front end changes the table (托管 from the chat): the page hears it.
            await w.h.manager.handle(autoplay(w, True))
            second = await asyncio.wait_for(next_event(r), 1.0)
            assert second["public"]["version"] > v0 and second["private"]["autoplay"] is True
            seen = second["public"]["version"]
        # Reconnecting with the last version seen: nothing until the next change.
        async with s.get(
            url, params={"t": w.key, "s": token}, headers={"Last-Event-ID": str(seen)}
        ) as r:
            await w.h.manager.handle(autoplay(w, False))
            third = await asyncio.wait_for(next_event(r), 1.0)
            assert third["public"]["version"] > seen


def autoplay(w: WebHarness, on: bool) -> Any:
    from bot.table import Actor, ChatRef, SetAutoplay

    return SetAutoplay(chat=ChatRef.from_key(w.key), actor=Actor(str(WANG["id"]), "老王"), on=on)


async def next_event(r: aiohttp.ClientResponse) -> dict[str, Any]:
    data = ""
    while True:
        line = (await r.content.readline()).decode()
        if line.startswith("data: "):
            data += line[6:]
        elif line == "\n" and data:
            return json.loads(data)  # type: ignore[no-any-return]


async def test_texts_in_both_languages_and_security_headers() -> None:
    async with web_table() as w, aiohttp.ClientSession() as s:
        zh = await get_json(s, w.base + "/api/texts", lang="zh")
        en = await get_json(s, w.base + "/api/texts", lang="en")
        assert zh[0] == en[0] == 200 and set(zh[1]) == set(en[1])
        assert zh[1]["web_btn_play"] == "出牌" and en[1]["web_btn_play"] == "Play"
        async with s.get(w.base + "/app") as r:
            page = await r.text()
            csp = r.headers["Content-Security-Policy"]
        assert "<script src=" in page and "<script>" not in page  # no inline script
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        async with s.get(w.base + "/static/app.js") as r:
            assert r.status == 200 and "GoujiTable" in await r.text()
        async with s.get(w.base + "/static/../pages.py") as r:
            assert r.status == 404
