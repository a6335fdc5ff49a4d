"""``/gouji …``: one slash-command group; each subcommand is a table-manager command."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.table import (
    AddBots,
    AskCount,
    ChatRef,
    Join,
    Leave,
    OpenTable,
    RemoveBot,
    Start,
    StopMatch,
)

from .controller import Controller, chat_of
from .translator import L

Interaction = discord.Interaction[Any]
Seat = app_commands.Range[int, 1, 6]


@app_commands.guild_only()
class GoujiCog(commands.GroupCog, group_name=L("group"), group_description=L("group_desc")):
    def __init__(self, controller: Controller) -> None:
        self.ctl = controller
        super().__init__()

    async def _server_chat(self, interaction: Interaction) -> ChatRef | None:
        """The channel's table key, or None after saying these commands need a server."""
        chat = chat_of(interaction)
        if chat is None:
            await self.ctl.say(interaction, t("dc_guild_only", "zh"))
        return chat

    @app_commands.command(name=L("new"), description=L("new_desc"))
    async def new(self, interaction: Interaction) -> None:
        await self.ctl.command(
            interaction, lambda c, a: OpenTable(chat=c, actor=a, sit=True), repost=True
        )

    @app_commands.command(name=L("join"), description=L("join_desc"))
    @app_commands.rename(seat=L("seat"))
    @app_commands.describe(seat=L("seat_desc"))
    async def join(self, interaction: Interaction, seat: Seat | None = None) -> None:
        await self.ctl.command(interaction, lambda c, a: Join(chat=c, actor=a, seat=seat))

    @app_commands.command(name=L("leave"), description=L("leave_desc"))
    async def leave(self, interaction: Interaction) -> None:
        await self.ctl.command(interaction, lambda c, a: Leave(chat=c, actor=a))

    @app_commands.command(name=L("addbot"), description=L("addbot_desc"))
    @app_commands.rename(number=L("number"))
    @app_commands.describe(number=L("number_desc"))
    async def addbot(
        self, interaction: Interaction, number: app_commands.Range[int, 1, 6] = 1
    ) -> None:
        await self.ctl.command(interaction, lambda c, a: AddBots(chat=c, actor=a, count=number))

    @app_commands.command(name=L("removebot"), description=L("removebot_desc"))
    @app_commands.rename(seat=L("seat"))
    @app_commands.describe(seat=L("seat_desc"))
    async def removebot(self, interaction: Interaction, seat: Seat | None = None) -> None:
        await self.ctl.command(interaction, lambda c, a: RemoveBot(chat=c, actor=a, seat=seat))

    @app_commands.command(name=L("start"), description=L("start_desc"))
    async def start(self, interaction: Interaction) -> None:
        await self.ctl.command(interaction, lambda c, a: Start(chat=c, actor=a))

    @app_commands.command(name=L("stop"), description=L("stop_desc"))
    async def stop(self, interaction: Interaction) -> None:
        await self.ctl.command(interaction, lambda c, a: StopMatch(chat=c, actor=a))

    @app_commands.command(name=L("settings"), description=L("settings_desc"))
    async def settings(self, interaction: Interaction) -> None:
        await self.ctl.settings_panel(interaction)

    @app_commands.command(name=L("rules"), description=L("rules_desc"))
    async def rules(self, interaction: Interaction) -> None:
        await self.ctl.rules(interaction)

    @app_commands.command(name=L("score"), description=L("score_desc"))
    async def score(self, interaction: Interaction) -> None:
        await self.ctl.score(interaction)

    @app_commands.command(name=L("stats"), description=L("stats_desc"))
    async def stats(self, interaction: Interaction) -> None:
        await self.ctl.stats(interaction)

    @app_commands.command(name=L("count"), description=L("count_desc"))
    @app_commands.rename(seat=L("seat"))
    @app_commands.describe(seat=L("seat_desc"))
    async def count(self, interaction: Interaction, seat: Seat) -> None:
        await self.ctl.command(interaction, lambda c, a: AskCount(chat=c, actor=a, target=seat))

    @app_commands.command(name=L("history"), description=L("history_desc"))
    async def history(self, interaction: Interaction) -> None:
        chat = await self._server_chat(interaction)
        if chat is None:
            return
        await self.ctl.records.history(interaction, chat)

    @app_commands.command(name=L("replay"), description=L("replay_desc"))
    @app_commands.rename(record=L("record"))
    @app_commands.describe(record=L("record_desc"))
    async def replay(
        self, interaction: Interaction, record: app_commands.Range[int, 1] | None = None
    ) -> None:
        chat = await self._server_chat(interaction)
        if chat is None:
            return
        await self.ctl.records.replay(interaction, chat, record)

    @app_commands.command(name=L("why"), description=L("why_desc"))
    @app_commands.rename(record=L("record"), step=L("step"), seat=L("seat"), cards=L("cards"))
    @app_commands.describe(
        record=L("record_desc"), step=L("step_desc"), seat=L("seat_desc"), cards=L("cards_desc")
    )
    async def why(
        self,
        interaction: Interaction,
        record: app_commands.Range[int, 1],
        step: app_commands.Range[int, 0],
        seat: Seat | None = None,
        cards: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        chat = await self._server_chat(interaction)
        if chat is None:
            return
        await self.ctl.records.why(interaction, chat, record, step, seat, cards)

    @app_commands.command(name=L("review"), description=L("review_desc"))
    @app_commands.rename(record=L("record"))
    @app_commands.describe(record=L("record_desc"))
    async def review(
        self, interaction: Interaction, record: app_commands.Range[int, 1] | None = None
    ) -> None:
        chat = await self._server_chat(interaction)
        if chat is None:
            return
        await self.ctl.records.review(interaction, chat, record)

    @app_commands.command(name=L("hand"), description=L("hand_desc"))
    async def hand(self, interaction: Interaction) -> None:
        chat = await self._server_chat(interaction)
        if chat is None:
            return
        await self.ctl.show_hand(interaction, chat)
