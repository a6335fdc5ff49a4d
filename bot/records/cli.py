"""The record subcommands of ``gouji``: ``replay FILE``, ``review FILE --seat N`` and
``export``, and ``--record``.

Only argparse here; the composition root (``adapters/main.py``) runs them with the terminal
work of ``adapters.console.replay``."""

from __future__ import annotations

import argparse
from typing import Any

from ..frontend import registered

COMMANDS = ("replay", "review", "export")


def add_commands(sub: Any, parser: argparse.ArgumentParser) -> None:
    """Add ``replay``, ``review`` and ``export`` to the subparsers, ``--record`` to the
    main parser."""
    parser.add_argument(
        "--record", metavar="FILE", default=None, help="with --watch: write the hand's record"
    )
    rp = sub.add_parser("replay", help="step through a record (scenario file) in the terminal")
    rp.add_argument("file")
    rp.add_argument("--all", action="store_true", help="print every step without waiting")
    rp.add_argument("--lang", choices=("zh", "en"), default=None, dest="rec_lang")
    rv = sub.add_parser("review", help="a seat's three costliest decisions in a recorded hand")
    rv.add_argument("file")
    rv.add_argument("--seat", type=int, required=True, help="the seat to review (1-6)")
    rv.add_argument("--json", action="store_true", help="one JSON object per decision")
    rv.add_argument("--deals", type=int, default=None, help="deals per decision (default 36)")
    rv.add_argument("--hand", type=int, default=1, help="which hand of a match file (default 1)")
    rv.add_argument("--lang", choices=("zh", "en"), default=None, dest="rec_lang")
    ex = sub.add_parser("export", help="write a stored hand as a scenario file (docs/rules.md §15)")
    ex.add_argument("--db", required=True, help="the bot's SQLite file (or postgresql:// URL)")
    ex.add_argument(
        "--group",
        required=True,
        help="group key: "
        + "".join(f"{f.group_key_help}, " for f in registered())
        + "or console:local for the terminal (docs/records.md says how to find them)",
    )
    ex.add_argument("--hand", type=int, required=True, help="the hand's number in the group")
    ex.add_argument("--match", action="store_true", help="add the later hands of its match")
    ex.add_argument("--out", default=None, help="file to write (default: standard output)")
    ex.add_argument("--lang", choices=("zh", "en"), default=None, dest="rec_lang")
