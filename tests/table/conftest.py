from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.table import (
    Actor,
    ChatRef,
    FakeClock,
    GroupSettings,
    Out,
    TableManager,
    apply_setting_changes,
)


class Recorder:
    def __init__(self) -> None:
        self.outs: list[Out] = []

    async def __call__(self, out: Out) -> None:
        self.outs.append(out)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_manager(clock: FakeClock) -> Callable[..., tuple[TableManager, Recorder]]:
    def make(seed: int = 11, **kw: object) -> tuple[TableManager, Recorder]:
        m = TableManager(clock=clock, seed_source=lambda: seed, **kw)  # type: ignore[arg-type]
        rec = Recorder()
        m.subscribe(rec)
        return m, rec

    return make


CHAT = ChatRef("test", "g1")
ADMIN = Actor("admin", "管理员", is_admin=True)
PLAYERS = [Actor(f"u{i}", f"玩家{i}") for i in range(1, 8)]


def set_settings(m: TableManager, chat: ChatRef = CHAT, **changes: object) -> GroupSettings:
    s = apply_setting_changes(GroupSettings(), changes)
    m.settings_cache[chat.group_key] = s
    return s
