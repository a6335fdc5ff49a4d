"""Three `gouji` worker processes on one PostgreSQL database, driven through Telegram's
webhook path; one worker is SIGKILLed mid-run and started again.

Run: ``python benchmarks/cluster.py [--tables 300] [--seconds 120] [--workers 3]``; the
black-box run of issues #37/#38 (two groups, whole matches, random routing) is
``python benchmarks/cluster.py --tables 2 --humans mix --hands 1 --think 0.5,1.5
--seconds 300 --seed K``.

* A throwaway PostgreSQL server (as ``tests/store`` starts one), and a fake Telegram Bot
  API on loopback: the in-process fake of ``tests/telegram`` (chats, messages, buttons,
  errors) behind a small HTTP server, which logs every call with its time.
* N worker processes, each the real ``gouji`` entry point in webhook mode
  (``GOUJI_TELEGRAM_WEBHOOK_URL``, ``GOUJI_TELEGRAM_API_URL`` pointing at the fake, a shared
  webhook secret, ``GOUJI_WORKER_ID``, a health port).
* Every table is a group with scripted humans (``--humans``: one by default; six, two, or
  ``mix``: six at the even tables and two at the odd ones) and AI in the other seats,
  opened with ``/gouji``, a ``/join`` per other human, ``/addbot`` and ``/begin``. Each
  human acts on the buttons of its private hand message as the fake server holds it
  (pass when it may, ready, else the first play its keyboard offers), and stops when the
  group's table message says the match is over. A match is ``--hands`` hands (default 0:
  on until the run ends). Each update goes to a random live worker (``--routing random``,
  seeded by ``--seed``, so one group's presses reach different workers at once) or to the
  workers in turn (``round-robin``), the way a load balancer spreads them; a worker that
  does not answer is skipped (as nginx's ``proxy_next_upstream``). The last table of
  every ten (table 9, 19, …) is silent: its humans never answer, so the turn timer fires
  and 托管 plays for them (a one-hand match).
* At 40 % of ``--seconds`` (or ``--kill-at`` seconds into play) the last worker is
  SIGKILLed; 20 % of ``--seconds`` (or ``--down`` seconds) later it starts again. Play
  ends when every match is over, or at ``--seconds``; then the outbox is let empty and
  the workers stopped, and what the fake server got is checked against the database.

Figures (the last lines, ``<name> <value> <unit>``):

* ``cluster_actions_per_second`` — engine actions stored (all seats) per second of run;
* ``cluster_command_p95`` — from a button press that is a command (a play, a pass, ready)
  being posted to the webhook until the fake server gets its ``answerCallbackQuery``
  (30 s when none comes). A worker answers the webhook 200 only after the press is
  handled, so a press the killed worker had taken goes to another worker (the driver
  retries a POST whose connection failed, as Telegram does); one answered 200 and still
  never answered (none should be) is counted apart, not timed;
* ``cluster_lost_actions`` — presses answered as accepted whose action is not stored;
* ``cluster_double_timeouts`` — turn timeouts fired twice for one turn (outbox rows);
* ``cluster_duplicate_messages`` — outbox messages delivered by two workers, and new
  group messages the fake server got twice;
  plus "match over" table calls repeated identically (below);
* ``cluster_group_max_calls_60s`` — most sends and edits to one group in any 60 s;
* ``cluster_missing_pictures`` — hands stored as finished (``hands`` rows) that got no
  result picture (a ``sendPhoto`` of ``result.png`` to the group answered without error);
* ``cluster_missing_messages`` — messages owed and never delivered once the run is over
  and the outbox has emptied (or 120 s passed): outbox rows not ``sent``/``dropped``,
  plus the missing result pictures, plus for every match stored as finished: its final
  table edit if no call to the group carried the "match over" caption, and each human's
  final hand update if the last ``hand.png`` message in their private chat does not show
  the caption the finished table gives them (``private_caption`` of the private snapshot
  a fresh manager reads from the database — the cards left, "nothing left to play").
  A row marked ``sent`` whose call never reached the fake server counts here;
* ``cluster_worker_cpu_per_command`` — the workers' CPU seconds during play (``/proc``),
  their drawing processes' included, per command press: what a command costs, steadier
  than the answer times, which swing with the load (comparable between runs that serve
  about as many commands).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import json
import logging
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import asyncpg  # noqa: E402

import adapters.telegram.catalogue  # noqa: E402,F401 (the tg_ texts for t())
from adapters.telegram.callback import ActPress, BadPayload, decode  # noqa: E402
from adapters.telegram.views import private_caption  # noqa: E402
from benchmarks import cluster_turns as turns  # noqa: E402
from bot.cluster.shell import shared_manager  # noqa: E402
from bot.i18n import t  # noqa: E402
from bot.store import Store, is_postgres_url  # noqa: E402
from bot.table import (  # noqa: E402
    ChatRef,
    GroupSettings,
    TableManager,
    TableSnapshot,
    TableStatus,
    apply_setting_changes,
)
from tests.store.pgserver import free_port, throwaway_server  # noqa: E402
from tests.telegram.fakeapi import SENDS, Call, FakeTelegram, Message  # noqa: E402
from tests.telegram.harness import TOKEN, max_per_minute  # noqa: E402
from tests.telegram.httpapi import BotApiServer, IndexedFake  # noqa: E402

STUB_WORKER = "--stub-render-worker"
SILENT = 10  # every SILENT-th table's human never answers: its timer fires
SECRET = "cluster-bench-secret"
NEW_MESSAGES = frozenset({"sendMessage", "sendPhoto", "sendDocument"})
# Button ops a scripted human presses, best first: pass, ready, a ready-made play, a
# return of tribute, then the steps of the play menu.
PREFERRED = ("x", "K", "g", "Q", "v", "z", "b", "R", "r", "W", "y", "n")
COMMAND_OPS = frozenset({"x", "K", "g", "Q", "W", "y", "n"})


# A worker killed in the middle of an upload: the fake server's half-read request is no
# error of the run.
logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)


# -- the workers ---------------------------------------------------------------------------
def distinct_ports(n: int, taken: set[int]) -> list[int]:
    """``n`` free loopback ports, none twice and none in ``taken`` (each is free when
    drawn, but a port closed again may be drawn again)."""
    out: list[int] = []
    while len(out) < n:
        port = free_port()
        if port not in taken and port not in out:
            out.append(port)
    return out


@dataclass
class Workers:
    url: str
    api_port: int
    logdir: Path
    count: int
    pillow: bool = True  # False: the workers draw tagged bytes instead of PNGs
    ports: list[int] = field(default_factory=list)
    health: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes] | None] = field(default_factory=list)
    down: set[int] = field(default_factory=set)
    killed: dict[int, float] = field(default_factory=dict)  # worker -> when (monotonic)

    def start_all(self) -> None:
        ports = distinct_ports(2 * self.count, {self.api_port})
        self.ports, self.health = ports[: self.count], ports[self.count :]
        self.procs = [None] * self.count
        for i in range(self.count):
            self.start(i)

    def start(self, i: int) -> None:
        env = {
            **os.environ,
            "GOUJI_DATABASE_URL": self.url,
            "GOUJI_TELEGRAM_TOKEN": TOKEN,
            # Each worker under its own prefix: the fake tells whose each call is.
            "GOUJI_TELEGRAM_API_URL": f"http://127.0.0.1:{self.api_port}/w{i}",
            "GOUJI_TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{self.ports[i]}/hook",
            "GOUJI_TELEGRAM_WEBHOOK_PORT": str(self.ports[i]),
            "GOUJI_TELEGRAM_WEBHOOK_SECRET": SECRET,
            "GOUJI_WORKER_ID": f"w{i}",
            "GOUJI_HEALTH_PORT": str(self.health[i]),
            "GOUJI_HEALTH_HOST": "127.0.0.1",
            "GOUJI_LOG": "INFO",
            "GOUJI_LOG_FORMAT": "json",
            # The code of this checkout (and its data package), whatever is installed.
            "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'data'}",
        }
        env.pop("GOUJI_DISCORD_TOKEN", None)
        if not is_postgres_url(self.url):  # one process on a SQLite file
            env.pop("GOUJI_DATABASE_URL")
            env["GOUJI_DB"] = self.url
        gouji = Path(sys.executable).with_name("gouji")
        args = [str(gouji)] if gouji.exists() else [sys.executable, "-m", "adapters.main"]
        if not self.pillow:
            args = [sys.executable, __file__, STUB_WORKER]
            # Tagged bytes cost nothing to draw: no drawing process to hand them to.
            env["GOUJI_DRAW_PROCESSES"] = "0"
        log = open(self.logdir / f"w{i}.log", "ab")  # noqa: SIM115 (the process owns it)
        self.procs[i] = subprocess.Popen(args, env=env, cwd=ROOT, stdout=log, stderr=log)
        log.close()

    async def wait_healthy(self, http: aiohttp.ClientSession, i: int, limit: float = 60) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"http://127.0.0.1:{self.health[i]}/health") as r:
                    if r.status == 200 and (await r.json()).get("worker") == f"w{i}":
                        return
            proc = self.procs[i]
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"worker {i} exited: see {self.logdir}/w{i}.log")
            await asyncio.sleep(0.2)
        raise RuntimeError(f"worker {i} not healthy after {limit:.0f} s")

    def kill(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.down.add(i)
        self.killed[i] = time.monotonic()

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            if proc is None:
                continue
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


# -- the driver: a load balancer and the scripted humans -----------------------------------
@dataclass
class Figures:
    command_ms: list[float] = field(default_factory=list)
    # (seconds into play when pressed, ms to the answer): the answers' timeline, so the
    # SIGKILL and the restart show as what they cost, apart from the steady state.
    command_at: list[tuple[float, float]] = field(default_factory=list)
    navigation_ms: list[float] = field(default_factory=list)
    # Presses a worker took (HTTP 200) whose answer never came, the worker SIGKILLed
    # meanwhile: the 200 comes after the answer now, so none should be — counted, not timed.
    died_with_worker: int = 0
    # How late the driver's own event loop woke (it stamps the answers): with 300 humans
    # and the fake API in one process, a busy driver would pass for a slow cluster.
    loop_lag_ms: list[float] = field(default_factory=list)
    accepted: Counter[int] = field(default_factory=Counter)  # per table
    refused: Counter[str] = field(default_factory=Counter)
    retried_posts: int = 0
    # Refusals per (worker, whether it is the restarted one): a worker that cannot serve
    # another worker's table shows here (before short ids were looked up, every press
    # reaching a worker that had not run one of the table's commands was "out of date").
    refused_by: Counter[tuple[str, bool]] = field(default_factory=Counter)
    post_ms: list[float] = field(default_factory=list)  # webhook POST until its 200
    posts_to: Counter[int] = field(default_factory=Counter)  # per worker
    play_from: float = 0.0  # monotonic time the humans started
    # table -> when each accepted command press was posted (the turn gaps start there)
    pressed: dict[int, list[float]] = field(default_factory=dict)
    press_worker: dict[float, str] = field(default_factory=dict)  # press time -> "w<i>"
    match_over: dict[int, float] = field(default_factory=dict)  # table -> seconds into play


class Driver:
    def __init__(
        self,
        api: BotApiServer,
        workers: Workers,
        http: aiohttp.ClientSession,
        routing: str = "random",
        seed: int = 1,
    ) -> None:
        self.api = api
        self.routing = routing
        self.route = random.Random(seed)
        self.fake = api.fake
        self.workers = workers
        self.http = http
        self.cpu = CpuMeter()
        self.turn = 0
        self.figures = Figures()
        self.ok_texts = {t(k, "zh") for k in ("ok", "held_for_burns", "ready", "burn_declared")}
        self.kill_at = 0.0  # seconds into play the last worker is killed (0: 40 % of the run)
        self.down = 0.0  # and how long it stays down (0: 20 % of the run)
        self.think = (3.0, 8.0)  # seconds a human takes to act on a new keyboard (from, to)

    async def post(self, update: dict[str, Any]) -> int:
        """Hand an update to a live worker (a random one, or the next in turn) and, when it
        does not take it, to another; which worker took it."""
        n = self.workers.count
        for attempt in range(n * 50):
            if self.routing == "random":
                live = [w for w in range(n) if w not in self.workers.down] or list(range(n))
                i = self.route.choice(live)
            else:
                i = (self.turn + attempt) % n
            if i in self.workers.down:
                continue
            url = f"http://127.0.0.1:{self.workers.ports[i]}/hook"
            headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            try:
                sent = time.monotonic()
                async with self.http.post(url, json=update, headers=headers) as r:
                    self.figures.post_ms.append((time.monotonic() - sent) * 1000)
                    if r.status == 200:
                        self.turn = i + 1
                        self.figures.posts_to[i] += 1
                        return i
            except aiohttp.ClientError:
                pass
            self.figures.retried_posts += 1
            await asyncio.sleep(0.05)
        raise RuntimeError("no worker took the update")

    async def press(
        self, user: dict[str, Any], msg: Message, data: str
    ) -> tuple[float, str, int] | None:
        """Press a button; (seconds until it was answered, the answer's text, the worker
        that took it), or None if that worker was killed before it answered."""
        update = self.fake.press(user, msg, data)
        query_id = update["callback_query"]["id"]
        waiter = asyncio.get_running_loop().create_future()
        self.api.answered[query_id] = waiter
        start = time.monotonic()
        worker = await self.post(update)
        try:
            at, text = await asyncio.wait_for(waiter, 30)
        except TimeoutError:
            self.api.answered.pop(query_id, None)
            if self.workers.killed.get(worker, 0.0) > start:
                return None
            return 30.0, "(no answer)", worker
        if text not in self.ok_texts:
            restarted = start > self.workers.killed.get(worker, float("inf"))
            self.figures.refused_by[(f"w{worker}", restarted)] += 1
        return at - start, text, worker


@dataclass
class Human:
    n: int  # the human's number (its user id is 10_000 + n)
    user: dict[str, Any]
    group: dict[str, Any]
    table: int  # the table's number (its group id is -1_000_000 - table)
    done: set[tuple[int, int]] = field(default_factory=set)  # (message, version) acted on
    seen: object = None  # the keyboard last looked at (an edit replaces the object)

    @property
    def chat(self) -> ChatRef:
        return ChatRef("tg", str(self.group["id"]))


def _pick(msg: Message) -> tuple[str, ActPress] | None:
    presses: dict[str, tuple[str, ActPress]] = {}
    for _, data in msg.buttons():
        with contextlib.suppress(BadPayload):
            press = decode(data)
            if isinstance(press, ActPress) and press.op not in presses:
                presses[press.op] = (data, press)
    for op in PREFERRED:
        if op in presses:
            return presses[op]
    return None


async def play(driver: Driver, human: Human, until: float, rng: random.Random) -> None:
    """Act on the private hand message until ``until`` (monotonic)."""
    fake, figs = driver.fake, driver.figures
    uid = human.user["id"]
    while time.monotonic() < until:
        low, high = driver.think
        await asyncio.sleep(low + rng.random() * (high - low))  # a person's reaction
        if match_over(fake, human):
            figs.match_over.setdefault(human.table, time.monotonic() - figs.play_from)
            return
        try:
            msg = fake.last_photo(uid, "hand.png")
        except LookupError:
            continue
        if msg.markup is not None and msg.markup is human.seen:
            continue  # the same keyboard as last time: nothing new to decode
        human.seen = msg.markup
        picked = _pick(msg)
        if picked is None:
            continue
        data, press = picked
        mark = (msg.message_id, hash(data))
        if mark in human.done:
            continue  # pressed already; wait for the keyboard to change
        human.done.add(mark)
        pressed_at = time.monotonic()
        answered = await driver.press(human.user, msg, data)
        if answered is None:
            figs.died_with_worker += 1
            human.done.discard(mark)  # a person would press again
            human.seen = None
            continue
        seconds, text, worker = answered
        if press.op not in COMMAND_OPS:
            figs.navigation_ms.append(seconds * 1000)
            human.done.discard(mark)  # a menu step: the next screen comes in the edit
            human.seen = None
            continue
        figs.command_ms.append(seconds * 1000)
        figs.command_at.append((time.monotonic() - seconds - figs.play_from, seconds * 1000))
        if text in driver.ok_texts:
            figs.pressed.setdefault(human.table, []).append(pressed_at)
            figs.press_worker[pressed_at] = f"w{worker}"
        if text in driver.ok_texts and press.op in ("x", "g"):
            figs.accepted[human.n] += 1
        elif text not in driver.ok_texts:
            figs.refused[text[:12]] += 1


def match_over(fake: IndexedFake, human: Human) -> bool:
    """The group's table message says the match is over."""
    try:
        caption = fake.last_photo(human.group["id"], "table.png").caption or ""
    except LookupError:
        return False
    return t("tg_cap_finished", "zh") in caption


