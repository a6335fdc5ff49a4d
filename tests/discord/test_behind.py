"""Controls pressed on a worker whose copy of the table is behind them (several workers:
another one committed the state the controls were drawn from, and word of it has not
arrived). The controls prove the copy stale, so the table is read again before they are
judged: a current menu is not called out of date, nor a player's own seat "not yours"."""

from __future__ import annotations

import dataclasses

import pytest

from bot.table import ChatRef, PrivateSnapshot, TableSnapshot

from .conftest import ADMIN, CHAT, Harness
from .driver import find
from .fake import Msg
from .test_buttons import NOT_YOURS, STALE, admin_answering, start


def behind(h: Harness, monkeypatch: pytest.MonkeyPatch, stale: PrivateSnapshot | None) -> list[str]:
    """Until the table is read again, the worker's copy shows ``stale``; the reads."""
    real_private = h.manager.private_snapshot
    real_reread = h.manager.reread
    reads: list[str] = []

    def private(key: str, user: str) -> PrivateSnapshot | None:
        return real_private(key, user) if reads else stale

    async def reread(chat: ChatRef) -> TableSnapshot | None:
        reads.append(chat.key)
        return await real_reread(chat)

    monkeypatch.setattr(h.manager, "private_snapshot", private)
    monkeypatch.setattr(h.manager, "reread", reread)
    return reads


async def a_menu(h: Harness) -> tuple[Msg, str]:
    """The admin's private controls on a turn, and their rank menu's id."""
    await start(h)
    msg = await admin_answering(h)
    menu = find(msg, "gj:m:", "r")
    assert menu is not None
    return msg, menu


async def test_a_menu_newer_than_the_copy_is_judged_on_a_fresh_read(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    msg, menu = await a_menu(h)
    now = h.manager.private_snapshot(CHAT.key, str(ADMIN.id))
    assert now is not None
    # This worker's copy: the state before the one the controls were drawn from.
    reads = behind(h, monkeypatch, dataclasses.replace(now, version=now.version - 1))
    p = await h.choose(ADMIN, msg, menu, str(msg.component(menu)["options"][0]["value"]))
    assert reads == [CHAT.key]
    assert STALE not in h.replies(p)


async def test_controls_of_a_table_without_a_copy_here_are_not_someone_elses(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    msg, menu = await a_menu(h)
    reads = behind(h, monkeypatch, None)
    p = await h.choose(ADMIN, msg, menu, str(msg.component(menu)["options"][0]["value"]))
    assert reads and reads[0] == CHAT.key
    assert NOT_YOURS not in h.replies(p) and STALE not in h.replies(p)
