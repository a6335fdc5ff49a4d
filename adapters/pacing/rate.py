"""A bot-wide rate the lanes of every chat share (Telegram: about 30 calls a second).

A lane waits on its platform's ``GlobalRate`` right before each call it makes, after
the call was fenced and the chat's own budget allowed it. In one process the library
may keep the bot-wide limit itself (PTB's ``AIORateLimiter``); with several workers a
bucket shared in the database can be plugged in here instead, so that adding a worker
needs no arithmetic from the operator.
"""

from __future__ import annotations

from typing import Protocol


class GlobalRate(Protocol):
    """One permit per platform call: ``acquire`` returns once the call may be made."""

    async def acquire(self) -> None: ...


class NoGlobalRate:
    """No bot-wide limit kept here (the library keeps it, or there is none)."""

    async def acquire(self) -> None:
        return None