async def watch_loop(figs: Figures, until: float, tick: float = 0.1) -> None:
    while time.monotonic() < until:
        start = time.monotonic()
        await asyncio.sleep(tick)
        figs.loop_lag_ms.append((time.monotonic() - start - tick) * 1000)


def is_silent(table: int) -> bool:
    """Every SILENT-th table's humans never answer (the last of each ten: a run of a few
    tables has none)."""
    return table % SILENT == SILENT - 1


def by_table(humans: list[Human]) -> dict[int, list[Human]]:
    out: dict[int, list[Human]] = {}
    for h in humans:
        out.setdefault(h.table, []).append(h)
    return out


async def open_tables(driver: Driver, humans: list[Human], parallel: int = 12) -> None:
    gate = asyncio.Semaphore(parallel)

    async def say(h: Human, text: str) -> None:
        # As a person would: each command once the bot has answered the one before.
        before = driver.fake.sends_made(h.group["id"])
        await driver.post(driver.fake.command(h.user, h.group, text))
        for _ in range(300):
            if driver.fake.sends_made(h.group["id"]) > before:
                break
            await asyncio.sleep(0.1)

    async def one(seated: list[Human]) -> None:
        first = seated[0]
        async with gate:
            await say(first, "/gouji")
            for h in seated[1:]:
                await say(h, "/join")
            if len(seated) < 6:
                await say(first, f"/addbot {6 - len(seated)}")
            await say(first, "/begin")

    await asyncio.gather(*(one(seated) for seated in by_table(humans).values()))


