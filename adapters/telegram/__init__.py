"""Telegram: python-telegram-bot translating between group chats and the TableManager."""

import os

# PTB 22 is moving time periods (a 429's ``retry_after``) from int seconds to timedelta
# and warns on every read of the old form — even inside ``RetryAfter.__init__``, so each
# flood answer would log a deprecation. The adapter reads them as timedelta already
# (sender._retry_seconds): opt in to the new form, as PTB documents.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from . import catalogue as catalogue  # registers this front end's texts first
from .app import TelegramBot

__all__ = ["TelegramBot"]
