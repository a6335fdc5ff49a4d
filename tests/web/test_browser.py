"""The page in a real browser: opened exactly as Telegram opens a Mini App (the signed
``#tgWebAppData`` fragment), a whole hand played against five AI seats by tapping cards,
and the group's table message on the fake Bot API following it; then a Discord link."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.table import Actor, AddBots, ChatRef, OpenTable, SetAutoplay, Start, TableStatus

from ..telegram.harness import GROUP_ID, FakeRenderer
from .browser import DESKTOP, PHONE, chromium, shot_dir
from .harness import WANG, WebHarness, web_table

HAND_DONE = 240.0  # seconds of real time a hand may take in the browser


async def shot(page: Any, path: Path) -> None:
    # The page's last-resort CJK font (this machine has no Chinese font of its own).
    await page.evaluate("() => document.fonts.load('16px GoujiCJK', '够').then(() => true)")
    await page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => ok(true)))")
    await page.screenshot(path=str(path))


async def view_of(page: Any) -> dict[str, Any] | None:
    return await page.evaluate("() => window.GoujiTable && window.GoujiTable.state.view")  # type: ignore[no-any-return]


async def tap_cards(page: Any, cards: str) -> None:
    """Select exactly ``cards`` by tapping: each tap on a rank adds one more of it."""
    clear = page.locator("[data-action=clear]")
    if await clear.count():
        await clear.first.click()
    for ch in dict.fromkeys(cards):
        for _ in range(cards.count(ch)):
            await page.locator(f'[data-card="{ch}"]').last.click()


async def check_legality_match(page: Any, me: dict[str, Any]) -> None:
    """出牌 is on exactly when the selection is one of the plays the server sent."""
    legal = {p["cards"] for p in me["plays"] if "play" in p["kinds"]}
    for ch in dict.fromkeys(me["hand"]):
        await tap_cards(page, ch)
        enabled = await page.locator("[data-action=play]").is_enabled()
        assert enabled == (ch in legal), f"selection {ch}: 出牌 {enabled}, legal {ch in legal}"
        if not enabled:
            return  # one refused selection is enough per turn


async def take_turn(page: Any, me: dict[str, Any], turns: int) -> str:
    """One decision on the page; what was done."""
    if me["returns"]:
        await tap_cards(page, me["returns"][0]["options"][0])
        await page.locator("[data-action=return]").click()
        return "return"
    if me["ready"]:
        await page.locator("[data-action=ready]").click()
        return "ready"
    if me["role"] != "turn":
        return ""
    plays = [p for p in me["plays"] if "play" in p["kinds"]]
    if not plays:
        await page.locator("[data-action=pass]").click()
        return "pass"
    if turns % 3 == 2 and me["suggest"]:
        await page.locator("[data-suggest]").first.click()
        return "chip"
    cards = me["suggest"][0]["cards"] if me["suggest"] else plays[0]["cards"]
    await check_legality_match(page, me)
    await tap_cards(page, cards)
    play = page.locator("[data-action=play]")
    assert await play.is_enabled(), f"出牌 stays off for the legal play {cards}"
    await play.click()
    return "tap"


async def play_hand(w: WebHarness, page: Any, shots: Path) -> list[str]:
    done: list[str] = []
    start = w.h.manager.snapshot(w.key)
    assert start is not None
    deadline = time.monotonic() + HAND_DONE
    last_version = -1
    while time.monotonic() < deadline:
        snap = w.h.manager.snapshot(w.key)
        assert snap is not None
        if snap.status is not TableStatus.PLAYING or snap.hand_no != start.hand_no:
            return done
        view = await view_of(page)
        me = view and view["private"]
        if (
            not me
            or view["public"]["version"] == last_version
            or await page.locator("button:disabled[data-action=clear]").count()
        ):
            await asyncio.sleep(0.05)
            continue
        what = await take_turn(page, me, len(done))
        if what:
            last_version = view["public"]["version"]
            done.append(what)
            if len(done) == 4:
                await shot(page, shots / "web-phone.png")
        else:
            await asyncio.sleep(0.05)
    raise AssertionError(f"the hand did not finish in the browser ({done})")


async def test_telegram_mini_app_plays_a_whole_hand(tmp_path: Path) -> None:
    shots = shot_dir(tmp_path)
    async with chromium() as browser, web_table() as w:
        await w.seat_table()
        hand_msg = w.h.hand_message(WANG)
        (url,) = [d for t, d in hand_msg.buttons() if t == "🃏 打开牌桌"]
        assert url == w.config.app_url(w.key)
        edits_before = len(w.h.fake.sends_to(-100500)) + len(w.h.fake.calls)
        w.start_ticking()
        page = await browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(w.telegram_url())
        await page.wait_for_selector("[data-card]")
        assert await page.locator("[data-seat]").count() == 6
        assert await page.locator("[data-card]").count() == 36
        done = await play_hand(w, page, shots)
        assert done.count("tap") >= 3, done
        await page.set_viewport_size(DESKTOP)
        await shot(page, shots / "web-desktop-end.png")
        assert not errors, errors
        # The group's table message followed the plays made on the page.
        await w.h.drain()
        snap = w.h.manager.snapshot(w.key)
        assert snap is not None and snap.hand_no >= 1
        assert w.h.table_message().photo == FakeRenderer().table(snap)
        assert len(w.h.fake.calls) > edits_before
        version = await page.locator("#root").get_attribute("data-version")
        assert version is not None and int(version) >= snap.version - 1


async def test_discord_personal_link_and_spectator(tmp_path: Path) -> None:
    shots = shot_dir(tmp_path)
    async with chromium() as browser, web_table() as w:
        chat, me = ChatRef("dc", "555"), Actor("9001", "Dora")
        m = w.h.manager
        await m.handle(OpenTable(chat=chat, actor=me))
        await m.handle(AddBots(chat=chat, actor=me, count=5))
        await m.handle(Start(chat=chat, actor=me))
        w.start_ticking()
        page = await browser.new_page(viewport=DESKTOP)
        await page.goto(w.config.seat_url(chat.key, "9001"))
        await page.wait_for_selector("[data-card]")
        assert await page.locator("[data-card]").count() == 36
        mine = page.locator("[data-seat].mine")
        assert await mine.count() == 1
        # 报户: the button, then the seat to ask; the answer comes back as a toast.
        await page.locator("[data-action=count]").click()
        await page.locator('[data-seat="4"]').click()
        toast = page.locator("#toast")
        await toast.wait_for(state="visible")
        assert (await toast.text_content() or "").strip()
        await shot(page, shots / "web-desktop.png")
        await page.set_viewport_size(PHONE)
        await shot(page, shots / "web-phone-discord.png")
        # The channel's spectator link: the table, no hand, no buttons.
        watch = await browser.new_page(viewport=PHONE)
        await watch.goto(w.config.spectator_url(chat.key))
        await watch.wait_for_selector("[data-seat]")
        assert await watch.locator("[data-card]").count() == 0
        assert await watch.locator("[data-action]").count() == 0
        await shot(watch, shots / "web-spectator.png")
        # A link someone edited to another user's seat: refused, nothing shown.
        forged = w.config.seat_url(chat.key, "9001").replace("s=9001", "s=9002")
        bad = await browser.new_page(viewport=PHONE)
        await bad.goto(forged)
        await bad.wait_for_selector("#root[data-error]")
        assert await bad.locator("[data-seat]").count() == 0


async def test_replay_in_the_page(tmp_path: Path) -> None:
    """/replay in the group links the finished hand in the page, every hand face up."""
    shots = shot_dir(tmp_path)
    async with chromium() as browser, web_table(db_dir=tmp_path) as w:
        await w.seat_table()
        chat, me = ChatRef.from_key(w.key), Actor(str(WANG["id"]), "老王")
        await w.h.manager.handle(SetAutoplay(chat=chat, actor=me, on=True))
        for _ in range(600):
            snap = w.h.manager.snapshot(w.key)
            if snap is None or snap.status is not TableStatus.PLAYING:
                break
            await w.h.tick(2.0)
        await w.h.say(WANG, "/replay")
        await w.h.drain()
        links = [
            d for m in w.h.fake.in_chat(GROUP_ID) for t, d in m.buttons() if t == "🃏 在网页中回放"
        ]
        assert len(links) == 1 and "/replay?" in links[0]
        page = await browser.new_page(viewport=PHONE)
        await page.goto(links[0])
        await page.wait_for_selector(".seathand[data-seat]")
        assert await page.locator(".seathand[data-seat]").count() == 6
        dealt = await page.locator(".seathand .card").count()
        assert dealt > 100  # the start of play: every hand face up
        await page.locator("[data-step=next]").click()
        assert await page.locator("#root").get_attribute("data-version") == "1"
        await shot(page, shots / "web-replay.png")
        # A link to the same hand with another number is refused.
        await page.goto(links[0].replace("&n=1&", "&n=2&"))
        await page.wait_for_selector("#root[data-error]")
