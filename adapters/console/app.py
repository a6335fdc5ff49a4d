"""The terminal table. It drives the same TableManager as the chat adapters, on a fake
clock it moves itself, so burn windows and pauses pass as soon as you have answered.

Input has two distinct forms so a player never plays cards they did not name: ``#N`` (or
``/N``) picks option N of the list, anything else made of card letters is card notation.
"""

from __future__ import annotations

import asyncio
import dataclasses
import select
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TextIO, assert_never

from bot.ai import Role
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import fmt, parse
from bot.engine.errors import IllegalAction
from bot.engine.rules import PRESET_NAMES, PresetName
from bot.i18n import (
    bonus_kind,
    error_text,
    has_text,
    image_label,
    place_name,
    preset_name,
    t,
    tribute_kind,
)
from bot.i18n.catalogue import Lang
from bot.present.schema import SettingValue
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
from bot.table.outputs import Reply, TableSnapshot

from .format import Painter, format_hand, format_table, option_label, sorted_options

ME = Actor("me", "你", is_admin=True)
ME_EN = Actor("me", "You", is_admin=True)
MAX_LISTED = 40
# Replies the terminal does not print: "ok", and the count that was "posted in the group"
# (the terminal prints the answer itself as a notice).
QUIET_REPLIES = frozenset({"ok", "count_posted"})

InputFn = Callable[[str], str]
PollFn = Callable[[float], str | None]  # a line typed within the timeout, or None
# The one-letter actions that need no argument.
_SIMPLE_KEYS = {
    "p": ActionKind.PASS,
    "r": ActionKind.RANG,
    "v": ActionKind.REVOLT,
    "d": ActionKind.DECLARE_POINT,
    "w": ActionKind.WAIVE,
}
AUTOPLAY_PAUSE = 0.4  # seconds: the pace of 托管 in the terminal, and the time to type t


def stdin_line(timeout: float) -> str | None:
    """A line the player typed at the terminal within ``timeout`` seconds, if any."""
    if not sys.stdin.isatty():
        return None
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    return sys.stdin.readline() if ready else None


class Quit(Exception):
    """The player typed q."""


