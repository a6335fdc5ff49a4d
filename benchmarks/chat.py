"""Play feel in a Telegram group: budget, freshness of the table message, 报户 latency, taps.

Run: ``python benchmarks/chat.py [--hands 2] [--seed 7]``. Whole hands are played through
the real Telegram adapter (PTB's Application on the in-process fake Bot API of
``tests/telegram``) on a fake clock, in two scenarios:

* **six humans** who act as fast as a person taps: each decision is noticed one second
  after the private keyboard shows it, then one tap every half second. The lobby first
  goes through the chatter that used to freeze the table (a join link, three /join
  replies, the settings menu), the bot restarts in the middle of the first hand, and
  someone asks 报户 right after /begin and again every 17 seconds; run twice: with a
  clean restart, and with a hard kill (nothing stopped, flushed or closed: kill -9) at a
  moment when the sender holds a table edit that is then lost;
* **one human and five AI seats** that answer instantly.

Each human decides with the heuristic AI policy — except that, like a person with a plan
of their own, in ``OWN_PLAY`` of the turns with a play on offer they pick a legal play at
random instead (most are not among the keyboard's suggestions) — and then taps the
shortest way to that decision on its keyboard, so ``taps_per_action_median`` is what the
keyboard costs for a realistic mix of plays, not only for the one-tap suggestions. A
fifth of the accepted taps are tapped again at once (a double tap): that must change
nothing and must not be answered "out of date" (counted in the scenario lines).
The last lines are ``<name> <value> <unit>`` figures (the worse of the two scenarios):

* ``group_max_calls_60s`` — most group sends and edits in any rolling 60 s (restart
  included);
* ``table_staleness_p95`` / ``_max`` — seconds from an accepted play to the group table
  message showing a state that includes it (worst scenario), and the same for the
  six-human runs with a restart (``_restart``) and with a hard kill (``_kill``); a
  ``budget:`` line per six-human run shows what the 20 calls a minute allow the table;
* ``count_answer_max`` — seconds from a 报户 request to its answer in the group;
* ``taps_per_action_median`` — button taps per accepted human action;
* ``taps_per_play_median`` — the same for plays and burns alone (passes left out);
* ``first_lead_wait`` — seconds from the moment the hand is ready for its first play (the
  deal, or the last 还贡 when tribute is returned — people choosing their returns is play,
  not waiting) until the leader may play (longest hand); 0 when nobody can declare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adapters.telegram.callback import ActPress, BadPayload, decode
from adapters.telegram.sender import GROUP_LIMIT, GROUP_RESERVE
from bot.ai import HeuristicPolicy
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import NOTATION, Counts
from bot.engine.state import Phase
from bot.present.playmenu import play_of
from bot.store import Store
from bot.table import Notice, Out, TableChanged, TableStatus
from bot.table.core.views import PRE_PLAY_ACTIONS
from tests.telegram.fakeapi import FakeTelegram, Message
from tests.telegram.harness import GROUP_ID, USERS, Harness, max_per_minute

STEP = 0.5  # seconds of fake time per simulation step (one tap at most per human)
THINK = 1.0  # seconds before a human reacts to a new keyboard
ASK_EVERY = 17.0  # seconds between two 报户 requests in the six-human scenario
MAX_TAPS = 8  # more taps than any play needs: the keyboard failed to offer the play
DOUBLE_TAP = 0.2  # share of accepted taps a human's thumb repeats at once
OWN_PLAY = 0.35  # share of turns where a human picks a play of their own (at random)
TABLE_CALLS = frozenset({"sendPhoto", "editMessageMedia", "editMessageCaption"})
PLAY_KINDS = frozenset(
    {ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN, ActionKind.RETURN_TRIBUTE}
)


# -- what the group saw, and when ---------------------------------------------------------
@dataclass
class Watch:
    """Accepted plays (time, table version) and the group table's updates (time, version)."""

    h: Harness
    plays: list[tuple[float, int]] = field(default_factory=list)
    shown: list[tuple[float, int]] = field(default_factory=list)
    _played: bool = False

    def version(self) -> int:
        table = self.h.manager.tables.get(self.h.key)
        return table.version if table is not None else -1

    async def on_out(self, out: Out) -> None:
        if out.table != self.h.key:
            return
        if isinstance(out, Notice) and out.minor:
            self._played = True
        elif isinstance(out, TableChanged) and self._played:
            self._played = False
            self.plays.append((self.h.clock.now(), self.version()))

    def staleness(self, end: float) -> list[float]:
        out = []
        for at, version in self.plays:
            seen = next((t for t, v in self.shown if t >= at and v >= version), end)
            out.append(seen - at)
        return out


