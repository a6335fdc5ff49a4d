"""Every message and edit the bot makes in a Telegram chat goes through one Sender.

Telegram allows a group about 20 messages a minute; past that it answers 429 and can
mute the bot for a while. So the Sender is the shared pacing lane (adapters/pacing/) on
Telegram's limits: each group spends from one budget of ``GROUP_LIMIT`` calls in any
rolling ``GROUP_WINDOW`` shared by everything that writes there (urgent posts first,
then replies in order, then the coalesced edits of the table message and menus), and
the recent call times — which of them were edits — and a 429's pause are kept with the
table, so a restart neither resets the window nor calls into a pause. Private chats
(positive ids) are not held to a group's budget.

Telegram's own 429 is ``RetryAfter``: it pauses just that chat on the Sender's clock
(PTB's rate limiter is built with ``max_retries=0`` so it never sleeps inside a call;
it keeps the bot-wide 30 calls a second: adapters/telegram/app.py). A reply to a command
that waited ``STALE_AFTER`` (a full window) is shed instead of sent.

With several workers (bot.cluster) a relay that has just taken a chat over from another
worker makes the budget recall the window the others stored (``recall_chat``, before
the relay hands anything over); the lane fences every call by the relay's lease.
"""

from __future__ import annotations

import datetime as dtm
from collections.abc import Callable, Hashable

from telegram.error import RetryAfter, TelegramError

from bot.table import ChatRef, Clock

from ..frontends import TELEGRAM
from ..pacing import (
    BudgetMemory,
    GlobalRate,
    Limits,
    NoGlobalRate,
    NoPauses,
    Pacer,
    PauseMemory,
    RateBudget,
    Rules,
)

GROUP_LIMIT = 20  # calls per group in any rolling minute (Telegram's documented figure)
GROUP_WINDOW = 60.0
GROUP_RESERVE = 1  # calls of each window kept for urgent messages
# The table message's pace: the budget left after the reserve, spread over the window.
GROUP_TABLE_INTERVAL = GROUP_WINDOW / (GROUP_LIMIT - GROUP_RESERVE)
STALE_AFTER = GROUP_WINDOW  # an expendable reply not out by then is shed
QUEUE_CAP = 40


def _retry_seconds(err: RetryAfter) -> float:
    value = err.retry_after  # a timedelta (PTB_TIMEDELTA, adapters/telegram/__init__.py)
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


def retry_of(err: Exception) -> float | None:
    """Telegram's 429: the seconds its ``RetryAfter`` asks for."""
    return _retry_seconds(err) if isinstance(err, RetryAfter) else None


def group_chat(chat: Hashable) -> bool:
    """Groups, supergroups and channels have negative ids; private chats positive."""
    return isinstance(chat, int) and chat < 0


class Sender(Pacer):
    def __init__(
        self,
        clock: Clock,
        group_limit: int = GROUP_LIMIT,
        window: float = GROUP_WINDOW,
        queue_cap: int = QUEUE_CAP,
        reserve: int = GROUP_RESERVE,
        memory: BudgetMemory | None = None,
        wall: Callable[[], float] | None = None,
        stale_after: float = STALE_AFTER,
        pauses: PauseMemory | None = None,
        rate: GlobalRate | None = None,
    ) -> None:
        limits = Limits(group_limit, window, reserve, stale_after, queue_cap)
        budget = RateBudget(group_limit, window, clock, memory, wall or clock.now)
        rules = Rules(
            limits,
            budget,
            retry_of,
            quiet=(TelegramError,),
            rate=rate or NoGlobalRate(),
            pauses=pauses or NoPauses(),
        )
        super().__init__(rules, group_chat, name="telegram-sender")
        self.clock = clock

    def recall_chat(self, chat_key: str) -> None:
        """Another worker may have sent to this chat (a cluster's relay took its lease
        over): its budget's window is recalled from the store now."""
        if TELEGRAM.owns(chat_key):
            self.budget.recall(int(ChatRef.from_key(chat_key).chat_id))

    def calls_in_window(self, chat_id: int) -> int:
        return self.budget.used(chat_id) if group_chat(chat_id) else 0
