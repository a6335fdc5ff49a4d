"""The front-end registry (bot.frontend): each platform's declaration is what bot/ reads
— the start-up error lines, the tokens the command line looks for, the forum leases."""

from __future__ import annotations

import pytest

from adapters.frontends import DISCORD, TELEGRAM
from bot.frontend import FrontEnd, RegistryError, front_end_of, register, registered, with_token
from bot.service import START_TIMEOUT, start_failure
from bot.store import LeasePrefixError, lease_key, share_group_budget
from bot.store.backend import Dialect
from bot.store.leases import lease_sql


class FakeBot:
    def __init__(self, front: FrontEnd | None) -> None:
        self.front_end = front

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


def test_each_platform_is_registered_once_by_its_prefix() -> None:
    assert {TELEGRAM, DISCORD} <= set(registered())
    assert front_end_of("tg:-1001") is TELEGRAM and front_end_of("dc:5:6") is DISCORD
    assert front_end_of("console:local") is None
    assert register(TELEGRAM) is TELEGRAM  # again: nothing changes
    with pytest.raises(RegistryError):
        register(FrontEnd("Other", "GOUJI_OTHER_TOKEN", "tg", "tg:<id>"))
    with pytest.raises(RegistryError):
        register(FrontEnd("Other", TELEGRAM.token_env, "zz", "zz:<id>"))
    assert with_token({"GOUJI_DISCORD_TOKEN": "x", "GOUJI_TELEGRAM_TOKEN": ""}) == (DISCORD,)


def test_start_failures_are_read_by_the_bots_front_end() -> None:
    from discord import LoginFailure
    from telegram.error import InvalidToken, TimedOut

    tg, dc, web = FakeBot(TELEGRAM), FakeBot(DISCORD), FakeBot(None)
    assert start_failure(tg, InvalidToken()) == (
        "Telegram rejected the bot token: check GOUJI_TELEGRAM_TOKEN"
    )
    assert start_failure(dc, LoginFailure("no")) == (
        "Discord rejected the bot token: check GOUJI_DISCORD_TOKEN"
    )
    assert start_failure(tg, TimedOut()).startswith("cannot reach Telegram: ")
    assert start_failure(dc, TimeoutError()) == (
        f"cannot reach Discord: no answer within {START_TIMEOUT:.0f} s"
    )
    # Another platform's error class means nothing to this one.
    assert start_failure(dc, InvalidToken()).startswith("Discord bot failed to start: ")
    assert start_failure(web, ValueError("x")) == "FakeBot bot failed to start: ValueError: x"


def test_a_front_end_declares_which_topics_share_a_lease() -> None:
    assert lease_key("tg:-100:7") == "tg:-100:"  # Telegram declared it
    assert lease_key("dc:1:2") == "dc:1:2"  # Discord did not
    assert lease_key("qq:1:2") == "qq:1:2"
    share_group_budget("qq:")
    assert lease_key("qq:1:2") == "qq:1:" and lease_key("qq:1") == "qq:1"
    sql = lease_sql("k", Dialect.SQLITE)
    assert "'tg:%:%'" in sql and "'qq:%:%'" in sql and "'dc:" not in sql
    for bad in ("q'q:", "q%:", "qq", "QQ:"):
        with pytest.raises(LeasePrefixError):
            share_group_budget(bad)