class RecordingTelegram(FakeTelegram):
    """The fake Bot API, noting which table version each group table update showed."""

    watch: Watch | None = None

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any) -> Any:
        result = await super().do_request(url, method, *args, **kwargs)
        call = self.calls[-1]
        ok = call.chat_id == GROUP_ID and call.error is None and call.method in TABLE_CALLS
        if self.watch is not None and ok and self._is_table(call.params, call.upload_names()):
            self.watch.shown.append((call.at, self.watch.version()))
        return result

    def _is_table(self, params: dict[str, Any], uploads: list[str]) -> bool:
        if "table.png" in uploads:
            return True
        msg = self.messages.get((GROUP_ID, int(params.get("message_id", 0))))
        return msg is not None and msg.photo_name == "table.png"


# -- a scripted human ---------------------------------------------------------------------
def counts_of(notation: str) -> Counts:
    """Card counts of a 还贡 button's notation (``"34"`` -> one 3, one 4)."""
    return tuple(notation.count(ch) for ch in NOTATION)


def press_of(data: str) -> ActPress | None:
    with contextlib.suppress(BadPayload):
        press = decode(data)
        if isinstance(press, ActPress):
            return press
    return None


@dataclass
class Human:
    user: dict[str, Any]
    rng: random.Random
    noticed: dict[int, float] = field(default_factory=dict)  # keyboard version -> seen at
    goal: Action | None = None
    goal_version: int = -1
    taps: int = 0
    done_version: int = -1
    own_goal: bool = False  # the goal is a random play of their own, not the policy's

    @property
    def uid(self) -> str:
        return str(self.user["id"])


def _stale(answer: dict[str, Any]) -> bool:
    text = str(answer.get("text", ""))
    return "过期" in text or "expired" in text


