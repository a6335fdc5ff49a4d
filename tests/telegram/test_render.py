"""The real images (render/ through PillowRenderer): lobby table, table in play, hand, result."""

from __future__ import annotations

from adapters.telegram.views import PillowRenderer
from bot.table import Actor, AddBots, ChatRef, FakeClock, OpenTable, Start, TableManager
from render.samples import SAMPLE_NAMES, sample_state

PNG = b"\x89PNG\r\n\x1a\n"
CHAT = ChatRef("tg", "-1001")
ME = Actor("1", "老王")


async def test_png_images_for_every_message() -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 3)
    renderer = PillowRenderer()
    await manager.handle(OpenTable(chat=CHAT, actor=ME))
    lobby = manager.snapshot(CHAT.key)
    assert lobby is not None and lobby.public is None
    assert renderer.table(lobby).startswith(PNG)
    await manager.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await manager.handle(Start(chat=CHAT, actor=ME))
    snap = manager.snapshot(CHAT.key)
    priv = manager.private_snapshot(CHAT.key, "1")
    assert snap is not None and priv is not None
    assert renderer.table(snap).startswith(PNG)
    assert renderer.hand(priv, snap.names).startswith(PNG)
    result = sample_state("dagang", 3, None).result
    assert result is not None
    png = renderer.result(result, SAMPLE_NAMES, (4, -4), "zh", 1, "dagang", 2)
    assert png.startswith(PNG)
