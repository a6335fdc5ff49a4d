"""Telegram: python-telegram-bot translating between group chats and the TableManager."""

from .app import TelegramBot

__all__ = ["TelegramBot"]