def humans_at(table: int, spec: str) -> int:
    """How many humans sit at a table: ``spec`` is a count, or ``mix`` (six at the even
    tables, two at the odd ones)."""
    if spec == "mix":
        return 6 if table % 2 == 0 else 2
    return int(spec)


def make_humans(fake: FakeTelegram, tables: int, spec: str = "1") -> list[Human]:
    out: list[Human] = []
    for table in range(tables):
        group = fake.add_group(-1_000_000 - table, f"group {table}")
        for _ in range(humans_at(table, spec)):
            n = len(out)
            user = {"id": 10_000 + n, "is_bot": False, "first_name": f"p{n}", "language_code": "zh"}
            fake.opened.add(user["id"])
            fake.private_chat(user)
            out.append(Human(n, user, group, table))
    return out


async def seed_settings(url: str, humans: list[Human], hands: int = 0) -> None:
    # A silent table's match is one hand (托管 plays it out, then it ends); the others
    # play ``hands`` hands (0: on while their humans do).
    silent = apply_setting_changes(GroupSettings(), {"match_hands": 1, "turn_seconds": 5})
    normal = apply_setting_changes(GroupSettings(), {"match_hands": hands, "turn_seconds": 0})
    store = Store(url)
    await store.open()
    for table, seated in by_table(humans).items():
        chosen = silent if is_silent(table) else normal
        await store.save_settings(seated[0].chat.group_key, chosen.to_json())
    await store.close()


