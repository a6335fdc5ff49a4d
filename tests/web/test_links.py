"""The chats link the web table: Telegram's hand message opens the seat as a Mini App,
Discord's hand view links the player's signed page and its table message a spectator
page; without GOUJI_WEB_URL nothing of it appears."""

from __future__ import annotations

import discord

from adapters.discord import DiscordBot
from adapters.discord.custom_ids import Ref
from adapters.discord.views import Pick, add_link, private_view, table_view
from adapters.web.auth import check_seat
from adapters.web.config import WebConfig
from bot.present.controls import controls_of
from bot.table import Actor, AddBots, ChatRef, FakeClock, OpenTable, Start, TableManager

from .harness import WANG, web_table

CONFIG = WebConfig("https://gouji.example.org", "127.0.0.1", 0, b"links-secret")
CHAT = ChatRef("dc", "4242")


async def dealt() -> TableManager:
    m = TableManager(clock=FakeClock(), seed_source=lambda: 3)
    me = Actor("9001", "Dora")
    await m.handle(OpenTable(chat=CHAT, actor=me))
    await m.handle(AddBots(chat=CHAT, actor=me, count=5))
    await m.handle(Start(chat=CHAT, actor=me))
    return m


def link_urls(view: discord.ui.View) -> list[str]:
    return [b.url for b in view.children if isinstance(b, discord.ui.Button) and b.url]


async def test_discord_hand_view_links_the_players_own_page() -> None:
    m = await dealt()
    bot = DiscordBot(m, "not-a-token", web=CONFIG)
    priv = m.private_snapshot(CHAT.key, "9001")
    snap = m.snapshot(CHAT.key)
    assert priv is not None and snap is not None
    view = bot.sender.with_seat_link(
        private_view(priv, Ref.from_key(CHAT.key), Pick(), controls_of(priv, snap)), priv
    )
    (url,) = link_urls(view)
    token = url.split("&s=", 1)[1]
    assert check_seat(CONFIG.secret, CHAT.key, token, 0).user_id == "9001"
    await bot.client.close()


async def test_discord_table_message_links_a_spectator_page() -> None:
    m = await dealt()
    snap = m.snapshot(CHAT.key)
    assert snap is not None
    view = add_link(table_view(snap, Ref.from_key(CHAT.key)), "👀", CONFIG.spectator_url(CHAT.key))
    (url,) = link_urls(view)
    assert check_seat(CONFIG.secret, CHAT.key, url.split("&s=", 1)[1], 0).spectator


async def test_no_web_url_no_links() -> None:
    m = await dealt()
    bot = DiscordBot(m, "not-a-token")
    priv = m.private_snapshot(CHAT.key, "9001")
    snap = m.snapshot(CHAT.key)
    assert priv is not None and snap is not None
    view = bot.sender.with_seat_link(
        private_view(priv, Ref.from_key(CHAT.key), Pick(), controls_of(priv, snap)), priv
    )
    assert link_urls(view) == []
    await bot.client.close()


async def test_telegram_hand_message_opens_the_mini_app() -> None:
    async with web_table() as w:
        await w.seat_table()
        buttons = dict(w.h.hand_message(WANG).buttons())
        assert buttons["🃏 打开牌桌"] == w.config.app_url(w.key)
        markup = w.h.hand_message(WANG).markup or {}
        web_apps = [b for row in markup["inline_keyboard"] for b in row if "web_app" in b]
        assert len(web_apps) == 1  # a web_app button, not a link
