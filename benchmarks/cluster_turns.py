"""What benchmarks/cluster.py reads off the fake Bot API's call log about turns and
workers: the turn gap, the length of a hand played by six humans, and how the calls
spread over the workers.

* **Turn gap**: at a table where all six seats are humans, from the latest accepted
  command press at the table (a play, a pass, ready …: its press, as the driver posted
  it) to the call that brings the next "your turn" keyboard into a player's private hand
  message (a keyboard offering a play or a pass where the one before offered neither).
  No AI thinks in between, so the gap is the system's own: the command, the outbox, the
  relay and the Sender's pacing.
* **Six-human hand**: from the first "your turn" keyboard of a hand at such a table to
  that hand's result picture in the group.
* **Calls per worker**: every worker reaches the fake through its own path prefix
  (``/w<i>/bot…``), so each call names its caller.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.telegram.fakeapi import Call

# A keyboard offering one of these is the player's turn: a pass, the play menu (its
# root, its steps, a play to confirm, a ready-made play).
TURN_OPS = frozenset({"x", "r", "b", "z", "v", "g"})
# Calls that change what a private hand message shows (its keyboard included).
HAND_CALLS = frozenset(
    {"sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"}
)


def _ops(markup: Any) -> set[str]:
    """The action ops a keyboard offers (``a:<tid>:<version>:<op>[:<args>]``: only the op
    is read, the arguments not checked)."""
    ops: set[str] = set()
    if not isinstance(markup, dict):
        return ops
    for row in markup.get("inline_keyboard", []):
        for button in row:
            parts = str(button.get("callback_data", "")).split(":")
            if parts[0] == "a" and len(parts) >= 4:
                ops.add(parts[3])
    return ops


def is_turn(call: Call) -> bool:
    """The call leaves the hand message with a keyboard for the player's turn."""
    return bool(_ops(call.params.get("reply_markup")) & TURN_OPS)


def turn_arrivals(calls: Iterable[Call], users: Mapping[int, int]) -> list[tuple[float, int]]:
    """(when, table) of every "your turn" keyboard's arrival in the private chats of
    ``users`` (user id → table), in call order."""
    turn_on: dict[int, bool] = {}
    out: list[tuple[float, int]] = []
    for call in sorted(calls, key=lambda c: c.at):
        chat = call.chat_id
        if chat is None or chat not in users or call.error is not None:
            continue
        if call.method not in HAND_CALLS:
            continue
        now = is_turn(call)
        if now and not turn_on.get(chat, False):
            out.append((call.at, users[chat]))
        turn_on[chat] = now
    return out


def turn_gaps(
    arrivals: Iterable[tuple[float, int]], pressed: Mapping[int, list[float]]
) -> list[float]:
    """Seconds from the latest accepted command press at the table (``pressed``: table →
    press times) to each arrival; an arrival with no press before it (a match's first
    turn) has none."""
    ordered = {table: sorted(times) for table, times in pressed.items()}
    gaps: list[float] = []
    for at, table in arrivals:
        times = ordered.get(table, [])
        i = bisect.bisect_left(times, at)
        if i > 0:
            gaps.append(at - times[i - 1])
    return gaps


def hand_seconds(
    arrivals: Iterable[tuple[float, int]], results: Iterable[tuple[float, int]]
) -> list[float]:
    """Per finished hand (``results``: (when, table) of result pictures): seconds from
    the hand's first turn keyboard to its result."""
    by_table: dict[int, list[float]] = {}
    for at, table in arrivals:
        by_table.setdefault(table, []).append(at)
    out: list[float] = []
    last_end: dict[int, float] = {}
    for at, table in sorted(results):
        since = last_end.get(table, float("-inf"))
        starts = [a for a in by_table.get(table, []) if since < a < at]
        if starts:
            out.append(at - starts[0])
        last_end[table] = at
    return out


@dataclass
class Spread:
    """Bot API calls per worker (its path prefix) during play."""

    calls: Counter[str] = field(default_factory=Counter)
    sends: Counter[str] = field(default_factory=Counter)  # messages and edits only

    def max_share(self, of: Counter[str]) -> float:
        total = sum(of.values())
        return max(of.values()) / total if total else float("nan")


def spread(calls: Iterable[Call], since: float, sends: frozenset[str]) -> Spread:
    out = Spread()
    for call in calls:
        if call.at < since or not call.caller:
            continue
        out.calls[call.caller] += 1
        if call.method in sends:
            out.sends[call.caller] += 1
    return out
