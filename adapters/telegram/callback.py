"""callback_data: every button's payload, at most 64 bytes, checked strictly on the way in.

Three shapes, one per place a button lives:

* ``g:<tid>:<op>[:<seat>]`` — the group's table message (join, start, 报户 …);
* ``a:<tid>:<version>:<op>[:<args>]`` — a player's private action keyboard; the version
  is the table's, so a press made for an older state is refused as stale;
* ``s:<op>[:<arg>…]`` — the group's settings menu (the chat is the message's own);
* ``r:<hand>:<shown>:<to>`` — a replay stepper: the record's number in the group, the
  frame the message showed when the button was made (a press from an older view is
  stale) and the frame to move to;
* ``v:<hand>`` — the 📝 review button on a hand's result: the record's number.

Anything else (an old format, a forged or truncated payload) raises ``BadPayload``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .ids import TID_RE

MAX_BYTES = 64


class BadPayload(ValueError):
    """Data none of our buttons makes; the message never holds the payload (it may hold cards)."""


@dataclass(frozen=True, slots=True)
class GroupPress:
    tid: str
    op: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ActPress:
    tid: str
    version: int
    op: str
    args: tuple[str, ...] = ()

    def ints(self) -> tuple[int, ...]:
        return tuple(int(a) for a in self.args)


@dataclass(frozen=True, slots=True)
class SettingsPress:
    op: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReplayPress:
    number: int
    shown: int
    to: int


@dataclass(frozen=True, slots=True)
class ReviewPress:
    number: int


Press = GroupPress | ActPress | SettingsPress | ReplayPress | ReviewPress
_INDEX = re.compile(r"^\d{1,9}$")

# Group ops: join, start, add AI, my cards, next hand, leave, 报户 (with a seat).
GROUP_OPS = {"j": False, "s": False, "a": False, "h": False, "n": False, "l": False, "c": True}

_MODE = r"[pb]"
_N = r"\d{1,2}"
_CARDS = "[3-9TJQKA2SB]"
_PLAY = rf"{_MODE}\.{_N}\.{_N}\.{_N}\.\d\.\d"  # mode.base.n.twos.small.big
# Private ops and the exact shape of their arguments (dot-separated).
ACT_OPS: dict[str, re.Pattern[str]] = {
    "r": re.compile(rf"{_MODE}"),  # the root keyboard, in play or burn mode
    "b": re.compile(rf"{_MODE}\.{_N}"),  # a base rank was picked: choose the size
    "z": re.compile(rf"{_MODE}\.{_N}\.{_N}\.{_N}"),  # base, size, page: choose 2s/jokers
    "v": re.compile(_PLAY),  # one play picked: confirm it
    "g": re.compile(_PLAY),  # confirmed: play (or burn) it
    "x": re.compile(""),  # pass
    "y": re.compile(""),  # 让
    "V": re.compile(""),  # 革命
    "D": re.compile("[01]"),  # 明点 (1 = 预点)
    "W": re.compile(""),  # waive 够死级
    "U": re.compile("3|4|34"),  # 烩 these ranks
    "C": re.compile(""),  # 冲点
    "K": re.compile(""),  # ready (no revolt, no point)
    "t": re.compile("[01]"),  # 托管 on/off
    "h": re.compile(""),  # refresh
    "H": re.compile(""),  # 💡 hint (groups with hints on)
    "n": re.compile(""),  # do not burn
    "R": re.compile(rf"[1-6]\.{_CARDS}{{0,16}}"),  # 还贡: seat and the cards picked so far
    "Q": re.compile(rf"[1-6]\.{_CARDS}{{1,16}}"),  # 还贡 confirmed
}
# Settings ops: home, preset list/set, switch list/detail/set, timer, hands, target,
# language, AI fill, AI level, hints, reset, close.
SETTINGS_OPS: dict[str, int] = {
    "h": 0, "P": 0, "p": 1, "L": 1, "w": 1, "v": 2, "T": 0, "t": 1, "M": 0, "m": 1,
    "G": 0, "g": 1, "l": 1, "a": 1, "A": 1, "i": 1, "r": 0, "x": 0,
}  # fmt: skip
_ARG = re.compile(r"^[a-z0-9_]{1,24}$")
_VERSION = re.compile(r"^[0-9a-z]{1,8}$")


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def encode(press: Press) -> str:
    if isinstance(press, GroupPress):
        parts = ["g", press.tid, press.op]
        if press.seat is not None:
            parts.append(str(press.seat))
    elif isinstance(press, ActPress):
        parts = ["a", press.tid, _base36(press.version), press.op]
        if press.args:
            parts.append(".".join(press.args))
    elif isinstance(press, ReplayPress):
        parts = ["r", str(press.number), str(press.shown), str(press.to)]
    elif isinstance(press, ReviewPress):
        parts = ["v", str(press.number)]
    else:
        parts = ["s", press.op, *press.args]
    data = ":".join(parts)
    if len(data.encode()) > MAX_BYTES:
        raise ValueError("callback data over 64 bytes")
    return data


def decode(data: str | None) -> Press:
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadPayload("empty or too long")
    parts = data.split(":")
    kind = parts[0]
    if kind == "g":
        return _group(parts)
    if kind == "a":
        return _act(parts)
    if kind == "s":
        return _settings(parts)
    if kind == "r":
        return _replay(parts)
    if kind == "v" and len(parts) == 2 and _INDEX.match(parts[1]):
        return ReviewPress(int(parts[1]))
    raise BadPayload("unknown kind")


def _replay(parts: list[str]) -> ReplayPress:
    if len(parts) != 4 or not all(_INDEX.match(p) for p in parts[1:]):
        raise BadPayload("bad replay press")
    return ReplayPress(int(parts[1]), int(parts[2]), int(parts[3]))


def _tid(text: str) -> str:
    if not TID_RE.match(text):
        raise BadPayload("bad table id")
    return text


def _group(parts: list[str]) -> GroupPress:
    if len(parts) not in (3, 4) or parts[2] not in GROUP_OPS:
        raise BadPayload("bad group op")
    needs_seat = GROUP_OPS[parts[2]]
    if needs_seat != (len(parts) == 4):
        raise BadPayload("bad group args")
    seat = None
    if needs_seat:
        if parts[3] not in ("1", "2", "3", "4", "5", "6"):
            raise BadPayload("bad seat")
        seat = int(parts[3])
    return GroupPress(_tid(parts[1]), parts[2], seat)


def _act(parts: list[str]) -> ActPress:
    if len(parts) not in (4, 5) or not _VERSION.match(parts[2]):
        raise BadPayload("bad action shape")
    pattern = ACT_OPS.get(parts[3])
    if pattern is None:
        raise BadPayload("bad action op")
    args = parts[4] if len(parts) == 5 else ""
    if len(parts) == 5 and not args:
        raise BadPayload("empty args")
    if not pattern.fullmatch(args):
        raise BadPayload("bad action args")
    return ActPress(
        _tid(parts[1]), int(parts[2], 36), parts[3], tuple(args.split(".")) if args else ()
    )


def _settings(parts: list[str]) -> SettingsPress:
    op = parts[1] if len(parts) > 1 else ""
    want = SETTINGS_OPS.get(op)
    if want is None or len(parts) != 2 + want:
        raise BadPayload("bad settings op")
    args = tuple(parts[2:])
    if not all(_ARG.match(a) for a in args):
        raise BadPayload("bad settings args")
    return SettingsPress(op, args)
