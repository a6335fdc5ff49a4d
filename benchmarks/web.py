"""Open pages of the web table over loopback: how soon a change reaches them, how soon a
tap is accepted, and what an open page costs the server.

Run: ``python benchmarks/web.py [--pages 300] [--tables 50] [--seconds 40] [--think 1.0]``.
The bot's side runs in a child process (the table manager, its timers and the web
server, as in ``gouji``), so its memory is measured alone. Each table has one human seat
and five AI seats; its pages are the human's own page (Discord-style signed link) and
spectator pages. The human's page "taps" the cheapest suggested play (or passes, returns,
says ready) ``--think`` seconds after its turn comes, through ``POST /api/act``; every page
reads the Server-Sent Events stream.

- ``web_update_p95_ms``: a tap sent → each page of that table has the event of the new
  version (the tap's own move: the page's taps are answered before the AI seats move,
  whose answers follow in a step of their own — ``TableManager.handle(ai_later)``);
- ``web_action_p95_ms``: a tap sent → its answer received;
- ``web_memory_per_page_kb``: the server process's resident memory with every page open
  and its first event delivered, less before any page opened, per page.
The last lines are ``<name> <value> <unit>`` figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from adapters.web import WebConfig, WebServer
from adapters.web.auth import Seat, sign_seat
from adapters.web.hub import ALONE_POLL_SECONDS
from bot.gil import share_the_gil
from bot.heap import settle_heap
from bot.table import Actor, AddBots, ChatRef, GroupSettings, OpenTable, Start, TableManager

SECRET = b"bench-web-secret"


def human(key: str) -> Actor:
    """Each table's own human (one person a table: the 10-a-second limit is per person)."""
    return Actor(str(1000 + int(key.rsplit(":", 1)[1])), "人")


# -- the bot's side (child process) -------------------------------------------------------
def serve(conn: Connection, tables: int) -> None:
    asyncio.run(_serve(conn, tables))


async def _serve(conn: Connection, tables: int) -> None:
    m = TableManager(burn_window_seconds=0.5, declare_window_seconds=0.5, between_hands_seconds=0.5)
    settings = GroupSettings(turn_seconds=0, match_hands=0)
    keys = []
    for i in range(tables):
        chat = ChatRef("bench", "web", str(i))
        m.use_settings(chat, settings)
        me = human(chat.key)
        for cmd in (
            OpenTable(chat=chat, actor=me),
            AddBots(chat=chat, actor=me, count=5),
            Start(chat=chat, actor=me),
        ):
            await m.handle(cmd)
        keys.append(chat.key)
    # As `gouji` runs it on one process (adapters/main.py): woken by the manager's outputs.
    config = WebConfig("http://127.0.0.1", "127.0.0.1", 0, SECRET)
    server = WebServer(m, config, poll_seconds=ALONE_POLL_SECONDS)
    await server.start()
    settle_heap()  # as bot.service does once it has loaded what it keeps
    share_the_gil()  # and as it does before serving (bot/gil.py)
    timers = asyncio.create_task(m.run_timers(0.1))
    conn.send((server.port, keys))
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # "stop"
    timers.cancel()
    await server.stop()


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# -- the pages (this process) ---------------------------------------------------------------
@dataclass
class Pending:
    sent: float
    before: int
    waiting: set[int]


@dataclass
class TableRun:
    key: str
    pages: list[int]
    view: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: list[Pending] = field(default_factory=list)


@dataclass
class Figures:
    updates: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    first_events: int = 0
    refused: int = 0


async def events(r: aiohttp.ClientResponse) -> Any:
    data = ""
    async for raw in r.content:
        line = raw.decode()
        if line.startswith("data: "):
            data += line[6:]
        elif line == "\n" and data:
            yield json.loads(data)
            data = ""


async def page(
    s: aiohttp.ClientSession, url: str, run: TableRun, pid: int, player: bool, fig: Figures
) -> None:
    async with s.get(url, timeout=aiohttp.ClientTimeout(total=None)) as r:
        first = True
        async for ev in events(r):
            now = time.perf_counter()
            version = ev["public"]["version"]
            if first:
                fig.first_events += 1
                first = False
            for p in run.pending:
                if pid in p.waiting and version > p.before:
                    p.waiting.discard(pid)
                    fig.updates.append((now - p.sent) * 1000)
            run.pending = [p for p in run.pending if p.waiting]
            if player:
                run.view = ev
                run.changed.set()


