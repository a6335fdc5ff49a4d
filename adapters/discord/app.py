"""The Discord bot: a discord.py client around the shared table manager.

``start`` returns once logged in (commands synced) and leaves the gateway connection
running as a task, so Telegram and Discord share one event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.frontend import FrontEnd
from bot.i18n import use_wording, wording
from bot.table import Out, TableManager

from ..drawing import Drawer
from ..frontends import DISCORD
from ..web.config import WebConfig
from .cog import GoujiCog
from .controller import Controller
from .items import GoujiItem
from .pacing import Timing
from .sender import Sender
from .translator import GoujiTranslator

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """Guilds only: slash commands and buttons need no privileged intent at all."""
    return discord.Intents(guilds=True)


class GoujiTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every slash command's task speaks Discord's words (/gouji replay, 本服) where a
        shared text names Telegram's (bot.i18n.use_wording)."""
        use_wording("dc")
        return True


class GoujiClient(commands.Bot):
    def __init__(self, owner: DiscordBot, **options: Any) -> None:
        super().__init__(
            tree_cls=GoujiTree,
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.owner = owner

    @property
    def gouji(self) -> Controller:
        """What every GoujiItem and listener hands its interaction to."""
        return self.owner.controller

    async def setup_hook(self) -> None:
        await self.owner.install()
        try:
            await self.owner.sync()
        except discord.HTTPException as err:
            # The commands registered last time still work; a failed sync must not
            # keep the tables (and the Telegram side) from running.
            log.error("syncing slash commands failed: %s", err)


class DiscordBot:
    """The Discord front end: a gateway client, its slash commands and views, and the
    Sender that writes each table's channel through the shared pacing lane."""

    def __init__(
        self,
        manager: TableManager,
        token: str,
        guild_id: int | None = None,
        *,
        table_interval: float = 2.0,
        private_interval: float = 0.5,
        shard: tuple[int, int] | None = None,
        timing: Timing | None = None,
        drawer: Drawer | None = None,
        web: WebConfig | None = None,
        **client_options: Any,
    ) -> None:
        self.manager = manager
        self.token = token
        self.guild_id = guild_id
        self.shard = shard
        if shard is not None:
            # One shard of N per worker: any worker answers any interaction (the tables
            # are in the shared store); DMs and their button presses come to shard 0.
            client_options.update(shard_id=shard[0], shard_count=shard[1])
        self.client = GoujiClient(self, **client_options)
        self.sender = Sender(self.client, manager, table_interval, private_interval, timing, drawer)
        self.controller = Controller(manager, self.sender)
        if web is not None:
            self.sender.seat_link = web.seat_url
            self.sender.watch_link = web.spectator_url
            self.controller.records.replay_link = web.replay_url
        # A drawer it was given is shared (adapters/main.py: with the Telegram bot), and
        # ends with the process; one it made itself it closes when it stops.
        self._own_drawer = drawer is None
        manager.subscribe(self._on_out, DISCORD, hands=True)
        self._installed = False
        self._gateway: asyncio.Task[None] | None = None

    @property
    def front_end(self) -> FrontEnd:
        return DISCORD

    async def _on_out(self, out: Out) -> None:
        """The manager's outputs, laid out in Discord's own words (``wording``): the
        manager calls every front end in the task that made the output."""
        with wording("dc"):
            await self.sender.on_out(out)

    async def install(self) -> None:
        """Commands, persistent buttons and translations (once; called by setup_hook)."""
        if self._installed:
            return
        self._installed = True
        await self.client.tree.set_translator(GoujiTranslator())
        await self.client.add_cog(GoujiCog(self.controller))
        self.client.add_dynamic_items(GoujiItem)
        self.client.tree.error(self.controller.on_error)
        self.client.add_listener(self.controller.on_interaction, "on_interaction")

    async def sync(self) -> None:
        """Register the slash commands: in the test guild at once, or globally (by shard 0
        only, when sharded: the commands are the application's, not the shard's)."""
        if self.shard is not None and self.shard[0] != 0:
            return
        tree = self.client.tree
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
        else:
            synced = await tree.sync()
        log.info("synced %d Discord commands", len(synced))

    async def start(self) -> None:
        await self.client.login(self.token)
        self.sender.draw.start()  # the drawing process loads while the gateway connects
        self._gateway = asyncio.create_task(self.client.connect(), name="discord-gateway")
        self._gateway.add_done_callback(_report)

    async def stop(self) -> None:
        # Let the last edits go out, but never hang a shutdown on Discord.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.sender.drain(), timeout=3)
        await self.sender.close()
        if self._own_drawer:
            self.sender.draw.close()
        await self.client.close()
        if self._gateway is not None:
            self._gateway.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._gateway


def _report(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    err = task.exception()
    if err is not None:
        log.error("Discord gateway stopped: %r", err)
