"""The one DynamicItem behind every button and menu the bot sends.

discord.py rebuilds it from the ``custom_id`` of whatever component was pressed, so no
view has to stay in memory and buttons keep working after a restart. The controller
decides what the id means.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from .custom_ids import TEMPLATE, Cid, parse

if TYPE_CHECKING:
    from collections.abc import Sequence


class Handler(Protocol):
    async def check(self, interaction: discord.Interaction[Any], cid: Cid | None) -> bool: ...

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: Cid | None, values: Sequence[str]
    ) -> None: ...


def handler_of(interaction: discord.Interaction[Any]) -> Handler:
    handler: Handler = interaction.client.gouji  # set by GoujiClient
    return handler


class GoujiItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    def __init__(self, item: discord.ui.Item[Any], row: int | None = None) -> None:
        super().__init__(item, row=row)
        self.cid = parse(self.custom_id)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GoujiItem:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await handler_of(interaction).check(interaction, self.cid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values: list[str] = []
        if isinstance(self.item, discord.ui.Select):
            values = [str(v) for v in self.item.values]
        await handler_of(interaction).on_component(interaction, self.cid, values)


def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
) -> GoujiItem:
    return GoujiItem(discord.ui.Button(custom_id=custom_id, label=label[:80], style=style), row=row)


def select(
    custom_id: str,
    placeholder: str,
    options: list[discord.SelectOption],
    row: int | None = None,
) -> GoujiItem:
    return GoujiItem(
        discord.ui.Select(
            custom_id=custom_id,
            placeholder=placeholder[:150],
            options=options[:25],
            min_values=1,
            max_values=1,
        ),
        row=row,
    )


def option(label: str, value: str, default: bool = False) -> discord.SelectOption:
    return discord.SelectOption(label=label[:100], value=value, default=default)
