"""Discord adapter: ``/gouji`` slash commands, a table message per channel, hands by DM."""

from .app import DiscordBot

__all__ = ["DiscordBot"]
