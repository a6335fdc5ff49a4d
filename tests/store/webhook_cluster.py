"""Real ``gouji`` webhook workers for the tests, the fake Bot API they call and a router
in front of them that hands an update to one worker at a time, as Telegram (or a load
balancer) does: the update is delivered once a worker answers it 200.

Workers run ``tests.store.paused_worker`` (the real entry point; it can stop at a point
of a step's commit, to be killed there), on a SQLite file or a PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.i18n import t
from bot.store import Store
from bot.table import ChatRef, GroupSettings, apply_setting_changes
from bot.table.record import table_from_json
from tests.store.paused_worker import ARMED, PAUSE_AT, PAUSED
from tests.telegram.fakeapi import Message
from tests.telegram.harness import TOKEN
from tests.telegram.httpapi import BotApiServer

from .pgserver import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "webhook-cluster-secret"
GROUP = -1_000_100
HUMAN: dict[str, Any] = {"id": 20_001, "is_bot": False, "first_name": "p1", "language_code": "zh"}
CHAT = ChatRef("tg", str(GROUP))
# What an accepted command is answered with (a play may be held for a burn window).
OK_TEXTS = frozenset(t(k, "zh") for k in ("ok", "held_for_burns", "ready", "burn_declared"))


@dataclass
class Worker:
    name: str
    port: int
    health: int
    proc: subprocess.Popen[bytes] | None = None


@dataclass
class Cluster:
    """Workers on ``target`` behind the test's router, the fake Bot API on loopback."""

    target: str
    tmp: Path
    api: BotApiServer = field(default_factory=BotApiServer)
    workers: list[Worker] = field(default_factory=list)
    http: aiohttp.ClientSession | None = None
    group: dict[str, Any] = field(default_factory=dict)
    down: set[int] = field(default_factory=set)  # workers killed (and not started again)
    rng: random.Random = field(default_factory=lambda: random.Random(38))

    @property
    def armed(self) -> Path:
        return self.tmp / "armed"

    @property
    def paused(self) -> Path:
        return self.tmp / "paused"

    async def open(self, names: list[str], settings: dict[str, Any]) -> None:
        await self.api.start()
        self.group = self.api.fake.add_group(GROUP, "webhook group")
        self.api.fake.opened.add(HUMAN["id"])
        self.api.fake.private_chat(HUMAN)
        store = Store(self.target)
        await store.open()
        chosen = apply_setting_changes(GroupSettings(), settings)
        await store.save_settings(CHAT.group_key, chosen.to_json())
        await store.close()
        self.http = aiohttp.ClientSession()
        for name in names:
            self.workers.append(Worker(name, free_port(), free_port()))

    async def close(self) -> None:
        for w in self.workers:
            if w.proc is not None and w.proc.poll() is None:
                w.proc.send_signal(signal.SIGTERM)
        for w in self.workers:
            if w.proc is not None:
                try:
                    w.proc.wait(15)
                except subprocess.TimeoutExpired:
                    w.proc.kill()
                    w.proc.wait()
        if self.http is not None:
            await self.http.close()
        await self.api.stop()

    def env(self, w: Worker, pause_at: str | None) -> dict[str, str]:
        env = {
            **os.environ,
            "GOUJI_TELEGRAM_TOKEN": TOKEN,
            "GOUJI_TELEGRAM_API_URL": f"http://127.0.0.1:{self.api.port}",
            "GOUJI_TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{w.port}/hook",
            "GOUJI_TELEGRAM_WEBHOOK_PORT": str(w.port),
            "GOUJI_TELEGRAM_WEBHOOK_HOST": "127.0.0.1",
            "GOUJI_TELEGRAM_WEBHOOK_SECRET": SECRET,
            "GOUJI_WORKER_ID": w.name,
            "GOUJI_HEALTH_PORT": str(w.health),
            "GOUJI_HEALTH_HOST": "127.0.0.1",
            "GOUJI_DRAW_PROCESSES": "0",
            "GOUJI_LOG": "INFO",
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "data")]),
        }
        for name in ("GOUJI_DISCORD_TOKEN", "GOUJI_WEB_URL", PAUSE_AT, "GOUJI_DATABASE_URL"):
            env.pop(name, None)
        if self.target.startswith("postgres"):
            env["GOUJI_DATABASE_URL"] = self.target
        else:
            env["GOUJI_DB"] = self.target
        if pause_at is not None:
            env.update({PAUSE_AT: pause_at, ARMED: str(self.armed), PAUSED: str(self.paused)})
        return env

    async def start(self, i: int, pause_at: str | None = None) -> None:
        w = self.workers[i]
        log = open(self.tmp / f"{w.name}.log", "ab")  # noqa: SIM115 (the process owns it)
        w.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.paused_worker"],
            env=self.env(w, pause_at),
            cwd=ROOT,
            stdout=log,
            stderr=log,
        )
        log.close()
        await self.healthy(i)
        self.down.discard(i)

    async def healthy(self, i: int, limit: float = 60.0) -> None:
        w, http = self.workers[i], self.http
        assert http is not None and w.proc is not None
        end = time.monotonic() + limit
        while time.monotonic() < end:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"http://127.0.0.1:{w.health}/health") as r:
                    if r.status == 200:
                        return
            assert w.proc.poll() is None, self.log_of(i)
            await asyncio.sleep(0.1)
        raise AssertionError(f"{w.name} not healthy: {self.log_of(i)}")

    def log_of(self, i: int) -> str:
        return (self.tmp / f"{self.workers[i].name}.log").read_text(errors="replace")[-3000:]

    def kill(self, i: int) -> None:
        proc = self.workers[i].proc
        assert proc is not None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.down.add(i)

    def index(self, name: str) -> int:
        return next(i for i, w in enumerate(self.workers) if w.name == name)

    # -- the router ---------------------------------------------------------------------
    async def deliver(self, update: dict[str, Any], i: int) -> int | None:
        """One delivery of ``update`` to worker ``i``: its HTTP status, or None when the
        connection failed (the worker is down, or died before it answered)."""
        assert self.http is not None
        url = f"http://127.0.0.1:{self.workers[i].port}/hook"
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        try:
            async with self.http.post(url, json=update, headers=headers) as r:
                return r.status
        except aiohttp.ClientError:
            return None

    async def route(self, update: dict[str, Any], limit: float = 120.0) -> int:
        """Deliver ``update`` to a random live worker until one answers 200 (Telegram
        delivers it again while none has); which one did."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            live = [i for i in range(len(self.workers)) if i not in self.down]
            if live:
                i = self.rng.choice(live)
                if await self.deliver(update, i) == 200:
                    return i
            await asyncio.sleep(0.1)
        raise AssertionError("no worker took the update")

    async def say(self, text: str, i: int) -> None:
        """A command in the group, once the bot answered the one before."""
        fake = self.api.fake
        before = len(fake.sends_to(GROUP))
        update = fake.command(HUMAN, self.group, text)
        assert await self.deliver(update, i) == 200
        for _ in range(300):
            if len(fake.sends_to(GROUP)) > before:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"no answer to {text}")

    # -- reading --------------------------------------------------------------------------
    def hand(self) -> Message | None:
        try:
            return self.api.fake.last_photo(HUMAN["id"], "hand.png")
        except LookupError:
            return None

    def answers_to(self, update: dict[str, Any]) -> list[str]:
        query = update["callback_query"]["id"]
        return [
            str(c.params.get("text") or "")
            for c in self.api.fake.calls
            if c.method == "answerCallbackQuery" and str(c.params.get("callback_query_id")) == query
        ]

    async def human_actions(self) -> int:
        """How many actions the human's seat has in the stored log of the deal."""
        store = Store(self.target)
        await store.open()
        try:
            async with store.transaction(readonly=True) as tx:
                row = await tx.load_table(CHAT.key)
            assert row is not None
            table = table_from_json(dict(row.record))
            seat = next(
                i + 1
                for i, s in enumerate(table.seats)
                if s is not None and s.user_id == str(HUMAN["id"])
            )
            log = await store.load_actions(CHAT.key, table.deal_no)
        finally:
            await store.close()
        return sum(1 for s, _ in log if s == seat)
