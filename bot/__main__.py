"""The ``gouji`` command line: chat bots when tokens are set, else a table in the terminal.

The platform front ends are passed in by the composition root (``adapters/main.py``, the
``gouji`` entry point), so bot/ never imports an adapter."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .ai import search_pool
from .ai.levels import LEVELS
from .ai.search_pool import SEARCH_PROCESSES_ENV, SearchProcessesError, search_processes
from .engine.rules import PRESET_NAMES
from .records.cli import COMMANDS as RECORD_COMMANDS
from .records.cli import add_commands as add_record_commands
from .service import BotFactory, ChatBot


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gouji",
        description="够级 (Gouji): Telegram/Discord bot, or a table in this terminal.",
    )
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language (default zh)")
    p.add_argument("--preset", choices=PRESET_NAMES, default="dagang", help="house rules preset")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible match")
    p.add_argument("--hands", type=int, default=4, help="hands in a terminal match (default 4)")
    p.add_argument(
        "--ai", choices=LEVELS, default="normal", help="how the AI seats play (default normal)"
    )
    p.add_argument("--watch", action="store_true", help="watch six AI seats play one hand")
    p.add_argument("--console", action="store_true", help="terminal table even if tokens are set")
    p.add_argument(
        "--shards",
        metavar="K/N",
        help="run Discord shard K of N in this worker (several workers: docs/store.md)",
    )
    sub = p.add_subparsers(dest="command")
    ref = sub.add_parser("referee", help="replay a rule scenario file (RULES.md §15)")
    ref.add_argument("file")
    ref.add_argument("--lang", choices=("zh", "en"), default="zh", dest="ref_lang")
    add_record_commands(sub, p)
    demo = sub.add_parser("render-demo", help="write sample images for every preset")
    demo.add_argument("dir")
    return p


@dataclass(frozen=True, slots=True)
class FrontEnds:
    """What only the adapters can do, as the composition root provides it."""

    console: Callable[[argparse.Namespace], int]  # a table in this terminal
    watch: Callable[[argparse.Namespace], int]  # six AI seats play one hand
    records: Callable[[argparse.Namespace], int | None]  # replay / export / watch --record
    build_bots: BotFactory  # the chat bots whose tokens are set


def main(argv: Sequence[str] | None, front: FrontEnds) -> int:
    args = _parser().parse_args(argv)
    if args.command == "referee":
        from .engine.replay import main as referee

        return referee([args.file, "--lang", args.ref_lang])
    if args.command == "render-demo":
        from render.demo import render_demo

        paths = render_demo(args.dir)
        print(f"wrote {len(paths)} images to {args.dir}")
        return 0
    logging.basicConfig(level=os.environ.get("GOUJI_LOG", "WARNING"))
    if os.environ.get("GOUJI_LOG_FORMAT") == "json":
        from .cluster import configure_logging, worker_id

        configure_logging(worker_id(), logging.getLevelName(os.environ.get("GOUJI_LOG", "WARNING")))
    if args.command in RECORD_COMMANDS or (args.watch and args.record):
        return int(front.records(args) or 0)
    try:
        # The expert's playouts go to search processes, started at its first search.
        search_pool.configure(search_processes(os.environ.get(SEARCH_PROCESSES_ENV)))
    except SearchProcessesError as err:
        print(f"gouji: {err}", file=sys.stderr)
        return 1  # as for the other settings a worker cannot start with
    if args.watch:
        return front.watch(args)
    tokens = os.environ.get("GOUJI_TELEGRAM_TOKEN") or os.environ.get("GOUJI_DISCORD_TOKEN")
    if tokens and not args.console:
        from .cluster.worker import ShardsError, parse_shards
        from .service import StartupError, run_bots

        try:
            shards = parse_shards(args.shards) if args.shards else None
        except ShardsError as err:
            print(f"gouji: {err}", file=sys.stderr)
            return 2
        try:
            return asyncio.run(run_bots(front.build_bots, shards))
        except StartupError as err:
            print(f"gouji: {err}", file=sys.stderr)
            return 1
    return front.console(args)


def _needs_adapters(*_: object) -> int:
    print("gouji: this needs the chat and terminal front ends: run `gouji`", file=sys.stderr)
    return 2


def _no_bots(*_: object) -> list[ChatBot]:
    return []


# ``python -m bot``: the commands that need no front end (referee, render-demo).
BARE = FrontEnds(
    console=_needs_adapters, watch=_needs_adapters, records=_needs_adapters, build_bots=_no_bots
)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], BARE))
