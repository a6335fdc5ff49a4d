"""The group lanes' memory: recent call times (and which were edits) and the end of a
429 pause, kept in the adapter meta of the group's tables (adapters/pacing/memory.py).
A forum's topics are tables of the group's chat, all sharing the group's budget."""

from __future__ import annotations

from collections.abc import Hashable

from bot.table import ChatRef, TableManager

from ..frontends import TELEGRAM
from ..pacing.memory import MetaMemory, MetaNames

SENT = "tg_sent"
EDITS = "tg_edits"
PAUSE = "tg_pause"


def _prefix(chat: Hashable) -> str:
    return ChatRef(TELEGRAM.platform, str(chat), None).key


class TableMetaMemory(MetaMemory):
    def __init__(self, manager: TableManager) -> None:
        super().__init__(manager, _prefix, MetaNames(SENT, EDITS, PAUSE))
