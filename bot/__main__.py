"""The ``gouji`` command line: chat bots when tokens are set, else a table in the terminal.

The platform front ends are passed in by the composition root (``adapters/main.py``, the
``gouji`` entry point), so bot/ never imports an adapter."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .ai import search_pool
from .ai.levels import LEVELS
from .ai.search_pool import SEARCH_PROCESSES_ENV, SearchProcessesError, search_processes
from .engine.rules import PRESET_NAMES
from .frontend import FrontEnd, registered, with_token
from .records.cli import COMMANDS as RECORD_COMMANDS
from .records.cli import add_commands as add_record_commands
from .service import BotFactory, ChatBot


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gouji",
        description="够级 (Gouji): chat bots, or a table in this terminal.",
    )
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language (default zh)")
    p.add_argument("--preset", choices=PRESET_NAMES, default="dagang", help="house rules preset")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible match")
    p.add_argument(
        "--hands",
        type=_hands,
        default=None,
        help="hands in a terminal match, 0 to 50 (default 4; 0 means no limit: q ends it)",
    )
    p.add_argument(
        "--ai", choices=LEVELS, default="normal", help="how the AI seats play (default normal)"
    )
    p.add_argument("--watch", action="store_true", help="watch six AI seats play one hand")
    p.add_argument(
        "--no-save",
        action="store_true",
        help="do not keep the terminal's finished hands (default: in $GOUJI_DB or "
        "gouji.sqlite3, group console:local, for gouji export / replay)",
    )
    p.add_argument("--console", action="store_true", help="terminal table even if tokens are set")
    p.add_argument(
        "--shards",
        metavar="K/N",
        help="run shard K of N of a sharded chat bot in this worker (several workers: "
        "docs/store.md)",
    )
    sub = p.add_subparsers(dest="command")
    ref = sub.add_parser("referee", help="replay a rule scenario file (docs/rules.md §15)")
    ref.add_argument("file")
    ref.add_argument("--lang", choices=("zh", "en"), default=None, dest="ref_lang")
    add_record_commands(sub, p)
    demo = sub.add_parser("render-demo", help="write sample images for every preset")
    demo.add_argument("dir")
    return p


MAX_HANDS = 50  # the settings schema's bound on match_hands


def _hands(text: str) -> int:
    """``--hands``: 0 (no limit) to 50, refused by argparse as one line otherwise."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= n <= MAX_HANDS:
        raise argparse.ArgumentTypeError(f"{n} is not 0 to {MAX_HANDS} (0 means no limit)")
    return n


class UsageError(Exception):
    """A flag that cannot do anything in this combination: one line, exit status 2."""


def check_flags(args: argparse.Namespace, environ: Mapping[str, str]) -> None:
    """Refuse flags that would be silently ignored."""
    record = getattr(args, "record", None)
    if record and not args.watch:
        raise UsageError("--record writes the record of a watched hand: use it with --watch")
    if args.watch and args.hands is not None:
        raise UsageError("--watch plays one hand: --hands is for a match you play")
    if args.watch and args.no_save:
        raise UsageError("--no-save is for a match you play (--watch keeps nothing)")
    sharded = [f for f in registered() if f.shards]
    if args.shards and not any(environ.get(f.token_env) for f in sharded):
        raise UsageError(_shards_need(sharded))


def _shards_need(sharded: list[FrontEnd]) -> str:
    if not sharded:
        return "--shards splits a chat bot, and none here can be split"
    bots = " or ".join(f.name for f in sharded)
    return f"--shards splits the {bots} bot: set {' or '.join(f.token_env for f in sharded)}"


def log_level(environ: Mapping[str, str]) -> int:
    """``$GOUJI_LOG`` as a level, in any case (``info`` is INFO)."""
    name = environ.get("GOUJI_LOG", "WARNING").strip().upper()
    level = logging.getLevelName(name)
    if not isinstance(level, int):
        raise UsageError(
            f"GOUJI_LOG={environ.get('GOUJI_LOG')!r} is not a log level "
            "(DEBUG, INFO, WARNING, ERROR or CRITICAL)"
        )
    return level


@dataclass(frozen=True, slots=True)
class FrontEnds:
    """What only the adapters can do, as the composition root provides it."""

    console: Callable[[argparse.Namespace], int]  # a table in this terminal
    watch: Callable[[argparse.Namespace], int]  # six AI seats play one hand
    records: Callable[[argparse.Namespace], int | None]  # replay / export / watch --record
    build_bots: BotFactory  # the chat bots whose tokens are set


def main(argv: Sequence[str] | None, front: FrontEnds) -> int:
    """The command line, with what goes wrong said in one line and an exit status: a bad
    flag (2), an interruption (Ctrl-C: 130), a reader that went away (``| head``)."""
    try:
        return _main(argv, front)
    except UsageError as err:
        print(f"gouji: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (``| head -1``) has gone: say nothing more, to nobody.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a process a pipe ended


def _main(argv: Sequence[str] | None, front: FrontEnds) -> int:
    args = _parser().parse_args(argv)
    if args.command == "referee":
        from .engine.replay import main as referee

        return referee([args.file, "--lang", args.ref_lang or args.lang])
    if args.command == "render-demo":
        return _render_demo(args.dir)
    check_flags(args, os.environ)
    level = log_level(os.environ)
    logging.basicConfig(level=level)
    if os.environ.get("GOUJI_LOG_FORMAT") == "json":
        from .cluster import configure_logging, worker_id

        configure_logging(worker_id(), level)
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
    if with_token(os.environ) and not args.console:
        return _run_bots(args, front)
    if args.hands is None:
        args.hands = DEFAULT_HANDS
    return front.console(args)


DEFAULT_HANDS = 4


def _render_demo(directory: str) -> int:
    from render.demo import render_demo

    target = Path(directory)
    if target.exists() and not target.is_dir():
        print(f"gouji: {directory} is a file, not a directory", file=sys.stderr)
        return 2
    try:
        paths = render_demo(directory)
    except OSError as err:
        print(f"gouji: {directory}: {err.strerror or type(err).__name__}", file=sys.stderr)
        return 1
    print(f"wrote {len(paths)} images to {directory}")
    return 0


def _run_bots(args: argparse.Namespace, front: FrontEnds) -> int:
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
