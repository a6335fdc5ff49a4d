"""The terminal's screen: what fits in the window, measured in display columns.

A Chinese character or an emoji takes two columns of a terminal, so widths come from
``wcwidth``, never from ``len``; colour codes take none. A frame is the table, your hand
and a short list of plays on top, the newest messages under them and the help line and
prompt at the bottom: however many messages arrived, the last one is right above the prompt.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from wcwidth import wcswidth, wcwidth

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
CLEAR = "\x1b[H\x1b[2J"  # cursor home, erase the screen
DEFAULT_SIZE = (80, 24)


def width(text: str) -> int:
    """Display columns of ``text`` (CJK and emoji count two, colour codes none)."""
    plain = _ANSI.sub("", text)
    w = wcswidth(plain)
    if w >= 0:
        return w
    return sum(max(wcwidth(ch), 0) for ch in plain)  # a control character counts none


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` display columns (``str.ljust`` counts
    characters, which misaligns a Chinese name against a Latin one)."""
    return text + " " * max(0, columns - width(text))


def rows_of(line: str, cols: int) -> int:
    """How many terminal rows ``line`` takes when it wraps at ``cols`` columns."""
    return max(1, -(-width(line) // max(1, cols)))


def cut(line: str, cols: int) -> str:
    """``line`` cut to at most ``cols`` display columns (plain text: colour codes go)."""
    plain = _ANSI.sub("", line)
    if width(plain) <= cols:
        return line
    out, used = [], 0
    for ch in plain:
        w = max(wcwidth(ch), 0)
        if used + w > cols - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def terminal_size() -> tuple[int, int]:
    size = shutil.get_terminal_size(DEFAULT_SIZE)
    return size.columns, size.lines


@dataclass(frozen=True, slots=True)
class Frame:
    """One screen: ``top`` (table, hand, plays), ``help`` (what you may type; it wraps)
    and ``messages`` (oldest first) under it; the prompt goes on the row after the last
    message."""

    top: Sequence[str]
    help: Sequence[str]
    messages: Sequence[str]

    def lines(self, cols: int, rows: int) -> list[str]:
        """The frame's lines for a ``cols`` × ``rows`` window, one row kept for the prompt.
        The newest messages are kept whole (wrapped), the older ones give way ("…" says
        some did); the top is cut to the width and, if it must, loses its last lines."""
        top = [cut(x, cols) for x in self.top]
        messages = [m for text in self.messages for m in text.split("\n")]
        room = rows - 1 - sum(rows_of(x, cols) for x in self.help)
        need = sum(rows_of(m, cols) for m in messages[-3:])  # the newest always show
        while top and len(top) + need > room:
            top.pop()
        room -= len(top)
        kept: list[str] = []
        for m in reversed(messages):
            r = rows_of(m, cols)
            if r > room:
                break
            kept.insert(0, m)
            room -= r
        if len(kept) < len(messages) and kept:
            kept[0] = "…"
        return [*top, *self.help, *kept]