class Crowd:
    """Humans acting on their private keyboards: decide with the AI policy, then tap."""

    def __init__(self, h: Harness, users: list[dict[str, Any]], seed: int) -> None:
        self.h = h
        self.humans = [Human(u, random.Random(f"{seed}:{u['id']}")) for u in users]
        self.policy = HeuristicPolicy()
        self.taps: list[int] = []
        self.refused = 0
        self.own = 0  # decisions that were a random legal play, not the policy's
        self.play_taps: list[int] = []  # taps of the plays and burns alone (no passes)
        self.double_taps = 0
        self.own_taps: list[int] = []  # taps of the random plays alone

    async def step(self) -> None:
        for hu in self.humans:
            await self._one(hu)

    async def _one(self, hu: Human) -> None:
        h = self.h
        priv = h.manager.private_snapshot(h.key, hu.uid)
        if priv is None or priv.autoplay or priv.version == hu.done_version:
            return
        try:
            msg = h.hand_message(hu.user)
        except LookupError:
            return
        presses = [(text, p) for text, d in msg.buttons() if (p := press_of(d)) is not None]
        if not presses or all(p.version != priv.version for _, p in presses):
            return  # the keyboard for this state has not arrived yet
        legal = [a for a in priv.legal if a.kind in PLAY_KINDS or priv.role == "pre_play"]
        if not legal:
            return
        seen = hu.noticed.setdefault(priv.version, h.clock.now())
        if h.clock.now() < seen + THINK:
            return
        if hu.goal is None or hu.goal_version != priv.version:
            hu.goal = self._decide(hu, priv.view, legal)
            hu.goal_version = priv.version
            hu.taps = 0
            if priv.role == "burn" and (hu.goal is None or hu.goal.kind is not ActionKind.BURN):
                hu.done_version = priv.version  # no burn: nothing to press
                return
        data = self._next_tap(msg, hu.goal, priv.role or "")
        if data is None:
            hu.done_version = priv.version  # e.g. a pre-play seat with nothing to add
            return
        hu.taps += 1
        if hu.taps > MAX_TAPS:
            raise RuntimeError(f"the keyboard never offered {hu.goal} ({hu.taps} taps)")
        before = h.manager.tables[h.key].version
        answer = await h.press(hu.user, msg, data)
        if h.manager.tables[h.key].version != before and hu.goal_version == priv.version:
            self.taps.append(hu.taps)
            if hu.goal is not None and hu.goal.kind in (ActionKind.PLAY, ActionKind.BURN):
                self.play_taps.append(hu.taps)
            if hu.own_goal:
                self.own_taps.append(hu.taps)
            hu.done_version = priv.version
            if hu.rng.random() < DOUBLE_TAP:
                await self._double_tap(hu, msg, data)
        elif _stale(answer):
            self.refused += 1

    async def _double_tap(self, hu: Human, msg: Message, data: str) -> None:
        """The same button again, as a thumb does: it must change nothing and not scold."""
        before = self.h.manager.tables[self.h.key].version
        answer = await self.h.press(hu.user, msg, data)
        assert self.h.manager.tables[self.h.key].version == before, "a double tap played twice"
        self.double_taps += 1
        self.refused += _stale(answer)

    def _decide(self, hu: Human, view: Any, legal: list[Action]) -> Action | None:
        plays = [a for a in legal if a.kind in (ActionKind.PLAY, ActionKind.BURN)]
        if plays and hu.rng.random() < OWN_PLAY:
            own = hu.rng.choice(plays)
            self.own += 1
            hu.own_goal = True
            return own
        hu.own_goal = False
        return self.policy.choose(view, legal, hu.rng)

    def _next_tap(self, msg: Message, goal: Action | None, role: str) -> str | None:
        buttons = [(text, d, p) for text, d in msg.buttons() if (p := press_of(d)) is not None]

        def find(op: str, *args: str) -> str | None:
            n = len(args)
            return next((d for _, d, p in buttons if p.op == op and p.args[:n] == args), None)

        if goal is None:
            return find("K") if role == "pre_play" else find("x")
        kind = goal.kind
        simple = {
            ActionKind.PASS: "x",
            ActionKind.RANG: "y",
            ActionKind.REVOLT: "V",
            ActionKind.WAIVE: "W",
        }
        if kind in simple:
            return find(simple[kind])
        if kind is ActionKind.DECLARE_POINT:
            return find("D", "1" if goal.pre else "0")
        if kind is ActionKind.RETURN_TRIBUTE:
            return self._return_tap(buttons, goal)
        assert goal.cards is not None
        goal_play = play_of(goal.cards)
        play = tuple(str(x) for x in goal_play)
        mode = "p" if kind is ActionKind.PLAY else "b"
        size = str(goal_play.size)
        return (
            find("g", mode, *play)
            or find("v", mode, *play)
            or find("z", mode, play[0], size)
            or find("b", mode, play[0])
            or find("r", mode)
        )

    def _return_tap(self, buttons: list[tuple[str, str, ActPress]], goal: Action) -> str | None:
        assert goal.cards is not None
        for _, d, p in buttons:
            if p.op == "Q" and counts_of(p.args[1]) == goal.cards:
                return d
        picks = [(d, p) for _, d, p in buttons if p.op == "R"]
        for d, p in picks[1:]:
            chosen = counts_of(p.args[1])
            if all(c <= g for c, g in zip(chosen, goal.cards, strict=True)):
                return d
        return picks[0][0] if picks else None


