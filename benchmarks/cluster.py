"""Several workers on one PostgreSQL database, one of them SIGKILLed mid-run and restarted.

Run: ``python benchmarks/cluster.py [--tables 300] [--rounds 8] [--workers 3]``. It starts a
throwaway PostgreSQL server (as ``tests/store`` does), then worker processes, each a
``SharedTableManager`` (bot.cluster.shell) with its timer/outbox loop and a small HTTP
endpoint. Every table has one scripted human and five AI seats; the driver sends each
human's next move to the workers in turn, so one chat's commands land on every worker.
Some tables' humans never answer, so their turn timers fire (托管). Halfway, one worker
is SIGKILLed and started again.

Not the Telegram webhook path: commands enter at the manager, and what leaves is counted
at the outbox relay (each worker logs what it delivers), so there is no
``cluster_group_max_calls_60s`` figure here (that budget is the Telegram sender's).
The last lines are ``<name> <value> <unit>`` figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.cluster.shell import SharedTableManager  # noqa: E402
from bot.engine.actions import ActionKind  # noqa: E402
from bot.store import OutboxMessage, Store  # noqa: E402
from bot.table import (  # noqa: E402
    Act,
    Actor,
    AddBots,
    ChatRef,
    GroupSettings,
    OpenTable,
    Ready,
    Start,
    apply_setting_changes,
)

HUMAN = Actor("bench-human", "人")
SILENT = 10  # every SILENT-th table's human never answers: its timer fires


class LoggingManager(SharedTableManager):
    """Logs every message it relays (key and kind), to count duplicates across workers."""

    def __init__(self, store: Store, log_path: str, **kw: Any) -> None:
        super().__init__(store, **kw)
        self._log = open(log_path, "a", buffering=1)  # noqa: SIM115 (lives with the worker)
        self.relay.deliver = self._logged

    async def _logged(self, message: OutboxMessage) -> dict[str, Any]:
        result = await self._deliver(message)
        self._log.write(
            json.dumps([message.msg_key, message.payload.get("kind"), message.payload.get("key")])
            + "\n"
        )
        return result


async def worker_main(url: str, name: str, port: int, log_path: str) -> None:
    from aiohttp import web

    store = Store(url)
    await store.open()
    m = LoggingManager(
        store,
        log_path,
        worker=name,
        burn_window_seconds=0,
        declare_window_seconds=0,
        between_hands_seconds=0,
        warn_before_seconds=1,
    )
    await m.load()

    async def setup(request: web.Request) -> web.Response:
        body = await request.json()
        chat = ChatRef("bench", str(body["table"]))
        await m.handle(OpenTable(chat=chat, actor=HUMAN))
        await m.handle(AddBots(chat=chat, actor=HUMAN, count=5))
        reply = await m.handle(Start(chat=chat, actor=HUMAN))
        return web.json_response({"ok": reply.ok})

    async def move(request: web.Request) -> web.Response:
        body = await request.json()
        chat = ChatRef("bench", str(body["table"]))
        t0 = time.perf_counter()
        await m.refresh(chat.key)
        priv = m.private_snapshot(chat.key, HUMAN.user_id)
        if priv is None or priv.role is None:
            return web.json_response({"ok": False, "idle": True})
        if priv.role == "pre_play":
            cmd: Any = Ready(chat=chat, actor=HUMAN)
        else:
            plays = [
                a for a in priv.legal if a.kind in (ActionKind.PLAY, ActionKind.RETURN_TRIBUTE)
            ]
            action = min(plays, key=lambda a: sum(a.cards or ())) if plays else priv.legal[0]
            cmd = Act(chat=chat, actor=HUMAN, action=action, version=priv.version)
        reply = await m.handle(cmd)
        ms = (time.perf_counter() - t0) * 1000
        acted = isinstance(cmd, Act) and reply.ok
        return web.json_response({"ok": reply.ok, "ms": ms, "acted": acted, "key": reply.key})

    app = web.Application()
    app.router.add_post("/setup", setup)
    app.router.add_post("/move", move)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    await m.run_timers(interval=0.2)


def start_worker(url: str, i: int, port: int, logdir: Path) -> subprocess.Popen[bytes]:
    args = [
        sys.executable,
        __file__,
        "--worker",
        url,
        f"w{i}",
        str(port),
        str(logdir / f"w{i}.log"),
    ]
    return subprocess.Popen(args, cwd=ROOT)


async def driver(url: str, tables: int, rounds: int, workers: int) -> None:
    import aiohttp

    from tests.store.pgserver import free_port

    logdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"gouji-cluster-{os.getpid()}"
    logdir.mkdir(parents=True, exist_ok=True)
    store = Store(url)
    await store.open()
    silent = apply_setting_changes(GroupSettings(), {"match_hands": 0, "turn_seconds": 3})
    normal = apply_setting_changes(GroupSettings(), {"match_hands": 0, "turn_seconds": 0})
    for n in range(tables):
        chat = ChatRef("bench", str(n))
        await store.save_settings(chat.group_key, (silent if n % SILENT == 0 else normal).to_json())
    ports = [free_port() for _ in range(workers)]
    procs = [start_worker(url, i, p, logdir) for i, p in enumerate(ports)]
    down: set[int] = set()

    async with aiohttp.ClientSession() as http:

        async def post(path: str, n: int, body: dict[str, Any]) -> dict[str, Any] | None:
            for attempt in range(workers * 40):
                w = (n + attempt) % workers
                if w in down:
                    continue
                try:
                    async with http.post(f"http://127.0.0.1:{ports[w]}{path}", json=body) as r:
                        result: dict[str, Any] = await r.json()
                        return result
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)
            return None

        for _ in range(200):  # the workers are up
            try:
                for p in ports:
                    async with http.get(f"http://127.0.0.1:{p}/none") as r:
                        assert r.status == 404
                break
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
        t0 = time.perf_counter()
        for n in range(tables):
            await post("/setup", n, {"table": n})
        latencies: list[float] = []
        acted: dict[int, int] = {}
        killed_at = rounds // 2
        for r in range(rounds):
            if r == killed_at:
                victim = workers - 1
                procs[victim].send_signal(signal.SIGKILL)
                procs[victim].wait()
                down.add(victim)
            if r == killed_at + 1:
                procs[workers - 1] = start_worker(url, workers - 1, ports[workers - 1], logdir)
                await asyncio.sleep(2)
                down.discard(workers - 1)
            for n in range(tables):
                if n % SILENT == 0:
                    continue
                reply = await post("/move", n + r, {"table": n})
                if reply and "ms" in reply:
                    latencies.append(float(reply["ms"]))
                    acted[n] = acted.get(n, 0) + bool(reply.get("acted"))
        await asyncio.sleep(8)  # the silent tables' timers, and the outbox, run out
        elapsed = time.perf_counter() - t0
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()

    # What the database holds against what was acknowledged.
    applied = 0
    stored_human: dict[int, int] = {}
    async with store.transaction(readonly=True) as tx:
        for n in range(tables):
            key = ChatRef("bench", str(n)).key
            row = await tx.load_table(key)
            records = [r for r in await store.finished_hands(f"bench:{n}")]
            logs = [x for h in records for x in h.get("actions", [])]
            if row is not None:
                logs += [[s, a] for s, a in await tx.load_actions(key, int(row.record["deal_no"]))]
            applied += len(logs)
            stored_human[n] = sum(1 for s, a in logs if s == 1 and a.get("do") in ("play", "pass"))
    await store.close()
    lost = sum(max(0, acted.get(n, 0) - stored_human.get(n, 0)) for n in range(tables))
    seen: dict[str, int] = {}
    timeouts: dict[str, int] = {}
    for f in logdir.glob("w*.log"):
        for line in f.read_text().splitlines():
            key, _kind, text_key = json.loads(line)
            seen[key] = seen.get(key, 0) + 1
            if text_key == "autoplay_timeout":
                table = key.split("#")[0]
                timeouts[table] = timeouts.get(table, 0) + 1
    duplicates = sum(c - 1 for c in seen.values() if c > 1)
    doubles = sum(c - 1 for c in timeouts.values() if c > 1)
    p95 = statistics.quantiles(latencies, n=20)[-1] if len(latencies) > 20 else float("nan")
    print(f"{workers} workers, {tables} tables, {rounds} rounds; worker {workers - 1} killed")
    print(f"{len(latencies)} commands; {applied} engine actions stored; {len(seen)} messages")
    print(f"silent tables timed out: {len(timeouts)} of {len(range(0, tables, SILENT))}")
    print(f"cluster_actions_per_second {applied / elapsed:.0f} actions/s")
    print(f"cluster_command_p95 {p95:.1f} ms")
    print(f"cluster_lost_actions {lost} actions")
    print(f"cluster_double_timeouts {doubles} timeouts")
    print(f"cluster_duplicate_messages {duplicates} messages")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, name, port, log_path = sys.argv[2:6]
        asyncio.run(worker_main(url, name, int(port), log_path))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--db", help="a postgresql:// URL (default: a throwaway server)")
    args = parser.parse_args()
    if args.db:
        asyncio.run(driver(args.db, args.tables, args.rounds, args.workers))
        return
    from tests.store.pgserver import throwaway_server

    with throwaway_server(fsync=True) as server:
        asyncio.run(driver(server.url(), args.tables, args.rounds, args.workers))


if __name__ == "__main__":
    main()
