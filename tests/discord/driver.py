"""Plays a seat through its private Discord view, the way a person would press it."""

from __future__ import annotations

from bot.engine.actions import ActionKind
from bot.table import TableStatus

from .conftest import CHAT, Harness
from .fake import Msg, Player

TURN_KINDS = {ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN}


def op(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[1]


def find(msg: Msg, prefix: str, start: str = "") -> str | None:
    for cid in msg.custom_ids():
        if cid.startswith(prefix) and op(cid).startswith(start):
            return cid
    return None


def first_value(msg: Msg, custom_id: str) -> str:
    return str(msg.component(custom_id)["options"][0]["value"])


async def act_once(h: Harness, player: Player) -> bool:
    """One decision for ``player`` through their latest private message; False if none due."""
    priv = h.manager.private_snapshot(CHAT.key, str(player.id))
    if priv is None or priv.role is None or priv.autoplay or priv.role == "burn":
        return False  # burns are declined by letting the window pass
    msg = h.fake.last_private(player.id)
    assert msg is not None, f"{player.name} has no private view"
    assert f":{priv.seat}:" in msg.custom_ids()[0]
    kinds = {a.kind for a in priv.legal}
    if priv.role == "pre_play" or (priv.role == "turn" and not kinds & TURN_KINDS):
        ready = find(msg, "gj:a:", "ready")
        assert ready is not None, msg.custom_ids()
        await h.press(player, msg, ready)
        return True
    if priv.role == "return":
        menu = find(msg, "gj:m:", "t")
        assert menu is not None
        await h.choose(player, msg, menu, first_value(msg, menu))
        msg = h.fake.last_private(player.id)
        assert msg is not None
        confirm = find(msg, "gj:a:", "R")
        assert confirm is not None
        await h.press(player, msg, confirm)
        return True
    cheap = find(msg, "gj:a:", "c")
    if cheap is not None:
        await h.press(player, msg, cheap)
        return True
    rank = find(msg, "gj:m:", "r")
    if rank is None:
        passing = find(msg, "gj:a:", "pass")
        assert passing is not None, msg.custom_ids()
        await h.press(player, msg, passing)
        return True
    # A lead: rank, then size and extras if asked, then the play button.
    await h.choose(player, msg, rank, first_value(msg, rank))
    for stage in ("n", "v"):
        msg = h.fake.last_private(player.id)
        assert msg is not None
        menu = find(msg, "gj:m:", stage)
        if menu is not None:
            await h.choose(player, msg, menu, first_value(msg, menu))
    msg = h.fake.last_private(player.id)
    assert msg is not None
    play = find(msg, "gj:a:", "P")
    assert play is not None, msg.custom_ids()
    await h.press(player, msg, play)
    return True


async def play_until(
    h: Harness, players: list[Player], done: set[TableStatus], limit: int = 3000
) -> int:
    """Every human acts when due; otherwise time passes. Returns how many presses."""
    presses = 0
    for _ in range(limit):
        snap = h.manager.snapshot(CHAT.key)
        assert snap is not None
        if snap.status in done:
            return presses
        for p in players:
            if await act_once(h, p):
                presses += 1
                break
        else:
            await h.tick(3.5)
    raise AssertionError("the hand did not finish")
