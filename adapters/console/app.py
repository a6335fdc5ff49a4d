"""The terminal table. It drives the same TableManager as the chat adapters, on a fake
clock it moves itself, so burn windows and pauses pass as soon as you have answered."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO, assert_never

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import fmt, parse
from bot.engine.errors import IllegalAction
from bot.engine.rules import PRESET_NAMES
from bot.i18n import error_text, place_name, preset_name, t, tribute_kind
from bot.store import Store
from bot.table import (
    Act,
    Actor,
    AddBots,
    AskCount,
    ChatRef,
    FakeClock,
    HandChanged,
    HandFinished,
    MatchOver,
    NextHand,
    Notice,
    OpenTable,
    Out,
    PrivateNote,
    PrivateSnapshot,
    Ready,
    SetAutoplay,
    Start,
    StopMatch,
    TableChanged,
    TableManager,
    TableStatus,
    apply_setting_changes,
)
from bot.table.describe import note_text, notice_text, reply_text
from bot.table.outputs import TableSnapshot

from .format import Painter, format_hand, format_table, option_label, sorted_options

ME = Actor("me", "你", is_admin=True)
ME_EN = Actor("me", "You", is_admin=True)
MAX_LISTED = 40

InputFn = Callable[[str], str]


class Quit(Exception):
    """The player typed q."""


class ConsoleTable:
    def __init__(
        self,
        preset: str = "dagang",
        seed: int | None = None,
        lang: str = "zh",
        hands: int = 4,
        watch: bool = False,
        input_fn: InputFn = input,
        out: TextIO | None = None,
        color: bool | None = None,
        store: Store | None = None,  # where finished hands go (gouji --watch --record)
        ai_level: str = "normal",
    ) -> None:
        if preset not in PRESET_NAMES:
            raise ValueError(preset)
        self.preset = preset
        self.ai_level = ai_level
        self.lang = lang
        self.hands = hands
        self.watching = watch
        self.input = input_fn
        self.out = out or sys.stdout
        use_color = color if color is not None else (self.out.isatty() and not watch)
        self.paint = Painter(use_color)
        self.clock = FakeClock()
        fixed = seed
        self.manager = TableManager(
            store=store,
            clock=self.clock,
            seed_source=(lambda: fixed) if fixed is not None else None,
            burn_window_seconds=1,
            declare_window_seconds=1,
            between_hands_seconds=1,
        )
        self.chat = ChatRef("console", "local")
        self.me = ME if lang == "zh" else ME_EN
        self.manager.subscribe(self._on_out)
        self.pending: list[Out] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    async def _on_out(self, out: Out) -> None:
        self.pending.append(out)

    def _flush(self) -> None:
        for out in self.pending:
            match out:
                case Notice():
                    self.say(self.paint.seat(out.seat, notice_text(out, self.lang)))
                case HandFinished():
                    self._print_result(out)
                case MatchOver(totals=(a, b)):
                    self.say(self.paint.bold(t("match_over", self.lang, a=a, b=b)))
                case PrivateNote():
                    self.say(self.paint.warn(note_text(out, self.lang)))
                case TableChanged() | HandChanged():
                    pass  # the terminal redraws on its own turn
                case _:
                    assert_never(out)
        self.pending.clear()

    def _print_result(self, out: HandFinished) -> None:
        res = out.result
        snap = self._snap()
        self.say(self.paint.bold(t("result_title", self.lang, hand_no=out.hand_no)))
        for i, seat in enumerate(res.places):
            self.say(f"  {place_name(i + 1, self.lang)}  {seat}  {snap.name_of(seat)}")
        a, b = res.team_scores
        self.say(f"  135: {a:+d}   246: {b:+d}")
        for tr in res.tributes:
            self.say(
                f"  {tribute_kind(tr.kind, self.lang)}: {tr.giver} → {tr.receiver} ×{tr.count}"
            )
        ta, tb = out.totals
        self.say(f"  Σ 135: {ta:+d}   246: {tb:+d}")

    def _snap(self) -> TableSnapshot:
        snap = self.manager.snapshot(self.chat.key)
        assert snap is not None
        return snap

    async def setup(self) -> None:
        changes = {"preset": self.preset, "match_hands": self.hands, "turn_seconds": 0}
        changes["lang"] = self.lang
        changes["ai_level"] = self.ai_level
        settings = apply_setting_changes(await self.manager.group_settings(self.chat), changes)
        self.manager.use_settings(self.chat, settings)
        await self.manager.handle(OpenTable(chat=self.chat, actor=self.me, sit=not self.watching))
        await self.manager.handle(AddBots(chat=self.chat, actor=self.me, count=6))
        title = preset_name(self.preset, self.lang)
        self.say(self.paint.bold(f"够级 · {title}"))
        await self.manager.handle(Start(chat=self.chat, actor=self.me))
        self._flush()

    async def run(self) -> int:
        await self.setup()
        try:
            for _ in range(100000):
                snap = self._snap()
                if snap.status is TableStatus.FINISHED:
                    self._flush()
                    return 0
                if snap.status is TableStatus.BETWEEN:
                    self._flush()
                    if not self.watching:
                        self.input(t("press_enter_next", self.lang))
                    await self.manager.handle(NextHand(chat=self.chat, actor=self.me))
                    self._flush()
                    continue
                priv = self.manager.private_snapshot(self.chat.key, self.me.user_id)
                if priv is None or priv.role is None or priv.autoplay:
                    # Nothing for us to decide: let the table's pauses run out.
                    self.clock.advance(2)
                    await self.manager.poll_timers()
                    self._flush()
                    continue
                self._flush()
                await self._prompt(snap, priv)
                self._flush()
        except (Quit, EOFError):
            await self.manager.handle(StopMatch(chat=self.chat, actor=self.me))
            self._flush()
            return 0
        return 1

    async def _prompt(self, snap: TableSnapshot, priv: PrivateSnapshot) -> None:
        self.say(format_table(snap, self.lang, self.paint))
        self.say(format_hand(priv, self.lang, self.paint))
        plays = sorted_options(priv.legal)
        for i, action in enumerate(plays[:MAX_LISTED], start=1):
            self.say(f"  {i:>2}. {option_label(action, self.lang)}")
        if len(plays) > MAX_LISTED:
            self.say("  " + t("more_options", self.lang, n=len(plays) - MAX_LISTED))
        self.say(self.paint.dim(t(f"help_{priv.role}", self.lang)))
        line = self.input("> ").strip()
        await self._command(line, priv, plays)

    async def _command(self, line: str, priv: PrivateSnapshot, plays: Sequence[Action]) -> None:
        kinds = {a.kind for a in priv.legal}
        if line in ("q", "quit", "exit"):
            raise Quit
        if line in ("h", "?", "help"):
            self.say(t("console_help", self.lang))
            return
        if line == "t":
            await self._reply(SetAutoplay(chat=self.chat, actor=self.me, on=not priv.autoplay))
            return
        if line.startswith("c"):
            try:
                target = int(line[1:].strip())
            except ValueError:
                self.say(self.paint.warn(t("bad_target", self.lang)))
                return
            await self._reply(AskCount(chat=self.chat, actor=self.me, target=target))
            return
        simple = {
            "p": ActionKind.PASS,
            "r": ActionKind.RANG,
            "v": ActionKind.REVOLT,
            "d": ActionKind.DECLARE_POINT,
            "w": ActionKind.WAIVE,
        }
        if line in simple:
            await self._act(Action(simple[line]), priv)
            return
        if line == "":
            if priv.role == "pre_play":
                await self._reply(Ready(chat=self.chat, actor=self.me))
            elif priv.role == "burn":
                self.clock.advance(2)  # decline: let the window pass
                await self.manager.poll_timers()
            return
        if line.isdigit():
            n = int(line)
            if 1 <= n <= len(plays):
                await self._act(plays[n - 1], priv)
            else:
                self.say(self.paint.warn(t("bad_choice", self.lang)))
            return
        burn = line.startswith("b ")
        text = line[2:] if burn else line
        try:
            cards = parse(text)
        except IllegalAction as err:
            self.say(self.paint.warn(error_text(err.code.value, err.params, self.lang)))
            return
        if priv.role == "return":
            await self._act(Action(ActionKind.RETURN_TRIBUTE, cards), priv)
            return
        if burn or (priv.role == "burn" and ActionKind.PLAY not in kinds):
            await self._act(Action(ActionKind.BURN, cards), priv)
        else:
            await self._act(Action(ActionKind.PLAY, cards), priv)

    async def _act(self, action: Action, priv: PrivateSnapshot) -> None:
        await self._reply(Act(chat=self.chat, actor=self.me, action=action, version=priv.version))

    async def _reply(self, cmd: object) -> None:
        reply = await self.manager.handle(cmd)  # type: ignore[arg-type]
        if not reply.ok:
            self.say(self.paint.warn(reply_text(reply, self.lang)))
        elif reply.key not in ("ok",):
            self.say(self.paint.dim(reply_text(reply, self.lang)))


async def watch(
    preset: str, seed: int | None, lang: str, out: TextIO | None = None, ai_level: str = "normal"
) -> int:
    """Six AI seats play one hand; every play is printed, then the result."""
    table = ConsoleTable(
        preset=preset, seed=seed, lang=lang, hands=1, watch=True, out=out, ai_level=ai_level
    )
    return await table.run()


def cards_text(cards: tuple[int, ...]) -> str:
    return fmt(cards)
