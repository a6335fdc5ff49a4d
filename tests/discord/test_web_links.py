"""With the web table on (GOUJI_WEB_URL), Discord links it: the channel's table message
a spectator page, each player's hand view their own signed page, /gouji replay the
finished hand's page. Through the real bot on the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.web.auth import check_seat
from adapters.web.config import WebConfig, replay_scope
from bot.store import Store
from bot.table import FakeClock, TableManager

from .conftest import ALICE, CHAT, Harness, running_bot, view_timers
from .fake import FakeDiscord, Msg
from .test_records import play_one_hand

WEB = WebConfig("https://gouji.example.org", "127.0.0.1", 0, b"discord-links")


@pytest.fixture
async def linked(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    store = Store(tmp_path / "dc.sqlite3")
    await store.open()
    clock = FakeClock()
    manager = TableManager(store=store, clock=clock, seed_source=lambda: 7)
    async with running_bot(manager, web=WEB) as bot:
        h = Harness(fake, manager, clock, bot)
        yield h
        await h.settle()
        for task in view_timers():
            task.cancel()
    await store.close()


def links(msg: Msg) -> list[str]:
    return [
        str(c["url"]) for row in msg.components for c in row.get("components", []) if c.get("url")
    ]


def token(url: str) -> str:
    return url.split("&s=", 1)[1]


async def test_discord_links_the_web_table(linked: Harness) -> None:
    h = linked
    await play_one_hand(h, hands=2)  # the match goes on: the table message links a page
    (watch,) = links(h.fake.table_message())
    assert check_seat(WEB.secret, CHAT.key, token(watch), 0).spectator
    hand_views = [m for m in h.fake.private_messages(ALICE.id) if links(m)]
    assert hand_views, "the hand view links the player's own page"
    own = check_seat(WEB.secret, CHAT.key, token(links(hand_views[-1])[0]), 0)
    assert own.user_id == str(ALICE.id)

    await h.slash(ALICE, "replay", id=1)
    summary = next(m for m in h.fake.channel_messages() if "gouji-1.json" in m.files)
    (url,) = links(summary)
    assert "/replay?" in url and "&n=1&" in url
    assert check_seat(WEB.secret, replay_scope(CHAT.key, 1), token(url), 0).spectator