# -- the scenarios ------------------------------------------------------------------------
@dataclass
class Figures:
    name: str
    group_max: int = 0
    staleness: list[float] = field(default_factory=list)
    count_waits: list[float] = field(default_factory=list)
    taps: list[int] = field(default_factory=list)
    lead_waits: list[float] = field(default_factory=list)  # hands where nobody could declare
    declare_waits: list[float] = field(default_factory=list)  # someone could: a real pause
    hands: int = 0
    refused: int = 0
    own: int = 0
    double_taps: int = 0
    own_taps: list[int] = field(default_factory=list)
    play_taps: list[int] = field(default_factory=list)
    table_calls: int = 0  # group calls that showed the table (posts and edits)
    other_calls: int = 0  # every other group call (报户 answers, results, replies)
    minutes: float = 0.0  # from the first group call to the last


class Scenario:
    def __init__(self, name: str, db: Path, seed: int, humans: int, kill: bool = False) -> None:
        self.name = name
        self.kill = kill  # the restart is a hard kill
        self.abandoned: list[Store | None] = []
        self.h = Harness(db, seed=seed)
        self.fake = RecordingTelegram(self.h.clock)
        self.fake.add_group(GROUP_ID, "够级群")
        self.fake.admins[GROUP_ID] = {USERS[0]["id"]}
        self.h.fake = self.fake
        self.h.group = self.fake.chats[GROUP_ID]
        self.watch = Watch(self.h)
        self.fake.watch = self.watch
        self.users = USERS[:humans]
        self.crowd = Crowd(self.h, self.users, seed)
        self.asks: list[float] = []
        self.fig = Figures(name)

    async def open(self) -> None:
        await self.h.open()
        self.h.manager.subscribe(self.watch.on_out)

    async def restart(self) -> None:
        if self.kill:
            await self._kill()
        else:
            await self.h.restart()
        self.h.manager.subscribe(self.watch.on_out)

    async def _kill(self) -> None:
        """A hard kill (kill -9): nothing is stopped, flushed or closed — the old bot's
        queued messages and edits are simply lost — and a new process starts on the same
        database file."""
        h = self.h
        self.abandoned.append(h.store)
        await h.open()
        await h.manager.load()
        await h.bot.pump()

    async def close(self) -> None:
        await self.h.close()
        for store in self.abandoned:  # what the kill left open (files, a connection)
            if store is not None:
                await store.close()

    async def tick(self) -> None:
        await self.h.tick(STEP)

    def answers(self) -> list[float]:
        return [
            c.at
            for c in self.fake.sends_to(GROUP_ID)
            if c.method == "sendMessage" and ("报户：" in str(c.params.get("text", "")))
        ]

    async def ask(self, asker: dict[str, Any], target: int) -> None:
        self.asks.append(self.h.clock.now())
        await self.h.say(asker, f"/count {target}")

    async def lobby_six(self) -> None:
        """The chatter of a real start: opener, three joins, a join link, a button join,
        the admin's settings menu, then /begin and an immediate 报户."""
        h, fake = self.h, self.fake
        wang, li, alice, zhang, lisi, wangwu = USERS
        for u in (wang, li, alice, zhang, wangwu):
            fake.opened.add(u["id"])
        await h.say(wang, "/gouji")
        for u in (li, alice, zhang):
            await h.say(u, "/join")
        await h.say(lisi, "/join")  # never opened the bot: the group gets a link
        await h.feed(fake.start(lisi, f"j_{h.bot.ctx.ids.tid(h.key)}"))
        table_msg = h.table_message()
        join = table_msg.button(lambda _t, d: d.endswith(":j"))
        await h.press(wangwu, table_msg, join)
        await h.say(wang, "/settings")
        menu = self._menu(wang)
        if menu is not None:
            await h.press(wang, menu, "s:T")
            await h.press(wang, menu, "s:t:60")
            await h.press(wang, menu, "s:x")
        await h.say(wang, "/begin")

    def _menu(self, admin: dict[str, Any]) -> Message | None:
        for chat in (admin["id"], GROUP_ID):
            found = [m for m in self.fake.in_chat(chat) if any(d == "s:x" for _, d in m.buttons())]
            if found:
                return found[-1]
        return None

    async def lobby_one(self) -> None:
        h = self.h
        wang = USERS[0]
        self.fake.opened.add(wang["id"])
        await h.say(wang, "/gouji")
        await h.say(wang, "/addbot 5")
        await h.say(wang, "/begin")

    async def play(self, hands: int, restart_at: int | None, asking: bool) -> None:
        h = self.h
        for hand in range(hands):
            snap = h.manager.snapshot(h.key)
            assert snap is not None
            if snap.status is TableStatus.FINISHED:
                break
            while snap is not None and snap.status is TableStatus.BETWEEN:
                # [下一局] when the table message offers it; else the pause deals on its own.
                msg = h.table_message()
                nxt = next((d for _t, d in msg.buttons() if d.endswith(":n")), None)
                if nxt is not None:
                    await h.press(self.users[0], msg, nxt)
                else:
                    await self.tick()
                snap = h.manager.snapshot(h.key)
            await self._hand(hand, restart_at if hand == 0 else None, asking)
            self.fig.hands += 1
        for _ in range(200):  # let the last messages go out
            if not h.bot.sender.pending():
                break
            await self.tick()

    async def _hand(self, index: int, restart_at: int | None, asking: bool) -> None:
        h = self.h
        table = h.manager.tables[h.key]
        hand_no = table.match.hand_no
        dealt = h.clock.now()
        ready_from = dealt  # the hand is ready for its first play (after any 还贡)
        leader_ready: float | None = None
        could_declare = False  # a human had a revolt, 明点, 烩 or 冲点 to decide
        next_ask = dealt + (0.0 if index == 0 else ASK_EVERY)
        target = 1
        steps = 0
        while True:
            table = h.manager.tables[h.key]
            if table.status is not TableStatus.PLAYING or table.match.hand_no != hand_no:
                break
            st = table.state
            if st is not None and st.phase is Phase.RETURN_TRIBUTE:
                ready_from = h.clock.now() + STEP  # people are still choosing returns
            if leader_ready is None and st is not None and not table.declare_open:
                leader_ready = h.clock.now()
            if leader_ready is None and st is not None and st.phase is Phase.PLAY:
                could_declare = could_declare or self._someone_can_declare()
            if asking and h.clock.now() >= next_ask:
                asker = self.users[steps % len(self.users)]
                target = target % 6 + 1
                await self.ask(asker, target)
                next_ask = h.clock.now() + ASK_EVERY
            await self.crowd.step()
            await self.tick()
            steps += 1
            if restart_at is not None and steps >= restart_at and self._down_now():
                restart_at = None
                await self.restart()
            if steps > 20000:
                raise RuntimeError("the hand did not finish")
        wait = max(0.0, (leader_ready or h.clock.now()) - ready_from)
        (self.fig.declare_waits if could_declare else self.fig.lead_waits).append(wait)

    def _down_now(self) -> bool:
        """A clean restart goes down when it is asked to; a hard kill strikes while the
        sender holds work (a table edit waiting for its turn), which it loses."""
        return not self.kill or self.h.bot.sender.pending()

    def _someone_can_declare(self) -> bool:
        h = self.h
        for u in self.users:
            priv = h.manager.private_snapshot(h.key, str(u["id"]))
            if priv is not None and any(a.kind in PRE_PLAY_ACTIONS for a in priv.legal):
                return True
        return False

    def finish(self) -> Figures:
        fig = self.fig
        group = self.fake.sends_to(GROUP_ID)
        fig.group_max = max_per_minute(group)
        table_times = {at for at, _ in self.watch.shown}
        fig.table_calls = sum(1 for c in group if c.at in table_times)
        fig.other_calls = len(group) - fig.table_calls
        if group:
            fig.minutes = (max(c.at for c in group) - min(c.at for c in group)) / 60.0
        fig.staleness = self.watch.staleness(self.h.clock.now())
        answers = self.answers()
        fig.count_waits = [
            (answers[i] if i < len(answers) else self.h.clock.now()) - at
            for i, at in enumerate(self.asks)
        ]
        fig.taps = self.crowd.taps
        fig.refused = self.crowd.refused
        fig.own = self.crowd.own
        fig.double_taps = self.crowd.double_taps
        fig.own_taps = self.crowd.own_taps
        fig.play_taps = self.crowd.play_taps
        return fig


