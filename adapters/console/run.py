"""Running a terminal table: until the match ends or you stop it, and watching six AI
seats play one hand."""

from __future__ import annotations

import asyncio
import signal
from types import FrameType
from typing import TextIO

from bot.engine.rules import PresetName
from bot.i18n.catalogue import Lang

from .app import ConsoleTable
from .thinking import Stopped


def play(table: ConsoleTable) -> int:
    """Run ``table`` until the match ends, q, end of input or Ctrl-C (all end it cleanly).

    asyncio.run would turn the first Ctrl-C into a cancellation that input() never sees
    (and the second into a traceback); with a handler of our own installed, asyncio leaves
    SIGINT alone and Ctrl-C interrupts the prompt at once, as q does. It also stops the AI
    seats, so a step deciding in a worker thread (the expert's search) ends at once.
    """

    def interrupt(signum: int, frame: FrameType | None) -> None:
        table.stop.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        return asyncio.run(table.run())
    except (KeyboardInterrupt, Stopped):
        return 0  # interrupted outside a prompt: nothing left to tidy in a terminal game
    finally:
        signal.signal(signal.SIGINT, previous)


async def watch(
    preset: PresetName,
    seed: int | None,
    lang: Lang,
    out: TextIO | None = None,
    ai_level: str = "normal",
) -> int:
    """Six AI seats play one hand; every play is printed, then the result."""
    table = ConsoleTable(
        preset=preset, seed=seed, lang=lang, hands=1, watch=True, out=out, ai_level=ai_level
    )
    return await table.run()
