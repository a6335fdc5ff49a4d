"""A table read back from another worker's row: exactly as that worker left it.

The record holds what is saved of a table and its runtime (``bot.cluster.runtime``); the
deal is replayed from its actions — from the deal's start, or from a held copy of the same
deal (``bot.table.persist``). Once a hand has ended, the table's own tributes and streaks
are the next hand's, so the row keeps how the ended hand was dealt (``Dealt``) and a
worker that reads it replays that hand from those: its final state is what the players'
last hand messages show."""

from __future__ import annotations

from ..store import ActionsSince, StoredTable, StoreTx
from ..table.core import note_views_shown
from ..table.model import TableStatus
from ..table.persist import deal_start, replay
from ..table.record import Table, table_from_json
from .runtime import Dealt, dealt_from_json, restore_runtime


class Dealing:
    """How each table's ended hand was dealt, as this worker last read or wrote it."""

    def __init__(self) -> None:
        self._dealt: dict[str, Dealt] = {}

    def forget(self, key: str) -> None:
        self._dealt.pop(key, None)

    def note(self, key: str, t: Table, dealt: Dealt | None) -> Dealt | None:
        """How the table's ended hand was dealt, as its row has it (kept, so this
        worker's next write of the table carries it on); None while a hand is in play,
        or when the row has none for its deal."""
        if t.status is TableStatus.PLAYING or dealt is None or dealt.deal_no != t.deal_no:
            self._dealt.pop(key, None)
            return None
        self._dealt[key] = dealt
        return dealt

    def of(self, key: str, before: Table | None, t: Table) -> Dealt | None:
        """What the row of ``t`` keeps of how its last hand was dealt: once the hand has
        ended, the table's tributes and streaks are the next hand's (``Dealt``)."""
        if t.status is TableStatus.PLAYING:
            self._dealt.pop(key, None)
            return None
        if (
            before is not None
            and before is not t
            and before.status is TableStatus.PLAYING
            and before.deal_no == t.deal_no
        ):
            self._dealt[key] = Dealt(t.deal_no, before.hand_owed, before.hand_streaks)
        dealt = self._dealt.get(key)
        return dealt if dealt is not None and dealt.deal_no == t.deal_no else None


async def rebuild(
    tx: StoreTx,
    row: StoredTable,
    cached: Table | None,
    dealing: Dealing,
    ahead: ActionsSince | None = None,
) -> Table:
    """The table exactly as the worker that wrote the row left it. A cached copy of the
    same deal (memory holds committed states only) is caught up with the actions it
    lacks instead of replaying the deal from its first card (``ahead``: those read
    with the row, if they are the ones it lacks)."""
    key = row.table_key
    record = dict(row.record)
    t = table_from_json(record)
    run = record.get("run") or {}
    dealt = dealing.note(key, t, dealt_from_json(run.get("dealt")))
    if t.rules is not None and (t.status is TableStatus.PLAYING or dealt is not None):
        same_deal = (
            cached is not None
            and cached.run.state is not None
            and (cached.match_seed, cached.deal_no, cached.hand_seed)
            == (t.match_seed, t.deal_no, t.hand_seed)
        )
        if cached is not None and cached.run.state is not None and same_deal:
            state, replayed = cached.run.state, list(cached.log)
        else:
            dealt_with = (None, None) if dealt is None else (dealt.owed, dealt.streaks)
            state, replayed = deal_start(t, *dealt_with), []
        start = len(replayed)
        if ahead is not None and (ahead.deal_no, ahead.start) == (t.deal_no, start):
            logged = list(ahead.actions)
        else:
            logged = await tx.load_actions(key, t.deal_no, start=start)
        replay(t, state, replayed, logged)
    restore_runtime(t.run, run)
    # The worker that committed this state queued every view it changed with it.
    note_views_shown(t)
    return t
