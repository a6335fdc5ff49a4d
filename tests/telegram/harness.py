"""A group, six users, the real PTB Application on the fake Bot API, and a fake clock."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, ContextTypes

from adapters.telegram import TelegramBot
from adapters.telegram.views import table_image_key
from bot.engine.state import HandResult
from bot.store import Store
from bot.table import FakeClock, PrivateSnapshot, TableManager, TableSnapshot

from .fakeapi import Call, FakeTelegram, Message

TOKEN = "123456:TEST-token-not-real"
GROUP_ID = -100500
FORUM_ID = -100600


class FakeRenderer:
    """Tagged bytes instead of PNGs: fast, and a test can tell which image went where."""

    def table(self, snap: TableSnapshot) -> bytes:
        return f"table:{hash(table_image_key(snap))}".encode()

    def hand(self, priv: PrivateSnapshot, names: Sequence[str]) -> bytes:
        return f"hand:{priv.seat}:{priv.version}".encode()

    def result(self, result: HandResult, *args: Any) -> bytes:
        return f"result:{result.places}".encode()


def user(uid: int, name: str, lang: str = "zh-hans") -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": name, "language_code": lang}


USERS = [
    user(101, "老王"),
    user(102, "小李"),
    user(103, "Alice", "en"),
    user(104, "张三"),
    user(105, "李四"),
    user(106, "王五"),
]


class Harness:
    def __init__(self, tmp_path: Path | None, seed: int = 7) -> None:
        self.clock = FakeClock()
        self.fake = FakeTelegram(self.clock)
        self.group = self.fake.add_group(GROUP_ID, "够级群")
        self.forum = self.fake.add_group(FORUM_ID, "够级论坛", forum=True)
        self.fake.admins[GROUP_ID] = {101}
        self.fake.admins[FORUM_ID] = {101}
        self.db_path = tmp_path / "gouji.sqlite3" if tmp_path is not None else None
        self.seed = seed
        self.errors: list[BaseException] = []
        self.store: Store | None = None
        self.manager: TableManager
        self.bot: TelegramBot

    async def open(self) -> Harness:
        if self.db_path is not None:
            self.store = Store(self.db_path)
            await self.store.open()
        self.manager = TableManager(
            store=self.store,
            clock=self.clock,
            seed_source=lambda: self.seed,
            burn_window_seconds=3,
            declare_window_seconds=12,
            between_hands_seconds=12,
        )
        self.bot = self.new_bot()
        self.bot.app.add_error_handler(self._record_error)
        await self.bot.initialize()
        return self

    def new_bot(self) -> TelegramBot:
        """The bot on the fake server, for this harness's manager."""
        return TelegramBot(
            self.manager,
            TOKEN,
            request=self.fake,
            # The library's own limiter runs, with its real-time waits off: the Sender
            # enforces the group budget on the fake clock.
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=0),
            renderer=FakeRenderer(),
            run_sender=False,
        )

    async def _record_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if context.error is not None:
            self.errors.append(context.error)

    async def restart(self) -> None:
        """Close the app, the manager and the store; build new ones on the same file."""
        await self.bot.stop()
        if self.store is not None:
            await self.store.close()
        await self.open()
        await self.manager.load()
        await self.bot.pump()

    async def close(self) -> None:
        await self.bot.stop()
        if self.store is not None:
            await self.store.close()

    # -- driving -------------------------------------------------------------------------
    async def feed(self, update: dict[str, Any]) -> None:
        await self.bot.app.process_update(Update.de_json(update, self.bot.app.bot))
        await self.bot.pump()

    async def say(
        self,
        who: dict[str, Any],
        text: str,
        chat: dict[str, Any] | None = None,
        thread: int | None = None,
    ) -> None:
        await self.feed(self.fake.command(who, chat or self.group, text, thread=thread))

    async def press(self, who: dict[str, Any], message: Message, data: str) -> dict[str, Any]:
        before = len(self.fake.answers())
        await self.feed(self.fake.press(who, message, data))
        answers = self.fake.answers()
        assert len(answers) == before + 1, "every button press is answered"
        return answers[-1]

    async def tick(self, seconds: float = 1.0) -> None:
        self.clock.advance(seconds)
        await self.manager.poll_timers()
        await self.bot.pump()

    async def drain(self, limit: float = 600.0) -> None:
        """Let time pass until everything queued has been sent."""
        waited = 0.0
        while self.bot.sender.pending() and waited < limit:
            await self.tick(1.0)
            waited += 1.0
        assert not self.bot.sender.pending(), "the sender never caught up"

    # -- reading -------------------------------------------------------------------------
    @property
    def key(self) -> str:
        return f"tg:{GROUP_ID}:"

    def table_message(self, chat_id: int = GROUP_ID) -> Message:
        return self.fake.last_photo(chat_id, "table.png")

    def hand_message(self, who: dict[str, Any]) -> Message:
        return self.fake.last_photo(who["id"], "hand.png")

    def group_texts(self, chat_id: int = GROUP_ID) -> list[str]:
        return [text for call in self.fake.sends_to(chat_id) for text in call.texts()]


