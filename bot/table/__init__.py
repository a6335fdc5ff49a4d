"""The platform-neutral table manager that Telegram, Discord and the terminal all drive."""

from .clock import Clock, FakeClock, SystemClock
from .commands import (
    Act,
    AddBots,
    AskCount,
    ChangeSettings,
    Command,
    Join,
    Kick,
    Leave,
    NextHand,
    OpenTable,
    Ready,
    RemoveBot,
    SetAutoplay,
    Spectate,
    Start,
    StopMatch,
    SwapSeat,
)
from .manager import TableManager
from .model import Actor, ChatRef, GroupSettings, SeatInfo, TableStatus
from .outputs import Out, OutKind, PrivateSnapshot, Reply, SeatLine, TableSnapshot
from .settings import apply_setting_changes

__all__ = [
    "Act",
    "Actor",
    "AddBots",
    "AskCount",
    "ChangeSettings",
    "ChatRef",
    "Clock",
    "Command",
    "FakeClock",
    "GroupSettings",
    "Join",
    "Kick",
    "Leave",
    "NextHand",
    "OpenTable",
    "Out",
    "OutKind",
    "PrivateSnapshot",
    "Ready",
    "RemoveBot",
    "Reply",
    "SeatInfo",
    "SeatLine",
    "SetAutoplay",
    "Spectate",
    "Start",
    "StopMatch",
    "SwapSeat",
    "SystemClock",
    "TableManager",
    "TableSnapshot",
    "TableStatus",
    "apply_setting_changes",
]