async def run(name: str, humans: int, hands: int, seed: int, kill: bool = False) -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        sc = Scenario(name, Path(tmp), seed, humans, kill)
        await sc.open()
        try:
            # The bot has been up a while: start past its first minute.
            sc.h.clock.advance(120.0)
            if humans == 6:
                await sc.lobby_six()
            else:
                await sc.lobby_one()
            await sc.play(hands, restart_at=40 if humans == 6 else None, asking=humans == 6)
        finally:
            await sc.close()
        return sc.finish()


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def budget_arithmetic(f: Figures) -> None:
    """What the group's budget allows the table: Telegram's 20 calls a minute (one kept
    for urgent messages), less the calls that are not the table's, leaves one table edit
    every ``interval`` seconds. A play lands at a random moment between two edits, so it
    waits up to one interval for the next (p95 about 0.95 of it), plus the edit's own
    round trip."""
    if f.minutes <= 0:
        return
    others = f.other_calls / f.minutes
    share = GROUP_LIMIT - GROUP_RESERVE - others
    interval = 60.0 / max(1.0, share)
    print(
        f"[{f.name}] budget: {GROUP_LIMIT} calls/60 s - {GROUP_RESERVE} kept - "
        f"{others:.1f}/min not the table's ({f.other_calls} over {f.minutes:.1f} min) "
        f"= {share:.1f} table edits/min at most -> one every {interval:.1f} s; "
        f"a play waits for the next edit: p95 >= {0.95 * interval:.1f} s, worst >= "
        f"{interval:.1f} s (+ the edit's round trip); measured "
        f"{f.table_calls / f.minutes:.1f} table calls/min"
    )


