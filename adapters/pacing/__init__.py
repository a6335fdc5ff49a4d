"""The pacing lane every chat front end writes through (Telegram, Discord): per-chat
budgets, FIFO posts, coalesced edits, 429 pauses, receipts fencing, history kept."""

from .budget import BudgetMemory, NoMemory, RateBudget
from .lane import Job, Lane, Limits, NoPauses, PauseMemory, Rules, calling, running_ack
from .pacer import Pacer
from .rate import GlobalRate, NoGlobalRate

__all__ = [
    "BudgetMemory",
    "GlobalRate",
    "Job",
    "Lane",
    "Limits",
    "NoGlobalRate",
    "NoMemory",
    "NoPauses",
    "Pacer",
    "PauseMemory",
    "RateBudget",
    "Rules",
    "calling",
    "running_ack",
]
