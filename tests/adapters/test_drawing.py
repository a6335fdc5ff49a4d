"""Pictures are drawn off the event loop, by default in a low-priority process that leaves
with its worker (adapters/drawing.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from adapters.discord import images
from adapters.drawing import BACKGROUND_NICE, DRAW_PROCESSES_ENV, Drawer, draw_processes
from adapters.telegram.views import PillowRenderer
from bot.service import StartupError
from bot.table import Actor, AddBots, ChatRef, FakeClock, OpenTable, Start, TableManager
from render.replay import frame_png
from render.replay_golden import sample_frames
from render.samples import SAMPLE_NAMES, sample_state

from ..children import assert_children_leave_with_a_killed_parent

PNG = b"\x89PNG\r\n\x1a\n"
CHAT = ChatRef("tg", "-1001")
ME = Actor("1", "老王")


def test_the_setting_defaults_to_one_process_and_refuses_nonsense() -> None:
    assert draw_processes(None) == draw_processes("") == draw_processes(" ") == 1
    assert draw_processes("0") == 0 and draw_processes(" 3 ") == 3
    for bad in ("two", "-1", "17", "1.5"):
        with pytest.raises(StartupError, match=DRAW_PROCESSES_ENV) as err:
            draw_processes(bad)
        assert repr(bad) in str(err.value)


def _priority() -> tuple[int, int]:
    return os.getpid(), os.getpriority(os.PRIO_PROCESS, 0)


async def test_a_process_drawer_draws_the_real_pictures_elsewhere_at_low_priority() -> None:
    manager = TableManager(clock=FakeClock(), seed_source=lambda: 3)
    await manager.handle(OpenTable(chat=CHAT, actor=ME))
    await manager.handle(AddBots(chat=CHAT, actor=ME, count=5))
    await manager.handle(Start(chat=CHAT, actor=ME))
    snap = manager.snapshot(CHAT.key)
    priv = manager.private_snapshot(CHAT.key, "1")
    assert snap is not None and priv is not None
    renderer = PillowRenderer()
    result = sample_state("dagang", 3, None).result
    assert result is not None
    draw, here = Drawer(1), Drawer(0)
    try:
        pid, nice = await draw(_priority)
        assert pid != os.getpid()
        assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICE)
        hand = await draw(renderer.hand, priv, snap.names)
        table = await draw(renderer.table, snap)
        res = await draw(renderer.result, result, SAMPLE_NAMES, (4, -4), "zh", 1, "dagang", 2)
        # The same bytes as drawn here: the process changes where, not what.
        assert hand == renderer.hand(priv, snap.names) and hand.startswith(PNG)
        assert table == renderer.table(snap) and table.startswith(PNG)
        assert res.startswith(PNG)
        # Discord's drawing functions go the same way.
        names = list(snap.names)
        assert await images.hand_png(draw, priv, names) == await images.hand_png(here, priv, names)
        assert await images.table_png(draw, snap) == await images.table_png(here, snap)
        # A replay frame (what both adapters' steppers draw) alone, not the whole record.
        frame = sample_frames()[3]
        at = (frame.index, 9)
        png = await draw(frame_png, frame, SAMPLE_NAMES, 2, at, "zh")
        assert png == frame_png(frame, SAMPLE_NAMES, 2, at, "zh") and png.startswith(PNG)
    finally:
        draw.close()


async def test_a_drawing_process_that_died_is_replaced() -> None:
    draw = Drawer(1)
    try:
        first, _ = await draw(_priority)
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.2)
        second, _ = await draw(_priority)
        assert second not in (first, os.getpid())
    finally:
        draw.close()


def _children() -> dict[int, int]:
    """This process's children: pid -> nice."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                out[int(name)] = int(fields[16])
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_start_brings_the_drawing_process_up_before_the_first_picture() -> None:
    before = _children()
    draw = Drawer(1)
    try:
        draw.start()

        def drawing() -> list[int]:
            # the pool's process, once its start lowered its priority (multiprocessing's
            # resource tracker is a child too, at ours)
            kids = _children()
            return [pid for pid in kids if pid not in before and kids[pid] == 19]

        end = time.monotonic() + 10
        while not drawing() and time.monotonic() < end:
            time.sleep(0.05)
        assert len(drawing()) == 1
    finally:
        draw.close()


async def test_a_thread_drawer_draws_in_this_process() -> None:
    pid, _ = await Drawer(0)(_priority)
    assert pid == os.getpid()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_the_drawing_process_leaves_with_a_sigkilled_worker(tmp_path: Path) -> None:
    main = """
        import asyncio, os, time
        from adapters.drawing import Drawer

        async def draw_once() -> None:
            print(await Drawer(1)(os.getpid), flush=True)
            time.sleep(60)

        asyncio.run(draw_once())
    """
    assert_children_leave_with_a_killed_parent(tmp_path, main)


def test_the_worker_gives_its_adapters_one_drawer_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from adapters.discord import DiscordBot
    from adapters.main import build_bots
    from adapters.telegram import TelegramBot

    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("GOUJI_DISCORD_TOKEN", "abc")
    monkeypatch.delenv(DRAW_PROCESSES_ENV, raising=False)
    tg, dc = build_bots(TableManager())
    assert isinstance(tg, TelegramBot) and isinstance(dc, DiscordBot)
    assert tg.ctx.draw is dc.sender.draw and tg.ctx.draw.processes == 1
    monkeypatch.setenv(DRAW_PROCESSES_ENV, "0")
    tg, dc = build_bots(TableManager())
    assert isinstance(tg, TelegramBot) and tg.ctx.draw.processes == 0


def test_a_bad_drawing_setting_is_one_line_and_nothing_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adapters.main import main

    monkeypatch.setenv("GOUJI_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv(DRAW_PROCESSES_ENV, "lots")
    monkeypatch.setenv("GOUJI_DB", str(tmp_path / "g.sqlite3"))
    monkeypatch.delenv("GOUJI_DATABASE_URL", raising=False)
    assert main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"gouji: {DRAW_PROCESSES_ENV} must be") and err.count("\n") == 1
    assert "'lots'" in err


async def test_a_bot_that_stops_leaves_the_shared_drawing_process_to_the_other() -> None:
    from adapters.telegram import TelegramBot

    shared = Drawer(1)
    try:
        bot = TelegramBot(TableManager(), "123:abc", drawer=shared)
        before = await shared(os.getpid)
        await bot.stop()  # e.g. the Discord bot of the same worker still draws
        assert await shared(os.getpid) == before
    finally:
        shared.close()