def report(figs: list[Figures]) -> None:
    for f in figs:
        st = f.staleness
        print(
            f"[{f.name}] hands {f.hands}; group calls max {f.group_max}/60 s; "
            f"table staleness p95 {p95(st):.1f} s, max {max(st, default=0):.1f} s "
            f"over {len(st)} plays; 报户 answers {[round(w, 1) for w in f.count_waits]} s; "
            f"taps median {statistics.median(f.taps) if f.taps else 0} over {len(f.taps)} "
            f"actions (max {max(f.taps, default=0)}; {f.own} own random plays, taps median "
            f"{statistics.median(f.own_taps) if f.own_taps else 0} over the "
            f"{len(f.own_taps)} accepted); "
            f"{f.double_taps} double taps; presses told 'out of date' {f.refused}; "
            f"first lead waits {[round(w, 1) for w in f.lead_waits]} s (and "
            f"{[round(w, 1) for w in f.declare_waits]} s where a person could declare)"
        )
    for f in figs[:2]:
        budget_arithmetic(f)
    every_tap = [x for f in figs for x in f.taps]
    print(f"group_max_calls_60s {max(f.group_max for f in figs)} calls")
    print(f"table_staleness_p95 {max(p95(f.staleness) for f in figs):.1f} s")
    print(f"table_staleness_max {max(max(f.staleness, default=0) for f in figs):.1f} s")
    for tag, f in (("restart", figs[0]), ("kill", figs[1])):
        print(f"table_staleness_p95_{tag} {p95(f.staleness):.1f} s")
        print(f"table_staleness_max_{tag} {max(f.staleness, default=0):.1f} s")
    waits = [w for f in figs for w in f.count_waits]
    print(f"count_answer_max {max(waits, default=0):.1f} s")
    print(f"taps_per_action_median {statistics.median(every_tap) if every_tap else 0:.1f} taps")
    plays = [x for f in figs for x in f.play_taps]
    print(f"taps_per_play_median {statistics.median(plays) if plays else 0:.1f} taps")
    print(f"first_lead_wait {max((w for f in figs for w in f.lead_waits), default=0):.1f} s")


async def main(hands: int, seed: int) -> None:
    figs = [
        await run("six humans, a restart", 6, hands, seed),
        await run("six humans, a hard kill", 6, hands, seed, kill=True),
        await run("one human + five AI", 1, hands, seed),
    ]
    report(figs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.hands, args.seed))
