"""The webhook (adapters/telegram/webhook.py): the secret checked, the update handled to
its commit before Telegram's 200, and the press answered only after that commit.

The kill between a press and its commit, with real worker processes, is in
tests/store/test_webhook_kill.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram.error import BadRequest

from adapters.telegram.webhook import SECRET_HEADER, Webhook
from bot.i18n import t
from bot.table import Actor, ChangeSettings, ChatRef

from .harness import GROUP_ID, USERS, Harness, op_of

wang, li = USERS[:2]
SECRET = "the-shared-secret"


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Harness, str]]:
    """A harness on a SQLite file, its bot's updates served by a ``Webhook`` on loopback."""
    h = await Harness(tmp_path).open()
    hook = Webhook(h.bot.app, "/gouji/hook", SECRET, "127.0.0.1", 0)
    await hook.start()
    try:
        yield h, f"http://127.0.0.1:{hook.port}/gouji/hook"
    finally:
        await hook.stop()
        await h.close()


async def post(url: str, body: Any, secret: str | None = SECRET) -> int:
    headers = {} if secret is None else {SECRET_HEADER: secret}
    async with aiohttp.ClientSession() as http, http.post(url, json=body, headers=headers) as r:
        return r.status


async def test_no_secret_no_update_and_a_body_that_is_no_update_is_refused(
    served: tuple[Harness, str],
) -> None:
    h, url = served
    h.fake.opened.add(wang["id"])
    update = h.fake.command(wang, h.group, "/gouji")
    assert await post(url, update, secret=None) == 403
    assert await post(url, update, secret="wrong") == 403
    assert await post(url, [1, 2], SECRET) == 400
    assert h.manager.snapshot(h.key) is None  # none of them was handled
    assert await post(url, update) == 200
    # Handled when the 200 came: the table is there (and stored) already.
    assert h.manager.snapshot(h.key) is not None
    assert h.store is not None
    async with h.store.transaction(readonly=True) as tx:
        assert await tx.load_table(h.key) is not None


async def test_the_press_is_answered_after_its_commit_and_then_telegram(
    served: tuple[Harness, str],
) -> None:
    h, url = served
    h.fake.opened.update({wang["id"], li["id"]})
    chat = ChatRef("tg", str(GROUP_ID))
    admin = Actor(str(wang["id"]), "老王", is_admin=True)
    await h.manager.handle(ChangeSettings(chat=chat, actor=admin, changes={"turn_seconds": 0}))
    for who, text in ((wang, "/gouji"), (li, "/join"), (wang, "/addbot 4"), (wang, "/begin")):
        assert await post(url, h.fake.command(who, h.group, text)) == 200
    await h.drain()
    state = h.manager.tables[h.key].state
    assert state is not None and state.to_act is not None
    seat = h.manager.tables[h.key].seats[state.to_act - 1]
    who = next(u for u in USERS if seat is not None and str(u["id"]) == seat.user_id)
    msg = h.hand_message(who)
    data = next((d for text, d in msg.buttons() if text.startswith("⚡")), None)
    data = data or next(d for _, d in msg.buttons() if op_of(d) == "x")
    press = h.fake.press(who, msg, data)

    commits: list[int] = []  # how many Bot API calls were made when a table step committed
    wrote = [False]

    def hook(point: str) -> None:
        wrote[0] = wrote[0] or point == "table"
        if point == "committed" and wrote[0]:
            commits.append(len(h.fake.calls))
            wrote[0] = False

    assert h.store is not None
    h.store.fault_hook = hook
    version = h.manager.tables[h.key].version
    assert await post(url, press) == 200
    assert h.manager.tables[h.key].version > version
    query = press["callback_query"]["id"]
    answers = [
        i
        for i, c in enumerate(h.fake.calls)
        if c.method == "answerCallbackQuery" and str(c.params["callback_query_id"]) == query
    ]
    assert len(commits) == 1 and len(answers) == 1  # answered (before the 200), once
    assert answers[0] >= commits[0]  # ... and only after the step's commit
    assert h.fake.calls[answers[0]].params["text"] in (t("ok"), t("held_for_burns"))


@pytest.mark.parametrize(
    ("error", "status"),
    [(ConnectionError("the database went away"), 500), (BadRequest("Query is too old"), 200)],
)
async def test_a_failure_asks_for_the_update_again_unless_telegram_refused_a_call(
    served: tuple[Harness, str],
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    status: int,
) -> None:
    """The step may not be committed: 500, Telegram delivers the update again. A Bot API
    call that failed comes after the step: handling the update again changes nothing."""
    h, url = served

    async def failing(*_: object) -> None:
        raise error

    monkeypatch.setattr(h.bot.router.group, "gouji", failing)
    h.bot.app.handlers.clear()
    h.bot.router.register(h.bot.app)  # /gouji routed to the failing handler
    assert await post(url, h.fake.command(wang, h.group, "/gouji")) == status
    assert h.errors == [error]
