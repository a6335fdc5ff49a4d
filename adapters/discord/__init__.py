"""Discord adapter: ``/gouji`` slash commands, a table message per channel, hands by DM."""

from . import catalogue as catalogue  # registers this front end's texts first
from .app import DiscordBot

__all__ = ["DiscordBot"]