# -- the run -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    tables: int = 300
    seconds: float = 120.0
    workers: int = 3
    pillow: bool = True
    think: tuple[float, float] = (3.0, 8.0)
    humans: str = "1"  # per table: a count, or "mix" (six and two)
    hands: int = 0  # a match's hands (0: on until the run ends)
    routing: str = "random"
    seed: int = 1
    kill_at: float = 0.0  # < 0: no kill
    down: float = 0.0


async def run(url: str, opt: Options) -> None:
    logdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"gouji-cluster-{os.getpid()}"
    logdir.mkdir(parents=True, exist_ok=True)
    api = BotApiServer()
    await api.start()
    humans = make_humans(api.fake, opt.tables, opt.humans)
    await seed_settings(url, humans, opt.hands)
    pool = Workers(url, api.port, logdir, opt.workers, opt.pillow)
    pool.start_all()
    seen: Counter[str] = Counter()
    try:
        async with aiohttp.ClientSession() as http:
            for i in range(opt.workers):
                await pool.wait_healthy(http, i)
            driver = Driver(api, pool, http, opt.routing, opt.seed)
            driver.think = opt.think
            driver.kill_at, driver.down = opt.kill_at, opt.down
            t0 = time.monotonic()
            await open_tables(driver, humans)
            waits = asyncio.create_task(
                sample_waits(url, seen) if is_postgres_url(url) else asyncio.sleep(0)
            )
            elapsed = await drive(driver, pool, humans, opt.seconds, http, opt.seed)
            waits.cancel()
            await asyncio.gather(waits, return_exceptions=True)
            print_waits(seen)
            settled = await settle(url)
            await asyncio.sleep(5.0)  # a paced edit the last outbox row made is on its way
    finally:
        pool.stop_all()
        await api.stop()
    report_turns(driver, humans, opt.humans)
    stored = await stored_figures(url, humans)
    # The end-of-match checks read the store as a cluster's worker (not on one SQLite
    # process: its manager there waits for nothing that comes).
    ends = await check_ends(url, humans, api.fake) if is_postgres_url(url) else Ends()
    print(f"# the outbox emptied {settled:.0f} s after the humans stopped")
    report(driver, pool, humans, stored, elapsed, time.monotonic() - t0, logdir, ends)


async def settle(url: str, limit: float = 120.0) -> float:
    """Wait until every outbox message is sent (leases of the killed worker run out,
    paced edits go out); returns how long it took."""
    store = Store(url)
    await store.open()
    start = time.monotonic()
    try:
        while time.monotonic() - start < limit:
            async with store.transaction(readonly=True) as tx:
                row = await tx.tx.fetchone(
                    "SELECT count(*) FROM outbox WHERE state NOT IN ('sent', 'dropped')"
                )
            if row is not None and int(row[0]) == 0:
                break
            await asyncio.sleep(1.0)
    finally:
        await store.close()
    return time.monotonic() - start