class ConsoleTable:
    def __init__(
        self,
        preset: PresetName = "dagang",
        seed: int | None = None,
        lang: Lang = "zh",
        hands: int = 4,
        watch: bool = False,
        input_fn: InputFn = input,
        poll_fn: PollFn | None = None,
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
        # Reading ahead is only safe from a person at a terminal, never from piped input.
        self.poll = poll_fn if poll_fn is not None else (stdin_line if input_fn is input else None)
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
        self.shown_keys: set[str] = set()  # notice keys printed since the last command
        self.my_seat: int | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    async def _on_out(self, out: Out) -> None:
        self.pending.append(out)

    def _flush(self) -> None:
        for out in self.pending:
            match out:
                case Notice():
                    self.shown_keys.add(out.key)
                    self.say(self.paint.seat(out.seat, notice_text(self._personal(out), self.lang)))
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

    def _personal(self, out: Notice) -> Notice:
        """A notice about the player's own seat, in the second person ("You declare ...")."""
        you = f"{out.key}_you"
        if self.my_seat is not None and out.seat == self.my_seat and has_text(you, self.lang):
            return dataclasses.replace(out, key=you)
        return out

    def _print_result(self, out: HandFinished) -> None:
        """Places with their points, then each ±1 of 比赛 scoring, so the rows add up."""
        res = out.result
        snap = self._snap()
        self.say(self.paint.bold(t("result_title", self.lang, hand_no=out.hand_no)))
        for i, seat in enumerate(res.places):
            points = res.seat_points[seat - 1]
            place = place_name(i + 1, self.lang)
            self.say(f"  {place}  {seat}  {snap.name_of(seat)}  {points:+d}")
        for bonus in res.bonuses:
            earner, payer = bonus.earner, bonus.payer
            self.say(
                f"  {bonus_kind(bonus.kind, self.lang)}: {earner} {snap.name_of(earner)} +1, "
                f"{payer} {snap.name_of(payer)} -1"
            )
        a, b = res.team_scores
        if res.sweep_team is None:
            for team, raw, final in (
                ("1-3-5", res.itemized_scores()[0], a),
                ("2-4-6", res.itemized_scores()[1], b),
            ):
                if raw != final:  # positive_only: the losing team records 0
                    self.say(
                        "  " + image_label("winners_only", self.lang, team=team, raw=f"{raw:+d}")
                    )
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
        changes: dict[str, SettingValue] = {
            "preset": self.preset,
            "match_hands": self.hands,
            "turn_seconds": 0,
            "lang": self.lang,
            "ai_level": self.ai_level,
        }
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
                if priv is not None:
                    self.my_seat = priv.seat
                if priv is not None and priv.autoplay and await self._autoplay_poll():
                    continue
                if priv is None or priv.role is None or priv.autoplay:
                    # Nothing for us to decide: let the table's pauses run out.
                    self.clock.advance(2)
                    await self.manager.poll_timers()
                    self._flush()
                    continue
                self._flush()
                await self._prompt(snap, priv)
                self._flush()
        except (Quit, EOFError, KeyboardInterrupt):
            # q, the end of input and Ctrl-C all end the match the same way.
            self.say()
            await self.manager.handle(StopMatch(chat=self.chat, actor=self.me))
            self._flush()
            return 0
        return 1

    async def _autoplay_poll(self) -> bool:
        """Under 托管 the table plays on by itself; a line typed meanwhile is still read:
        t takes the seat back, q quits. True when the seat was taken back."""
        if self.poll is None:
            return False
        line = self.poll(AUTOPLAY_PAUSE)
        if line is None:
            return False
        line = line.strip()
        if line in ("q", "quit", "exit"):
            raise Quit
        if line == "t":
            await self._reply(SetAutoplay(chat=self.chat, actor=self.me, on=False))
            return True
        self.say(self.paint.dim(t("role_auto", self.lang)))
        return False

    def _help_line(self, priv: PrivateSnapshot) -> str:
        kinds = {a.kind for a in priv.legal}
        pick = t("hint_pick", self.lang)
        if kinds & {ActionKind.PLAY, ActionKind.BURN, ActionKind.RETURN_TRIBUTE}:
            pick += (" " if self.lang == "en" else "") + t("hint_cards", self.lang)
        parts = [pick]
        keys = (
            (ActionKind.PASS, "hint_pass"),
            (ActionKind.RANG, "hint_rang"),
            (ActionKind.BURN, "hint_burn"),
            (ActionKind.REVOLT, "hint_revolt"),
            (ActionKind.DECLARE_POINT, "hint_point"),
            (ActionKind.WAIVE, "hint_waive"),
            (ActionKind.HUI, "hint_hui"),
            (ActionKind.CHONGDIAN, "hint_chongdian"),
        )
        parts += [t(key, self.lang) for kind, key in keys if kind in kinds]
        parts.append(t("hint_common", self.lang))
        hints = "; ".join(parts) if self.lang == "en" else "；".join(parts)
        return f"{t(f'role_{priv.role}', self.lang)} {hints}"

    async def _prompt(self, snap: TableSnapshot, priv: PrivateSnapshot) -> None:
        self.say(format_table(snap, self.lang, self.paint))
        self.say(format_hand(priv, self.lang, self.paint))
        plays = sorted_options(priv.legal)
        for i, action in enumerate(plays[:MAX_LISTED], start=1):
            self.say(f"  #{i:<3}{option_label(action, self.lang)}")
        if len(plays) > MAX_LISTED:
            self.say("  " + t("more_options", self.lang, n=len(plays) - MAX_LISTED))
        self.say(self.paint.dim(self._help_line(priv)))
        line = self.input("> ").strip()
        await self._command(line, priv, plays, snap)

    def _warn(self, key: str, **params: object) -> None:
        self.say(self.paint.warn(t(key, self.lang, **params)))

    async def _command(
        self,
        line: str,
        priv: PrivateSnapshot,
        plays: Sequence[Action],
        snap: TableSnapshot | None = None,
    ) -> None:
        if await self._meta_command(line, priv):
            return
        kinds = {a.kind for a in priv.legal}
        if await self._key_command(line, priv, kinds, snap):
            return
        if line == "":
            await self._enter(priv)
            return
        if line[0] in "#/":
            await self._pick(line[1:].strip(), priv, plays)
            return
        if line.lower() in ("b", "s"):
            # A lone b reads as "burn" to a player but as a big joker to the parser.
            self._warn("lone_letter", letter=line)
            return
        await self._cards(line, priv, kinds)

    async def _meta_command(self, line: str, priv: PrivateSnapshot) -> bool:
        """Quit, help, autoplay and asking a count; True when ``line`` was one of them."""
        if line in ("q", "quit", "exit"):
            raise Quit
        if line in ("h", "?", "help"):
            self.say(t("console_help", self.lang))
            return True
        if line == "t":
            await self._reply(SetAutoplay(chat=self.chat, actor=self.me, on=not priv.autoplay))
            if not priv.autoplay:
                self.say(self.paint.dim(t("role_auto", self.lang)))
            return True
        if line.startswith("c"):
            try:
                target = int(line[1:].strip())
            except ValueError:
                self.say(self.paint.warn(t("bad_target", self.lang)))
                return True
            await self._reply(AskCount(chat=self.chat, actor=self.me, target=target))
            return True
        return False

    async def _key_command(
        self,
        line: str,
        priv: PrivateSnapshot,
        kinds: set[ActionKind],
        snap: TableSnapshot | None,
    ) -> bool:
        """The one-letter actions (pass, 让, 革命, 明点, waive, 冲点, 烩); True when handled."""
        if line == "x":  # 冲点
            if not self._explain_off(ActionKind.CHONGDIAN, kinds, snap):
                await self._act(Action.chongdian(), priv)
            return True
        if line.startswith("u"):  # 烩: u alone when only one choice, else u3 / u4 / u34
            await self._hui(line[1:].strip(), priv, kinds, snap)
            return True
        kind = _SIMPLE_KEYS.get(line)
        if kind is None:
            return False
        if not self._explain_off(kind, kinds, snap):
            await self._act(Action(kind), priv)
        return True

    async def _enter(self, priv: PrivateSnapshot) -> None:
        """An empty line: ready before the first play, or let a burn window pass."""
        if priv.role is Role.PRE_PLAY:
            await self._reply(Ready(chat=self.chat, actor=self.me))
        elif priv.role is Role.BURN:
            self.clock.advance(2)  # decline: let the window pass
            await self.manager.poll_timers()

    async def _hui(
        self,
        ranks: str,
        priv: PrivateSnapshot,
        kinds: set[ActionKind],
        snap: TableSnapshot | None,
    ) -> None:
        if self._explain_off(ActionKind.HUI, kinds, snap):
            return
        offered = [a for a in priv.legal if a.kind is ActionKind.HUI and a.ranks is not None]
        if not ranks and len(offered) == 1:
            await self._act(offered[0], priv)
            return
        choice = next((r for r in HuiRanks if r.value == ranks), None)
        if choice is None:
            self._warn("bad_hui_ranks")
            return
        await self._act(Action.hui(choice), priv)

    def _explain_off(
        self, kind: ActionKind, kinds: set[ActionKind], snap: TableSnapshot | None
    ) -> bool:
        """Say so when the preset has no such thing at all (the engine would only say 'not now')."""
        rules = snap.rules if snap is not None else None
        if kind in kinds or rules is None:
            return False
        if kind is ActionKind.DECLARE_POINT and not (rules.dadian and rules.point_bets):
            self._warn("no_point_bets")
            return True
        if kind is ActionKind.REVOLT and rules.revolution == "off":
            self._warn("no_revolution")
            return True
        if kind is ActionKind.HUI and rules.hui == "off":
            self._warn("no_hui")
            return True
        if kind is ActionKind.CHONGDIAN and not (rules.chongdian and rules.dadian):
            self._warn("no_chongdian")
            return True
        return False

    async def _pick(self, number: str, priv: PrivateSnapshot, plays: Sequence[Action]) -> None:
        if number.isdigit() and 1 <= int(number) <= len(plays):
            await self._act(plays[int(number) - 1], priv)
        else:
            self._warn("bad_choice")

    async def _cards(self, line: str, priv: PrivateSnapshot, kinds: set[ActionKind]) -> None:
        burn = line.lower().startswith("b ")
        text = line[2:] if burn else line
        try:
            cards = parse(text)
        except IllegalAction as err:
            char = str(err.params.get("char", ""))
            if text.isdigit() and char in "01":
                # "1", "12": a menu number typed without its #.
                self._warn("number_not_cards", text=text, char=char)
            else:
                self.say(self.paint.warn(error_text(err.code.value, err.params, self.lang)))
            return
        if priv.role is Role.RETURN:
            await self._act(Action(ActionKind.RETURN_TRIBUTE, cards), priv)
            return
        if burn or (priv.role is Role.BURN and ActionKind.PLAY not in kinds):
            await self._act(Action(ActionKind.BURN, cards), priv)
        else:
            await self._act(Action(ActionKind.PLAY, cards), priv)

    async def _act(self, action: Action, priv: PrivateSnapshot) -> None:
        await self._reply(Act(chat=self.chat, actor=self.me, action=action, version=priv.version))

    async def _reply(self, cmd: object) -> None:
        self.shown_keys.clear()
        reply: Reply = await self.manager.handle(cmd)  # type: ignore[arg-type]
        self._flush()  # the table's own notices first (the reply may repeat one of them)
        if not reply.ok:
            self.say(self.paint.warn(reply_text(reply, self.lang)))
        elif reply.key not in QUIET_REPLIES and reply.key not in self.shown_keys:
            self.say(self.paint.dim(reply_text(reply, self.lang)))


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def play(table: ConsoleTable) -> int:
    """Run ``table`` until the match ends, q, end of input or Ctrl-C (all end it cleanly).

    asyncio.run would turn the first Ctrl-C into a cancellation that input() never sees
    (and the second into a traceback); with a handler of our own installed, asyncio leaves
    SIGINT alone and Ctrl-C interrupts the prompt at once, as q does.
    """
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        return asyncio.run(table.run())
    except KeyboardInterrupt:
        return 0  # interrupted outside a prompt: nothing left to tidy in a terminal game
    finally:
        signal.signal(signal.SIGINT, previous)


async def watch(
    preset: PresetName,
    seed: int | None,
    lang: Lang,
    out: TextIO | None = None,
    ai_level: str = "normal",
) -> int:
    """Six AI seats play one hand; every play is printed, then the result."""
    table = ConsoleTable(
        preset=preset, seed=seed, lang=lang, hands=1, watch=True, out=out, ai_level=ai_level
    )
    return await table.run()


def cards_text(cards: tuple[int, ...]) -> str:
    return fmt(cards)
