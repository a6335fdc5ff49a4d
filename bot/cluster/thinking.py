"""The thinking line on a worker of several ("电脑3 思考中…", ``bot.table.thinking``).

One process publishes the edit straight to its adapters. A worker of several must not:
the chat's messages leave through the outbox, sent by the chat's one lease holder in the
order they were queued, within the group's one budget (``bot.cluster.relay``). So the
edit is queued there like any table edit (kind ``TableChanged``: sent twice, nothing
shows twice), in a transaction of its own, before the step's own messages (the step has
not committed yet). The worker that sends it renders the table as it has it then: the
deciding worker — usually the chat's sender, since it sent the table the person answered
— shows the table as it stands mid-step with the line; another worker, or this one once
the step committed, shows the table as committed (a harmless edit).

On PostgreSQL the step holds at most its table's row lock, and the edit's insert waits
for nothing. SQLite (tests standing in for the shared database) locks the whole file
for a step's transaction: the edit could only follow the step, so none is shown there —
except by the one process on its file (``solo``), whose steps run on its copy with no
transaction open.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

from ..store import Store
from ..table.outputs import Out, TableChanged
from .wire import out_to_json

KIND = "TableChanged"


def thinking_key(table: str, version: int) -> str:
    """The message's outbox key: the table version it was drawn at (``<table>#<v>.…``)."""
    return f"{table}#{version}.thinking-{uuid.uuid4().hex}"


async def enqueue_thinking(db: Store, out: Out, version: int, now: float) -> bool:
    """Queue a thinking edit (only a table edit is one); True if queued."""
    if not isinstance(out, TableChanged):
        return False
    async with db.transaction() as tx:
        key = thinking_key(out.table, version)
        return await tx.enqueue(out.table, key, KIND, out_to_json(out), now)


async def queue_thinking(
    db: Store, out: Out, version: int, now: float, send: Callable[[str], Awaitable[None]]
) -> None:
    """Queue a thinking edit and ``send`` the chat's waiting messages."""
    if await enqueue_thinking(db, out, version, now) and isinstance(out, TableChanged):
        await send(out.table)