def max_per_minute(calls: list[Call]) -> int:
    times = sorted(c.at for c in calls)
    best, lo = 0, 0
    for hi, at in enumerate(times):
        while times[lo] <= at - 60.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def op_of(data: str) -> str:
    """The op of a private button's payload (``a:<tid>:<version>:<op>[:args]``)."""
    parts = data.split(":")
    return parts[3] if parts[0] == "a" and len(parts) >= 4 else ""


class Driver:
    """Plays the humans' seats by pressing the buttons of their hand messages only."""

    def __init__(self, h: Harness, humans: Sequence[dict[str, Any]]) -> None:
        self.h = h
        self.humans = list(humans)
        self.turns = 0
        self.presses = 0
        self.ready: set[tuple[int, int]] = set()
        self.navigated = 0
        self.returns = 0

    def _find(self, msg: Message, op: str) -> str | None:
        return next((d for _, d in msg.buttons() if op_of(d) == op), None)

    async def _press(self, who: dict[str, Any], op_or_data: str) -> dict[str, Any]:
        msg = self.h.hand_message(who)
        data = op_or_data if ":" in op_or_data else self._find(msg, op_or_data)
        assert data is not None, f"no {op_or_data} button for {who['first_name']}"
        self.presses += 1
        return await self.h.press(who, msg, data)

    async def step(self) -> bool:
        """One decision for the first human who has one; False when nobody had any."""
        h = self.h
        snap = h.manager.snapshot(h.key)
        assert snap is not None
        for who in self.humans:
            priv = h.manager.private_snapshot(h.key, str(who["id"]))
            if priv is None or priv.autoplay:
                continue
            msg = h.hand_message(who)
            mark = (who["id"], snap.hand_no)
            if priv.role == "turn":
                await self._turn(who, msg)
                return True
            if priv.role == "return":
                await self._return(who)
                return True
            if priv.role == "burn":
                await self._press(who, "n")
                continue
            if snap.declare_open and mark not in self.ready and self._find(msg, "K"):
                self.ready.add(mark)
                await self._press(who, "K")
                return True
        return False

    async def _turn(self, who: dict[str, Any], msg: Message) -> None:
        self.turns += 1
        cheapest = next((d for t, d in msg.buttons() if t.startswith("⚡")), None)
        if cheapest is None:
            await self._press(who, "x")
            return
        if self.turns % 4:
            await self._press(who, cheapest)
            return
        # Every fourth turn, the long way: a rank, its size when asked, then a play.
        self.navigated += 1
        await self._press(who, "b")
        if self._find(self.h.hand_message(who), "z"):
            await self._press(who, "z")
        final = next(
            d
            for t, d in self.h.hand_message(who).buttons()
            if op_of(d) == "g" and t.startswith("✅")
        )
        await self._press(who, final)

    async def _return(self, who: dict[str, Any]) -> None:
        for _ in range(20):
            msg = self.h.hand_message(who)
            done = self._find(msg, "Q")
            if done:
                self.returns += 1
                await self._press(who, done)
                return
            picks = [d for _, d in msg.buttons() if op_of(d) == "R"]
            # The first R button is the "picked so far" label; the next adds a card.
            await self._press(who, picks[1])
        raise AssertionError("could not finish a return of tribute")

    async def play_hand(self, max_steps: int = 4000) -> None:
        h = self.h
        start = h.manager.snapshot(h.key)
        assert start is not None
        for _ in range(max_steps):
            snap = h.manager.snapshot(h.key)
            assert snap is not None
            if snap.status.value != "playing" or snap.hand_no != start.hand_no:
                return
            acted = await self.step()
            # Each decision takes a second; with nobody to act, windows run out.
            await h.tick(1.0 if acted else 3.5)
        raise AssertionError("the hand did not finish")
