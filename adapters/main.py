"""The composition root: the ``gouji`` command wires the platform adapters to bot/.

bot/ knows no platform; this module is the one place that imports both. It builds the
chat bots whose tokens are set, the terminal table and the record commands, and hands
them to the command line in ``bot.__main__`` (see docs/architecture.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from bot.__main__ import FrontEnds
from bot.__main__ import main as run_command_line
from bot.service import ChatBot
from bot.table import TableManager

from .drawing import Drawer
from .frontends import DISCORD, TELEGRAM
from .web import WebConfig


def build_bots(manager: TableManager, shards: tuple[int, int] | None = None) -> list[ChatBot]:
    """The adapters whose tokens are set in the environment (``shards``: this worker's
    Discord shard K of N)."""
    bots: list[ChatBot] = []
    # One drawing process per worker, shared by its adapters (adapters/drawing.py); it
    # ends with the process (at exit, or with it when it is killed), so no bot closes it.
    drawer = Drawer.from_env()
    web = WebConfig.from_env()  # None without GOUJI_WEB_URL; a bad one stops the start
    tg_token = os.environ.get(TELEGRAM.token_env)
    if tg_token:
        bots.append(_telegram(manager, tg_token, drawer, web))
    dc_token = os.environ.get(DISCORD.token_env)
    if dc_token:
        import discord

        from .discord import DiscordBot

        # The bot never joins voice: no "voice will NOT be supported" warnings at start.
        discord.VoiceClient.warn_nacl = False
        if hasattr(discord.VoiceClient, "warn_dave"):
            discord.VoiceClient.warn_dave = False

        guild = os.environ.get("GOUJI_DISCORD_GUILD_ID")
        bots.append(
            DiscordBot(
                manager,
                dc_token,
                guild_id=int(guild) if guild else None,
                shard=shards,
                drawer=drawer,
                web=web,
            )
        )
    if web is not None and bots:
        bots.append(_web(manager, web))
    return bots


def _telegram(manager: TableManager, token: str, drawer: Drawer, web: WebConfig | None) -> ChatBot:
    from .telegram import TelegramBot
    from .telegram.app import SHARED_BURST, TELEGRAM_RATE_ENV, telegram_rate

    calls = telegram_rate(os.environ.get(TELEGRAM_RATE_ENV))
    bot = TelegramBot(
        manager,
        token,
        api_url=os.environ.get("GOUJI_TELEGRAM_API_URL") or None,
        webhook_url=os.environ.get("GOUJI_TELEGRAM_WEBHOOK_URL") or None,
        webhook_port=int(os.environ.get("GOUJI_TELEGRAM_WEBHOOK_PORT", "8443")),
        listen=os.environ.get("GOUJI_TELEGRAM_WEBHOOK_HOST") or "0.0.0.0",
        webhook_secret=os.environ.get("GOUJI_TELEGRAM_WEBHOOK_SECRET") or None,
        calls_per_second=calls,
        drawer=drawer,
    )
    if manager.shared and manager.store is not None:
        from bot.cluster.ratebucket import SharedRate

        # Telegram counts the whole bot's calls: the workers take them from one bucket.
        shared = SharedRate(manager.store.background(), TELEGRAM.platform, calls, SHARED_BURST)
        bot.share_rate(shared)
    if web is not None:
        bot.link_web(web.app_url, web.replay_url)
    return bot


def _web(manager: TableManager, config: WebConfig) -> ChatBot:
    """The web table; with several workers it polls the tables its pages show (another
    worker's commit produces no output here), alone it needs only the manager's outputs."""
    from .web import WebServer
    from .web.hub import ALONE_POLL_SECONDS, POLL_SECONDS

    shared = manager.shared
    return WebServer(manager, config, poll_seconds=POLL_SECONDS if shared else ALONE_POLL_SECONDS)


def console(args: argparse.Namespace) -> int:
    from bot.store import default_db_path

    from .console import ConsoleTable, play

    table = ConsoleTable(
        preset=args.preset,
        seed=args.seed,
        lang=args.lang,
        hands=args.hands,
        ai_level=args.ai,
        # Finished hands go to the bots' file (group console:local), for gouji export.
        db_path=None if args.no_save else default_db_path(),
    )
    return play(table)


def watch(args: argparse.Namespace) -> int:
    from .console import ConsoleTable, play

    table = ConsoleTable(
        preset=args.preset, seed=args.seed, lang=args.lang, hands=1, watch=True, ai_level=args.ai
    )
    return play(table)  # Ctrl-C stops it at once, even mid-search


def records(args: argparse.Namespace) -> int | None:
    """Run a record command; None when ``args`` is not one."""
    from .console.replay import export_main, replay_main, watch_and_record

    lang = getattr(args, "rec_lang", None) or args.lang
    if args.command == "replay":
        return replay_main(args.file, lang, show_all=args.all)
    if args.command == "review":
        from .console.review import review_main

        return review_main(args.file, args.seat, lang, args.json, args.deals, args.hand)
    if args.command == "export":
        return asyncio.run(export_main(args.db, args.group, args.hand, args.match, args.out, lang))
    if args.watch and args.record:
        return asyncio.run(watch_and_record(args.preset, args.seed, lang, args.record))
    return None


FRONT_ENDS = FrontEnds(console=console, watch=watch, records=records, build_bots=build_bots)


def main(argv: Sequence[str] | None = None) -> int:
    return run_command_line(argv, FRONT_ENDS)


if __name__ == "__main__":
    sys.exit(main())