def choice(view: dict[str, Any]) -> dict[str, Any] | None:
    me = view["private"]
    if me is None or me["autoplay"]:
        return None
    if me["returns"]:
        r = me["returns"][0]
        return {"op": "return", "cards": r["options"][0], "target": r["giver"]}
    if me["ready"]:
        return {"op": "ready"}
    if me["role"] != "turn":
        return None
    if me["suggest"]:
        return {"op": me["suggest"][0]["kind"], "cards": me["suggest"][0]["cards"]}
    ops = [a["op"] for a in me["simple"]]
    return {"op": "pass"} if "pass" in ops else None


async def player(
    s: aiohttp.ClientSession,
    base: str,
    run: TableRun,
    token: str,
    args: Any,
    fig: Figures,
    stop: float,
) -> None:
    rng = random.Random(run.key)
    while time.perf_counter() < stop:
        try:
            await asyncio.wait_for(run.changed.wait(), 1.0)
        except TimeoutError:
            continue
        run.changed.clear()
        view = run.view
        body = choice(view) if view is not None else None
        if body is None or view is None:
            continue
        await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        # What the page shows by the time the thumb lands (the table may have moved on).
        view = run.view
        body = choice(view) if view is not None else None
        if body is None or view is None:
            continue
        version = view["public"]["version"]
        body.update(t=run.key, s=token, version=version)
        sent = time.perf_counter()
        run.pending.append(Pending(sent, version, set(run.pages)))
        async with s.post(base + "/api/act", json=body) as r:
            answer = await r.json()
        fig.actions.append((time.perf_counter() - sent) * 1000)
        if not answer.get("ok"):
            fig.refused += 1
            run.pending = [p for p in run.pending if p.sent != sent]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values, default=0.0)


async def drive(args: Any, port: int, keys: list[str], child_pid: int) -> None:
    base = f"http://127.0.0.1:{port}"
    per_table = args.pages // len(keys)
    fig = Figures()
    before = rss_kb(child_pid)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as s:
        runs, tasks = [], []
        for ti, key in enumerate(keys):
            run = TableRun(key, [ti * per_table + j for j in range(per_table)])
            runs.append(run)
            own = sign_seat(SECRET, Seat(key, human(key).user_id, int(time.time()) + 3600))
            watch = sign_seat(SECRET, Seat(key, "", int(time.time()) + 3600))
            for j, pid in enumerate(run.pages):
                token = own if j == 0 else watch
                url = f"{base}/api/events?t={key}&s={token}"
                tasks.append(asyncio.create_task(page(s, url, run, pid, j == 0, fig)))
        while fig.first_events < len(tasks):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        opened = rss_kb(child_pid)
        stop = time.perf_counter() + args.seconds
        players = [
            player(
                s,
                base,
                run,
                sign_seat(SECRET, Seat(run.key, human(run.key).user_id, int(time.time()) + 3600)),
                args,
                fig,
                stop,
            )
            for run in runs
        ]
        await asyncio.gather(*players)
        for t in tasks:
            t.cancel()
    print(f"{len(tasks)} pages on {len(keys)} tables for {args.seconds:.0f} s")
    taps, timed = len(fig.actions), len(fig.updates)
    print(f"{taps} taps ({fig.refused} refused as stale), {timed} page updates timed")
    update, action = statistics.median(fig.updates), statistics.median(fig.actions)
    print(f"update median {update:.1f} ms; action median {action:.1f} ms")
    print(f"server RSS {before} KB before the pages, {opened} KB with them open")
    print(f"web_update_p95_ms {p95(fig.updates):.1f} ms")
    print(f"web_action_p95_ms {p95(fig.actions):.1f} ms")
    print(f"web_memory_per_page_kb {(opened - before) / len(tasks):.1f} KB")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pages", type=int, default=300)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=40.0)
    p.add_argument("--think", type=float, default=1.0, help="seconds before a tap (x0.5..1.5)")
    args = p.parse_args()
    ctx = mp.get_context("spawn")
    here, there = ctx.Pipe()
    child = ctx.Process(target=serve, args=(there, args.tables), daemon=True)
    child.start()
    port, keys = here.recv()
    try:
        asyncio.run(drive(args, port, keys, child.pid or 0))
    finally:
        here.send("stop")
        child.join(10)


if __name__ == "__main__":
    main()
