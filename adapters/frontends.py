"""Each chat platform's declaration for bot/ (``bot.frontend``), registered on import.

bot/ names no platform: what it must know of one — its name, its token's variable, its
table keys' prefix, how to read its start-up errors, whether it shards, whether its forums'
topics share one budget — is declared here. This module imports no platform library (the
``gouji`` command imports it before knowing which bots it starts); the error readers
import theirs when an error is read.
"""

from __future__ import annotations

from bot.frontend import FrontEnd, StartFailure, register


def _telegram_failure(err: BaseException) -> StartFailure | None:
    from telegram.error import InvalidToken, NetworkError

    if isinstance(err, InvalidToken):
        return StartFailure.REJECTED_TOKEN
    if isinstance(err, NetworkError):  # TimedOut is one
        return StartFailure.UNREACHABLE
    return None


def _discord_failure(err: BaseException) -> StartFailure | None:
    from discord import LoginFailure

    return StartFailure.REJECTED_TOKEN if isinstance(err, LoginFailure) else None


TELEGRAM = register(
    FrontEnd(
        name="Telegram",
        token_env="GOUJI_TELEGRAM_TOKEN",
        platform="tg",
        group_key_help="tg:<Telegram chat id, e.g. -1001234>",
        classify=_telegram_failure,
        # 20 messages a minute are a group's, whichever of its forum's topics they go to.
        topics_share_budget=True,
    )
)
DISCORD = register(
    FrontEnd(
        name="Discord",
        token_env="GOUJI_DISCORD_TOKEN",
        platform="dc",
        group_key_help="dc:<Discord server id>",
        classify=_discord_failure,
        shards=True,  # direct messages and their presses arrive on shard 0
    )
)
