"""Telegram: python-telegram-bot translating between group chats and the TableManager."""

from . import catalogue as catalogue  # registers this front end's texts first
from .app import TelegramBot

__all__ = ["TelegramBot"]