class CpuMeter:
    """CPU seconds the workers, PostgreSQL and this driver used during play, from
    ``/proc`` (sampled twice a second; a process first seen after the first sample — the
    restarted worker, a new database session — counts from its start). A sturdier figure
    than the answer times: what each command costs the machine, whatever the load."""

    def __init__(self) -> None:
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.kind: dict[int, str] = {}
        self.sampled = False

    @staticmethod
    def _cpu(pid: int) -> tuple[str, int, float] | None:
        try:
            raw = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return name, int(fields[1]), used

    def sample(self, workers: list[int]) -> None:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        for pid in pids:
            seen = self._cpu(pid)
            if seen is None:
                continue
            name, parent, used = seen
            kind = (
                "workers"
                if pid in workers
                else "drawing"  # a worker's drawing process (adapters/drawing.py)
                if parent in workers
                else "postgres"
                if name == "postgres"
                else "driver"
                if pid == os.getpid()
                else ""
            )
            if not kind:
                continue
            self.kind[pid] = kind
            self.first.setdefault(pid, used if not self.sampled else 0.0)
            self.last[pid] = used
        self.sampled = True

    def used(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for pid, kind in self.kind.items():
            out[kind] += self.last[pid] - self.first[pid]
        return out


async def meter_cpu(meter: CpuMeter, pool: Workers, until: float) -> None:
    while time.monotonic() < until:
        meter.sample([p.pid for p in pool.procs if p is not None and p.poll() is None])
        await asyncio.sleep(0.5)
    meter.sample([p.pid for p in pool.procs if p is not None and p.poll() is None])


async def sample_waits(url: str, seen: Counter[str]) -> None:
    """What the database's sessions are doing, sampled four times a second until
    cancelled: where a command's time goes when no CPU is short (lock waits, I/O, the
    NOTIFY queue…)."""
    conn = await asyncpg.connect(url)
    try:
        while True:
            rows = await conn.fetch(
                "SELECT state, wait_event_type, wait_event, left(query, 40) AS q "
                "FROM pg_stat_activity WHERE backend_type = 'client backend' "
                "AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            for r in rows:
                seen[f"{r['state']}|{r['wait_event_type']}|{r['wait_event']}|{r['q']}"] += 1
            await asyncio.sleep(0.25)
    finally:
        await conn.close()


def print_waits(seen: Counter[str]) -> None:
    total = sum(seen.values()) or 1
    print(f"# database sessions not idle, {total} samples:")
    for key, n in seen.most_common(25):
        print(f"#   {100 * n / total:5.1f}%  {key}")


async def drive(
    driver: Driver, pool: Workers, humans: list[Human], seconds: float, http: Any, seed: int = 1
) -> float:
    start = time.monotonic()
    until = start + seconds
    driver.figures.play_from = start
    print(f"# play starts (pid {os.getpid()})", flush=True)
    players = [
        asyncio.create_task(play(driver, h, until, random.Random(seed * 1_000_003 + h.n)))
        for h in humans
        if not is_silent(h.table)
    ]
    meters = [
        asyncio.create_task(watch_loop(driver.figures, until)),
        asyncio.create_task(meter_cpu(driver.cpu, pool, until)),
    ]
    if driver.kill_at >= 0:
        await kill_and_restart(driver, pool, seconds, http, start)
    await asyncio.gather(*players)  # every match over, or the time up
    for task in meters:
        task.cancel()
    await asyncio.gather(*meters, return_exceptions=True)
    driver.cpu.sample([p.pid for p in pool.procs if p is not None and p.poll() is None])
    elapsed = time.monotonic() - start
    await print_profiles(pool, http)
    return elapsed


async def kill_and_restart(
    driver: Driver, pool: Workers, seconds: float, http: Any, start: float
) -> None:
    victim = pool.count - 1
    kill_at, down = driver.kill_at or seconds * 0.4, driver.down or seconds * 0.2
    await asyncio.sleep(kill_at)
    pool.kill(victim)
    print(f"# worker w{victim} SIGKILLed at {time.monotonic() - start:.0f} s", flush=True)
    await asyncio.sleep(down)
    pool.start(victim)
    await pool.wait_healthy(http, victim)
    pool.down.discard(victim)
    print(f"# worker w{victim} back at {time.monotonic() - start:.0f} s", flush=True)


async def print_profiles(pool: Workers, http: aiohttp.ClientSession) -> None:
    """Where each worker's command time went (its health endpoint's ``command_ms``)."""
    for i in range(pool.count):
        facts: dict[str, Any] = {}
        with contextlib.suppress(aiohttp.ClientError):
            async with http.get(f"http://127.0.0.1:{pool.health[i]}/health") as r:
                facts = await r.json()
        phases = facts.get("command_ms", {})
        print(f"# w{i} phases (ms, p50/p95/max, n):")
        for name, v in sorted(phases.items(), key=lambda kv: -kv[1]["p95"]):
            print(f"#   {name:22} {v['p50']:8.1f} {v['p95']:8.1f} {v['max']:8.1f} {v['n']:6.0f}")


@dataclass
class Stored:
    actions: int = 0
    human_plays: Counter[int] = field(default_factory=Counter)
    timeouts: Counter[str] = field(default_factory=Counter)  # per (table, turn)
    deliveries: Counter[str] = field(default_factory=Counter)
    unsent: int = 0
    dropped: int = 0  # replies to commands the sender shed (stale, or a full queue)


async def stored_figures(url: str, humans: list[Human]) -> Stored:
    out = Stored()
    store = Store(url)
    await store.open()
    try:
        async with store.transaction(readonly=True) as tx:
            for seated in by_table(humans).values():
                await _table_actions(tx, seated, out)
            rows = await tx.tx.fetch("SELECT msg_key, payload, state, attempts FROM outbox")
    finally:
        await store.close()
    for key, payload, state, _attempts in rows:
        body = json.loads(payload)
        if body.get("key") == "autoplay_timeout":
            # one per fired timeout: the row's key names the table version that fired it
            out.timeouts[f"{body.get('table')}#{dict(body.get('params', [])).get('seat')}"] += 1
        out.unsent += state not in ("sent", "dropped")
        out.dropped += state == "dropped"
        out.deliveries[key] += 1
    return out


async def _table_actions(tx: Any, seated: list[Human], out: Stored) -> None:
    chat = seated[0].chat
    # in the same transaction: SQLite's one connection would wait for itself in another
    logs = [x for hand in await tx.finished_hands(chat.group_key) for x in hand["actions"]]
    row = await tx.load_table(chat.key)
    done = {
        int(r[0])
        for r in await tx.tx.fetch("SELECT deal_no FROM hands WHERE table_key = ?", chat.key)
    }
    if row is not None and int(row.record["deal_no"]) not in done:  # its hand is on, not stored
        logs += [[s, a] for s, a in await tx.load_actions(chat.key, int(row.record["deal_no"]))]
    out.actions += len(logs)
    for h in seated:
        seat = _human_seat(row.record if row is not None else None, str(h.user["id"]))
        out.human_plays[h.n] = sum(
            1
            for s, a in logs
            if s == seat and a.get("do") in ("play", "pass") and not a.get("auto")
        )


def _human_seat(record: dict[str, Any] | None, uid: str) -> int | None:
    for i, seat in enumerate((record or {}).get("seats", []), start=1):  # seats are 1-6
        if isinstance(seat, dict) and str(seat.get("user_id")) == uid:
            return i
    return None


@dataclass
class Ends:
    """What the end of every hand and match owed the group and its players, and what of it
    the fake Bot API never got (see the module's docstring)."""

    matches_over: int = 0
    results_owed: int = 0
    missing_pictures: int = 0
    missing_table_edits: int = 0
    missing_hand_updates: int = 0
    twice: int = 0  # final table edits made more than once
    notes: list[str] = field(default_factory=list)


async def check_ends(url: str, humans: list[Human], fake: IndexedFake) -> Ends:
    """Per group: a result picture per finished hand; for a finished match, its final
    table edit once and each human's hand message showing the finished table's state."""
    out = Ends()
    store = Store(url)
    await store.open()
    manager = shared_manager(store, worker="checker")
    try:
        for table, seated in by_table(humans).items():
            group = int(seated[0].group["id"])
            calls = [c for c in fake.sends_to(group) if c.error is None]
            owed = len(await store.finished_hands(seated[0].chat.group_key))
            got = sum("result.png" in c.upload_names() for c in calls)
            out.results_owed += owed
            if got < owed:
                out.missing_pictures += owed - got
                out.notes.append(f"table {table}: {got} result pictures for {owed} hands")
            key = seated[0].chat.key
            await manager.refresh(key)
            snap = manager.snapshot(key)
            if snap is None or snap.status is not TableStatus.FINISHED:
                continue
            out.matches_over += 1
            _final_table(out, table, calls)
            for h in seated:
                _final_hand(out, manager, fake, h, snap)
    finally:
        await store.close()
    return out


def _final_table(out: Ends, table: int, calls: list[Call]) -> None:
    over = t("tg_cap_finished", "zh")
    final = [
        c
        for c in calls
        if c.method != "sendMessage" and "result.png" not in c.upload_names()
        if any(over in x for x in c.texts())
    ]
    if not final:
        out.missing_table_edits += 1
        out.notes.append(f"table {table}: the match ended, its table message never said so")
    # A repeat is the same call again (the at-least-once window); a later, different edit
    # of the finished table (a notice line added under the same "match over") is none.
    same = Counter((c.method, tuple(c.upload_names()), tuple(c.texts())) for c in final)
    out.twice += sum(n - 1 for n in same.values())
    if len(final) > 1:  # what each carried
        seen = [(c.method, c.upload_names(), " | ".join(c.texts())[-80:]) for c in final]
        out.notes.append(f"table {table}: {len(final)} calls say the match is over: {seen}")


def _final_hand(
    out: Ends, manager: TableManager, fake: IndexedFake, h: Human, snap: TableSnapshot
) -> None:
    priv = manager.private_snapshot(snap.key, str(h.user["id"]))
    if priv is None:
        return
    want = private_caption(priv, snap, priv.lang)
    try:
        shown = fake.last_photo(int(h.user["id"]), "hand.png").caption
    except LookupError:
        shown = None
    if shown != want:
        out.missing_hand_updates += 1
        last = (shown or "").replace("\n", " | ")[:120]
        out.notes.append(f"table {h.table}: p{h.n}'s hand message ends at {last!r}")


def report(
    driver: Driver,
    pool: Workers,
    humans: list[Human],
    stored: Stored,
    elapsed: float,
    total: float,
    logdir: Path,
    ends: Ends,
) -> None:
    figs = driver.figures
    lost = sum(max(0, figs.accepted[h.n] - stored.human_plays[h.n]) for h in humans)
    doubles = sum(c - 1 for c in stored.timeouts.values() if c > 1)
    group_calls = [c for c in driver.fake.calls if c.method in SENDS and (c.chat_id or 0) < 0]
    per_group: dict[int, list[Call]] = {}
    for c in group_calls:
        per_group.setdefault(int(c.chat_id or 0), []).append(c)
    busiest = max((max_per_minute(calls) for calls in per_group.values()), default=0)
    for chat, calls in per_group.items():
        if max_per_minute(calls) == busiest and busiest > 20:
            # When the group went over, and with what (kill and restart times are above).
            at = [(round(c.at - figs.play_from, 1), c.method) for c in sorted(calls, key=_at)]
            print(f"# busiest group {chat}: {busiest} calls in 60 s; all its calls: {at}")
    new = Counter(
        (c.chat_id, c.method, tuple(c.texts()))
        for c in group_calls
        if c.method in NEW_MESSAGES and c.error is None
    )
    duplicates = sum(n - 1 for n in new.values() if n > 1) + ends.twice
    for (chat, method, texts), n in new.items():
        if n > 1:
            print(f"# twice in {chat}: {method} {[x[:40] for x in texts]}")
    during = Counter(c.method for c in driver.fake.calls if c.at >= figs.play_from)
    print(f"# Bot API calls during play, by method: {dict(during.most_common())}")
    p95 = _p95(figs.command_ms)
    drawn = "Pillow" if pool.pillow else "stub"
    low, high = driver.think
    print(
        f"{pool.count} workers, {len(by_table(humans))} tables, {len(humans)} humans, "
        f"routing {driver.routing}, {elapsed:.0f} s of play, {drawn} images, "
        f"humans press {low:g}-{high:g} s after their keyboard changed"
    )
    print(f"logs {logdir}")
    print(
        f"{len(figs.command_ms)} commands, {len(figs.navigation_ms)} menu presses "
        f"(p95 {_p95(figs.navigation_ms):.0f} ms); refused: {dict(figs.refused)}; "
        f"{figs.died_with_worker} taken by the killed worker and never answered"
    )
    ms = sorted(figs.command_ms)
    if ms:
        cuts = statistics.quantiles(ms, n=100) if len(ms) > 100 else [ms[-1]] * 99
        print(
            f"command answer ms: p50 {statistics.median(ms):.0f}, p90 {cuts[89]:.0f}, "
            f"p99 {cuts[98]:.0f}, max {ms[-1]:.0f}; over 1 s: {sum(x > 1000 for x in ms)}"
        )
    print(f"command answer p95 per 10 s of play (ms): {_timeline(figs.command_at)}")
    lag = sorted(figs.loop_lag_ms)
    if len(lag) > 20:
        print(
            f"the driver's event loop woke late by p50 {statistics.median(lag):.0f} ms, "
            f"p95 {statistics.quantiles(lag, n=20)[-1]:.0f} ms, max {lag[-1]:.0f} ms"
        )
    print(f"refused per (worker, restarted): {dict(figs.refused_by)}")
    if figs.post_ms:
        print(
            f"webhook POST answered (ms): p50 {statistics.median(figs.post_ms):.0f}, "
            f"p95 {_p95(figs.post_ms):.0f}; posts per worker {dict(sorted(figs.posts_to.items()))}"
        )
    print(
        f"{stored.actions} engine actions stored; {len(driver.fake.calls)} Bot API calls; "
        f"{stored.unsent} outbox rows unsent, {stored.dropped} replies shed; "
        f"{figs.retried_posts} webhook posts retried"
    )
    silent = sum(is_silent(table) for table in by_table(humans))
    print(f"silent tables timed out: {len(stored.timeouts)} of {silent}")
    for note in ends.notes:
        print(f"# END {note}")
    over = ", ".join(f"table {k} at {v:.0f} s" for k, v in sorted(figs.match_over.items()))
    print(
        f"matches over: {ends.matches_over} of {len(by_table(humans))} ({over}); "
        f"{ends.results_owed} hands finished; missing: {ends.missing_pictures} result "
        f"pictures, {ends.missing_table_edits} final table edits, "
        f"{ends.missing_hand_updates} final hand updates; {stored.unsent} outbox rows unsent"
    )
    cpu = driver.cpu.used()
    served = max(1, len(figs.command_ms))
    # The drawing processes draw for the workers: a command's cost includes its pictures.
    working = cpu["workers"] + cpu["drawing"]
    print(
        f"CPU during play (s): workers {cpu['workers']:.1f} and their drawing processes "
        f"{cpu['drawing']:.1f}, postgres {cpu['postgres']:.1f}, driver {cpu['driver']:.1f}; "
        f"per command: workers with drawing {1000 * working / served:.1f} ms, "
        f"postgres {1000 * cpu['postgres'] / served:.1f} ms"
    )
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    print(f"cluster_actions_per_second {stored.actions / total:.0f} actions/s")
    print(f"cluster_command_p95 {p95:.1f} ms")
    print(f"cluster_worker_cpu_per_command {1000 * working / served:.1f} ms")
    print(f"cluster_lost_actions {lost} actions")
    print(f"cluster_double_timeouts {doubles} timeouts")
    print(f"cluster_duplicate_messages {duplicates} messages")
    print(f"cluster_group_max_calls_60s {busiest} calls")
    print(f"cluster_missing_pictures {ends.missing_pictures} pictures")
    missing = (
        stored.unsent + ends.missing_pictures + ends.missing_table_edits + ends.missing_hand_updates
    )
    print(f"cluster_missing_messages {missing} messages")


def report_turns(driver: Driver, humans: list[Human], spec: str) -> None:
    """The turn gaps and six-human hands (benchmarks/cluster_turns.py), and the calls
    per worker."""
    figs, fake = driver.figures, driver.fake
    six = {table for table in by_table(humans) if humans_at(table, spec) == 6}
    users = {int(h.user["id"]): h.table for h in humans if h.table in six}
    arrivals = turns.turn_arrivals(fake.calls, users)
    gaps = sorted(turns.turn_gaps(arrivals, figs.pressed))
    results = [
        (c.at, -1_000_000 - int(c.chat_id or 0))
        for c in fake.calls
        if c.error is None and "result.png" in c.upload_names()
    ]
    hands = turns.hand_seconds(arrivals, [r for r in results if r[1] in six])
    if gaps:
        print(
            f"turn gaps at six-human tables (s): n {len(gaps)}, p50 "
            f"{statistics.median(gaps):.2f}, p95 {_p95(gaps):.2f}, max {gaps[-1]:.2f}; "
            f"over 1 s: {sum(g > 1 for g in gaps)}"
        )
    print(f"six-human hands (s): {[round(h) for h in hands]}")
    _gaps_by_sender(arrivals, figs, fake.calls)
    spread = turns.spread(fake.calls, figs.play_from, SENDS)
    print(
        f"Bot API calls during play per worker: {dict(sorted(spread.calls.items()))}; "
        f"group and private sends and edits: {dict(sorted(spread.sends.items()))}"
    )
    print(f"cluster_turn_gap_p95 {_p95(gaps) * 1000:.0f} ms")
    print(f"cluster_six_human_hand {max(hands, default=float('nan')):.0f} s")
    print(f"cluster_calls_worker_max_share {spread.max_share(spread.calls):.2f} share")
    print(f"cluster_sends_worker_max_share {spread.max_share(spread.sends):.2f} share")


def _gaps_by_sender(arrivals: list[tuple[float, int]], figs: Figures, calls: list[Call]) -> None:
    """The turn gaps split by whether the worker that sent the keyboard took the press
    before it (it relayed its own commit) or not (the chat's sender heard the commit)."""
    caller = {c.at: c.caller for c in calls}
    split: dict[bool, list[float]] = {True: [], False: []}
    for at, table in arrivals:
        before = [p for p in figs.pressed.get(table, []) if p < at]
        if before:
            own = caller.get(at) == figs.press_worker.get(max(before))
            split[own].append(at - max(before))
    if os.environ.get("GOUJI_BENCH_TRACE"):  # what happened in a few slow turns
        slow = [(at, t) for at, t in arrivals if figs.pressed.get(t)][:400]
        shown = 0
        for at, table in slow:
            before = max([p for p in figs.pressed.get(table, []) if p < at], default=None)
            if before is None or at - before < 0.4 or shown >= 6:
                continue
            shown += 1
            print(f"# slow turn: pressed at {before:.3f} on {figs.press_worker.get(before)}")
            for c in calls:
                if before - 0.05 <= c.at <= at:
                    print(f"#   +{c.at - before:6.3f} {c.caller} {c.method} {c.chat_id}")
    for own, gaps in split.items():
        if gaps:
            gaps.sort()
            print(
                f"# turn gaps, keyboard sent by the {'same' if own else 'other'} worker: "
                f"n {len(gaps)}, p50 {statistics.median(gaps):.2f}, p95 {_p95(gaps):.2f}"
            )


def _timeline(stamped: list[tuple[float, float]], width: float = 10.0) -> str:
    """``<from>s <p95>`` for each ``width`` seconds of play (the presses made in it)."""
    windows: dict[int, list[float]] = {}
    for at, ms in stamped:
        windows.setdefault(int(at // width), []).append(ms)
    return ", ".join(f"{int(w * width)}s {_p95(v):.0f}" for w, v in sorted(windows.items()))


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 20 else float("nan")


def stub_worker() -> int:
    """The ``gouji`` entry point with the tests' stub renderer: Pillow's 20-50 ms an image
    (benchmarks/render.py) would otherwise be most of what a small machine measures."""
    import adapters.telegram.app as telegram_app
    from adapters.main import main as gouji
    from tests.telegram.harness import FakeRenderer

    telegram_app.PillowRenderer = FakeRenderer  # type: ignore[misc,assignment]
    return gouji([])


def _at(call: Call) -> float:
    return call.at


def main() -> None:
    faulthandler.register(signal.SIGUSR1)  # where a stuck run is: kill -USR1 <pid>
    if sys.argv[1:] == [STUB_WORKER]:
        sys.exit(stub_worker())
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120.0, help="of play after set-up")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--db",
        help="a postgresql:// URL (default: a throwaway server), or a SQLite file for one "
        "process (with --workers 1 --kill-at -1: the same script on one SQLite process)",
    )
    parser.add_argument(
        "--render",
        choices=("pillow", "stub"),
        default="pillow",
        help="stub: the workers draw no PNGs (their cost is benchmarks/render.py's)",
    )
    parser.add_argument(
        "--think",
        default="3,8",
        help="FROM,TO: seconds a human takes to press after its keyboard changed "
        "(default 3,8: a person choosing among plays; 0.3,0.7 is a stress pace)",
    )
    parser.add_argument(
        "--humans",
        default="1",
        choices=("1", "2", "3", "4", "5", "6", "mix"),
        help="humans at each table, the other seats AI; mix: six at the even tables, two at "
        "the odd ones",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=0,
        help="hands in a match (0: matches go on until the run ends; N: each ends after N "
        "hands and its humans stop)",
    )
    parser.add_argument(
        "--routing",
        choices=("random", "round-robin"),
        default="random",
        help="which live worker gets each update (random: as a load balancer spreading "
        "requests, so one group's presses reach different workers at once)",
    )
    parser.add_argument("--seed", type=int, default=1, help="of the routing and the humans")
    parser.add_argument(
        "--kill-at",
        type=float,
        default=0.0,
        help="seconds into play (default 40 %% of --seconds; negative: no kill)",
    )
    parser.add_argument(
        "--down",
        type=float,
        default=0.0,
        help="seconds the killed worker stays down (default 20 %% of --seconds)",
    )
    args = parser.parse_args()
    low, _, high = args.think.partition(",")
    opt = Options(
        tables=args.tables,
        seconds=args.seconds,
        workers=args.workers,
        pillow=args.render == "pillow",
        think=(float(low), float(high or low)),
        humans=args.humans,
        hands=args.hands,
        routing=args.routing,
        seed=args.seed,
        kill_at=args.kill_at,
        down=args.down,
    )
    if args.db:
        asyncio.run(run(args.db, opt))
        return
    with throwaway_server(fsync=True) as server:
        asyncio.run(run(server.url(), opt))


if __name__ == "__main__":
    main()
