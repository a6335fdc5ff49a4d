"""The terminal table. It drives the same TableManager as the chat adapters, on a fake
clock it moves itself, so burn windows and pauses pass as soon as you have answered.

Input has two distinct forms so a player never plays cards they did not name: ``#N`` (or
``/N``) picks option N of the short list shown, anything else made of card letters is card
notation; commands that are not one card letter are words (``auto`` for 托管). The screen is
redrawn at each of your decisions to fit the window (``screen.Frame``), with the answer to
what you typed right above the prompt.
"""

from __future__ import annotations

import random
import select
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO, assert_never

from bot.ai import Policy, Role, policy_for
from bot.ai.levels import without_search
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import parse
from bot.engine.errors import IllegalAction
from bot.engine.rules import PRESET_NAMES, PresetName, deck_size, make_rules
from bot.i18n import (
    error_text,
    preset_name,
    t,
)
from bot.i18n.catalogue import Lang
from bot.present.controls import Controls, controls_of
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
    ReplyCode,
    Start,
    StopMatch,
    TableChanged,
    TableManager,
    TableStatus,
    apply_setting_changes,
)
from bot.table.describe import note_text, notice_text, reply_text
from bot.table.outputs import Reply, TableSnapshot

from .format import (
    Painter,
    seat_name,
    team_line,
)
from .notices import PACED_NOTICES, QUIET_REPLIES, personal
from .prompt import decision_frame, listed_options, not_in_preset
from .results import result_lines
from .rules import deck_text
from .screen import CLEAR, terminal_size
from .thinking import Stopped, ThinkingPolicy
from .words import (
    AUTO_WORDS,
    AUTOPASS_WORDS,
    HELP_WORDS,
    LONE_LETTERS,
    QUIT_WORDS,
    SIMPLE_KEYS,
    YES_WORDS,
)

ME = Actor("me", "你", is_admin=True)
ME_EN = Actor("me", "You", is_admin=True)
FULL_DECK = 216  # four decks
PLAY_PAUSE = 0.6  # seconds after each play while you watch (托管, --watch) at a terminal

InputFn = Callable[[str], str]
PollFn = Callable[[float], str | None]  # a line typed within the timeout, or None


def stdin_line(timeout: float) -> str | None:
    """A line the player typed at the terminal within ``timeout`` seconds, if any."""
    if not sys.stdin.isatty():
        return None
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    return sys.stdin.readline() if ready else None


class Quit(Exception):
    """The player typed q."""


class ConsoleTable:
    controls = Controls(0, 0)  # what the seat is offered at the decision shown (frozen)

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
        store: Store | None = None,  # where finished hands go (the local file, --record)
        ai_level: str = "normal",
        policy: Policy | None = None,  # the AI seats' policy (tests); else ``ai_level``'s
        pace: float | None = None,  # seconds after each play you watch (default: at a tty)
        screen: bool | None = None,  # redraw the window at each decision (default: at a tty)
        db_path: str | None = None,  # keep finished hands in this SQLite file (gouji export)
    ) -> None:
        if preset not in PRESET_NAMES:
            raise ValueError(preset)
        self.preset, self.ai_level, self.lang = preset, ai_level, lang
        self.hands, self.watching = hands, watch
        self.input = input_fn
        # Reading ahead is only safe from a person at a terminal, never from piped input.
        self.poll = poll_fn if poll_fn is not None else (stdin_line if input_fn is input else None)
        self.out = out or sys.stdout
        self._terminal(color, screen, pace)
        self.clock = FakeClock()
        self.names: tuple[str, ...] = ()  # the seats' names, for the thinking sign
        self.seed = seed
        self.stop = threading.Event()  # Ctrl-C: AI seats stop deciding (see play)
        self.ai = policy or policy_for(ai_level)  # the AI seats, and 托管 for your seat
        self.db_path = db_path
        self._own_store = Store(db_path) if db_path is not None and store is None else None
        self.manager = self._manager(store or self._own_store)
        self.chat = ChatRef("console", "local")
        self.me = ME if lang == "zh" else ME_EN
        self.manager.subscribe(self._on_out, hands=True)  # the one player's own screen
        self.pending: list[Out] = []
        self.fresh: list[str] = []  # messages since the screen was last drawn
        self.shown_keys: set[str] = set()  # notice keys printed since the last command
        self.my_seat: int | None = None
        self.role: Role | None = None  # your role at the decision being answered
        self.autopass = False  # pass by itself when 过 is all you may do (off by default)
        # 托管 is the terminal's own: it plays your seat through the AI policy at your
        # decisions, so the table stops at each of them and auto takes the seat back at once.
        self.auto = False
        self.listed: list[tuple[Action, str | None]] = []

    def _terminal(self, color: bool | None, screen: bool | None, pace: float | None) -> None:
        """Colours, the redrawn screen and the pace of plays: a person's terminal has them
        (unless watching: a watched hand scrolls), a pipe or a file does not. And the
        state of what is written from other threads."""
        tty = self.out.isatty()
        self.paint = Painter(color if color is not None else (tty and not self.watching))
        self.screen = screen if screen is not None else (tty and not self.watching)
        self.pace = pace if pace is not None else (PLAY_PAUSE if tty else 0.0)
        # Lines written from other threads: the thinking sign (a timer's) and a running
        # step's lines (``_live``, the step's thread).
        self._lock = threading.Lock()
        self._status_line = False
        # What ``_live`` printed of a step still running, for ``_drain`` to leave out; and
        # where it got to in that step's outputs (the last one it saw, to know the step).
        self._streamed: list[Out] = []
        self._live_seen: tuple[int, Out | None] = (0, None)
        self._quit_asked = False  # q typed while a step played on (``_live``)

    def _manager(self, store: Store | None) -> TableManager:
        """The table manager on a clock the terminal moves itself, its AI seats' policy
        wrapped to say when a decision takes a while."""
        fixed = self.seed
        manager = TableManager(
            store=store,
            clock=self.clock,
            policy=ThinkingPolicy(self.ai, self._thinking, self._thought, stop=self.stop),
            seed_source=(lambda: fixed) if fixed is not None else None,
            burn_window_seconds=1,
            declare_window_seconds=1,
            between_hands_seconds=1,
        )
        manager.live = self._live  # a run of AI moves is printed as it is made
        return manager

    # -- output ------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        with self._lock:
            if self._status_line:
                self.out.write("\r\x1b[K")
                self._status_line = False
            print(text, file=self.out, flush=True)

    def _thinking(self, seat: int) -> None:
        """An AI decision is taking a while: say whose, at once (from the timer thread)."""
        name = self.names[seat - 1] if len(self.names) >= seat else seat_name(seat, self.lang)
        text = self.paint.dim(t("console_thinking", self.lang, name=name))
        with self._lock:
            if self.out.isatty():  # one status row, rewritten in place, gone with the next line
                self.out.write("\r\x1b[K" + text)
                self.out.flush()
                self._status_line = True
            else:
                print(text, file=self.out, flush=True)

    def _thought(self) -> None:
        with self._lock:
            if self._status_line:
                self.out.write("\r\x1b[K")
                self.out.flush()
                self._status_line = False

    async def _on_out(self, out: Out) -> None:
        self.pending.append(out)

    def _out_text(self, out: Out) -> str | None:
        match out:
            case Notice():
                self.shown_keys.add(out.key)
                return self.paint.seat(
                    out.seat,
                    notice_text(personal(out, self.me.name, self.my_seat, self.lang), self.lang),
                )
            case HandFinished():
                return self._result_text(out)
            case MatchOver(totals=(a, b)):
                return self.paint.bold(t("match_over", self.lang, a=a, b=b))
            case PrivateNote():
                return self.paint.warn(note_text(out, self.lang))
            case TableChanged() | HandChanged():
                return None  # the terminal redraws on its own turn
            case _:
                assert_never(out)

    def _live(self, outs: tuple[Out, ...]) -> None:
        """A running step's outputs so far, told before each AI turn (in the step's
        thread). While the table plays on without you they are printed now, each play
        paced: a run of searching seats (a whole watched hand is one step) shows as it is
        played instead of all at once when it is decided. ``_drain`` leaves them out."""
        if not self._streaming() or self.stop.is_set():
            return  # (stopped: Ctrl-C or q, the step ends at the next decision)
        seen, last = self._live_seen
        if seen > len(outs) or (seen and outs[seen - 1] is not last):
            seen = 0  # another step's outputs
        self._live_seen = (len(outs), outs[-1] if outs else None)
        for out in outs[seen:]:
            text = self._out_text(out)
            if text is None:
                continue
            self._streamed.append(out)
            self.say(text)
            if isinstance(out, Notice) and out.key in PACED_NOTICES and not self.stop.is_set():
                try:
                    self._wait_pace()
                except Quit:
                    # The step is the table's: the AI seats stop deciding (``Stopped`` at
                    # the next decision ends the step, nothing of it committed) and the
                    # match ends as q ends it anywhere.
                    self._quit_asked = True
                    self.stop.set()
                    return

    async def _drain(self, stream: bool) -> None:
        """The table's outputs: kept for the next screen, or (``stream``: while you watch
        the table play on) printed at once, with a pause after each play. What ``_live``
        printed as the step ran is not printed again."""
        outs, self.pending = self.pending, []
        streamed, self._streamed = self._streamed, []
        for out in outs:
            if out in streamed:
                streamed.remove(out)
                continue
            text = self._out_text(out)
            if text is None:
                continue
            if not stream:
                self.fresh.append(text)
                continue
            self.say(text)
            if isinstance(out, Notice) and out.key in PACED_NOTICES:
                await self._pause()

    def _show_fresh(self) -> None:
        for text in self.fresh:
            self.say(text)
        self.fresh = []

    def _message(self, text: str) -> None:
        self.fresh.append(text)

    def _warn(self, key: str, **params: object) -> None:
        self._message(self.paint.warn(t(key, self.lang, **params)))

    def _result_text(self, out: HandFinished) -> str:
        """Places with their points, then each ±1 of 比赛 scoring, so the rows add up."""
        return "\n".join(result_lines(out, self._snap(), self.lang, self.paint))

    def _snap(self) -> TableSnapshot:
        snap = self.manager.snapshot(self.chat.key)
        assert snap is not None
        return snap

    # -- the match ---------------------------------------------------------------------
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
        snap = self._snap()
        self.names = tuple(snap.name_of(s) for s in range(1, 7))
        title = preset_name(self.preset, self.lang)
        self.say(self.paint.bold(f"够级 · {title}"))
        seat = snap.names.index(self.me.name) + 1 if self.me.name in snap.names else None
        if seat is not None and not self.watching:
            self.my_seat = seat
            self._message(t("console_welcome", self.lang, team=team_line(seat, self.lang)))
        rules = snap.rules or make_rules(self.preset)
        if deck_size(rules) < FULL_DECK:
            self._message(deck_text(rules, self.lang))  # 青岛场: which cards were taken out
        if self.watching:
            self._show_fresh()
        await self.manager.handle(Start(chat=self.chat, actor=self.me))
        await self._drain(self._streaming())

    def _streaming(self) -> bool:
        """Whether the table plays on without you (watching, or 托管): print as it goes."""
        return self.watching or self.auto

    async def run(self) -> int:
        await self._open_store()
        try:
            return await self._run()
        finally:
            await self._close_store()

    async def _run(self) -> int:
        try:
            await self.setup()  # a watched hand is played in its first step
            for _ in range(100000):
                if not await self._step():
                    return 0
        except Stopped:
            if not self._quit_asked:
                raise  # Ctrl-C while an AI seat decided: ``run.play`` ends it
            await self._quit()  # q while the table played on (``_live``)
            return 0
        except (Quit, EOFError, KeyboardInterrupt):
            await self._quit()
            return 0
        return 1

    async def _quit(self) -> None:
        """q, the end of input and Ctrl-C all end the match the same way."""
        self._show_fresh()
        self.say()
        await self.manager.handle(StopMatch(chat=self.chat, actor=self.me))
        await self._drain(True)

    async def _open_store(self) -> None:
        """The local file of finished hands; a table a killed session left open there is
        ended first. If the file cannot be opened the match is played unsaved."""
        store = self._own_store
        if store is None:
            return
        try:
            await store.open()
        except Exception as err:  # a directory, a read-only place, not a database
            self.say(
                self.paint.warn(t("console_store_failed", self.lang, path=self.db_path, error=err))
            )
            self.manager.store = None
            self._own_store = None
            return
        left = await self.manager.current(self.chat)
        if left is not None and left.status is not TableStatus.FINISHED:
            await self.manager.handle(StopMatch(chat=self.chat, actor=self.me))
        self.pending.clear()

    async def _close_store(self) -> None:
        store = self._own_store
        if store is None:
            return
        try:
            recent = await store.recent_hands(self.chat.group_key, 1)
            if recent:
                self.say(
                    self.paint.dim(
                        t(
                            "console_store",
                            self.lang,
                            path=self.db_path,
                            group=self.chat.group_key,
                            hand=recent[0][0],
                        )
                    )
                )
        finally:
            await store.close()

    async def _step(self) -> bool:
        """One turn of the loop; False once the match is over."""
        snap = self._snap()
        if snap.status is TableStatus.FINISHED:
            await self._drain(True)
            self._show_fresh()
            return False
        if snap.status is TableStatus.BETWEEN:
            await self._between()
            return True
        priv = self.manager.private_snapshot(self.chat.key, self.me.user_id)
        if priv is None or priv.role is None:
            # Nothing for us to decide: let the table's pauses run out.
            self.clock.advance(2)
            await self.manager.poll_timers()
            await self._drain(self._streaming())
            return True
        self.my_seat = priv.seat
        if self.auto and await self._autoplay(priv):
            return True
        await self._drain(False)
        if not await self._auto_pass(priv):
            await self._prompt(snap, priv)
        return True

    async def _between(self) -> None:
        """Between hands: Enter deals the next one, q quits, auto takes your seat back."""
        await self._drain(True)
        self._show_fresh()
        if not self.watching:
            key = "press_enter_next_auto" if self.auto else "press_enter_next"
            answer = self.input(t(key, self.lang)).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if self.auto and (answer in AUTO_WORDS or answer == "t"):
                self._set_auto(False)
                self._show_fresh()
        await self.manager.handle(NextHand(chat=self.chat, actor=self.me))
        await self._drain(self._streaming())

    def _set_auto(self, on: bool) -> None:
        self.auto = on
        self._message(self.paint.dim(t("autoplay_on" if on else "autoplay_off", self.lang)))
        if on:
            self._message(self.paint.dim(t("role_auto", self.lang)))

    async def _autoplay(self, priv: PrivateSnapshot) -> bool:
        """托管: the AI decides for you, at a person's pace; what you type meanwhile is read
        (auto takes the seat back at once). False when you have it back."""
        await self._drain(True)
        self._show_fresh()
        await self._pause()
        if not self.auto:
            return False
        rng = random.Random(f"{self.seed}:{priv.version}:{priv.seat}")
        choice = without_search(self.ai).choose(priv.view, priv.legal, rng)
        if choice is None or choice not in priv.legal:
            # Nothing to declare or burn: ready in the pause, else let the window pass.
            if self._snap().declare_open:
                await self._reply(Ready(chat=self.chat, actor=self.me))
            else:
                await self._let_time_pass()
        else:
            await self._act(choice, priv)
        self._show_fresh()
        return True

    async def _pause(self) -> None:
        """A moment while you watch, reading what you type: q quits, auto takes back."""
        self._wait_pace()

    def _wait_pace(self) -> None:
        if self.poll is not None:
            line = self.poll(self.pace)
            if line is not None:
                self._typed_meanwhile(line.strip().lower())
        elif self.pace > 0:
            time.sleep(self.pace)

    def _typed_meanwhile(self, line: str) -> None:
        """A line typed while the table plays on: q quits, auto (or t) takes your seat back."""
        if line in QUIT_WORDS:
            raise Quit
        if self.watching or line == "" or not self.auto:
            return
        if line in AUTO_WORDS or line == "t":
            self._set_auto(False)
            self._show_fresh()
        else:
            self.say(self.paint.dim(t("role_auto", self.lang)))

    async def _auto_pass(self, priv: PrivateSnapshot) -> bool:
        """With autopass on, 过 is sent by itself when it is all you may do."""
        if not self.autopass or {a.kind for a in priv.legal} != {ActionKind.PASS}:
            return False
        self._message(self.paint.dim(t("console_auto_passed", self.lang)))
        await self._act(Action(ActionKind.PASS), priv)
        return True

    # -- your decision -----------------------------------------------------------------
    async def _prompt(self, snap: TableSnapshot, priv: PrivateSnapshot) -> None:
        self.controls = controls_of(priv, snap)
        self.listed = listed_options(priv, self.controls)
        self.role = priv.role
        frame = decision_frame(snap, priv, self.listed, self.fresh, self.lang, self.paint)
        self.fresh = []
        cols, rows = terminal_size() if self.screen else (10**4, 10**6)
        if self.screen:
            self.out.write(CLEAR)
        for line in frame.lines(cols, rows):
            self.say(line)
        line = self.input("> ").strip()
        await self._command(line, priv, snap)

    async def _command(self, line: str, priv: PrivateSnapshot, snap: TableSnapshot) -> None:
        if await self._meta_command(line, priv, snap):
            return
        kinds = {a.kind for a in priv.legal}
        if await self._key_command(line, priv, kinds, snap):
            return
        if line == "":
            await self._enter()
            return
        if line[0] in "#/":
            await self._pick(line[1:].strip(), priv)
            return
        if line.lower() in LONE_LETTERS:
            await self._lone_letter(line, priv, kinds)
            return
        await self._cards(line, priv, kinds)

    async def _meta_command(self, line: str, priv: PrivateSnapshot, snap: TableSnapshot) -> bool:
        """Quit, help, rules, 托管, autopass and asking a count; True when ``line`` was one."""
        word = line.lower()
        if word in QUIT_WORDS:
            raise Quit
        if word in HELP_WORDS:
            self._message(t("console_help", self.lang))
        elif word == "rules":
            from .rules import rules_text

            self._message(rules_text(snap, self.lang))
        elif word in AUTO_WORDS:
            self._set_auto(not self.auto)
        elif word in AUTOPASS_WORDS:
            self.autopass = not self.autopass
            self._warn("console_autopass_on" if self.autopass else "console_autopass_off")
        elif word.startswith("c") and not word.startswith("chong"):
            try:
                target = int(line[1:].strip())
            except ValueError:
                self._warn("bad_target")
                return True
            await self._reply(AskCount(chat=self.chat, actor=self.me, target=target))
        else:
            return False
        return True

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
        kind = SIMPLE_KEYS.get(line)
        if kind is None:
            return False
        if not self._explain_off(kind, kinds, snap):
            await self._act(Action(kind), priv)
        return True

    async def _enter(self) -> None:
        """An empty line: "ready" or "not burning", where the controls offer it."""
        if self.controls.ready is not None:
            await self._reply(Ready(chat=self.chat, actor=self.me))
        elif self.controls.decline is not None:
            await self._let_time_pass()
        else:
            self._warn("console_enter_turn")

    async def _let_time_pass(self) -> None:
        self.clock.advance(2)  # decline: let the window pass
        await self.manager.poll_timers()
        await self._drain(False)

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
        key = not_in_preset(kind, kinds, snap)
        if key is not None:
            self._warn(key)
        return key is not None

    async def _pick(self, number: str, priv: PrivateSnapshot) -> None:
        """``#N``: only a number on the list shown is an option (the rest are not offered)."""
        if number.isdigit() and 1 <= int(number) <= len(self.listed):
            await self._act(self.listed[int(number) - 1][0], priv)
        elif self.listed:
            self._warn("bad_choice", n=len(self.listed))
        else:
            self._warn("bad_choice_none")

    async def _lone_letter(
        self, letter: str, priv: PrivateSnapshot, kinds: set[ActionKind]
    ) -> None:
        """b, s or t alone: a command to a player, one card to the parser. Ask which."""
        answer = self.input(t("lone_letter", self.lang, letter=letter, card=letter.upper()))
        if answer.strip().lower() in YES_WORDS:
            await self._cards(letter, priv, kinds)
        else:
            self._warn("lone_letter_kept")

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
            elif len(text) > 1 and text.isalpha() and text.isascii():
                self._warn("unknown_input", text=text)  # "hello": a word, not cards
            else:
                self._message(self.paint.warn(error_text(err.code.value, err.params, self.lang)))
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
        await self._drain(self._streaming())  # the table's notices first (the reply may repeat one)
        if not reply.ok:
            if reply.key == ReplyCode.WAIT_DECLARATIONS and self.role is Role.PRE_PLAY:
                # The table waits for you: say what to press, not "wait".
                self._warn("console_pre_play_enter")
            else:
                self._message(self.paint.warn(reply_text(reply, self.lang)))
        elif reply.key not in QUIET_REPLIES and reply.key not in self.shown_keys:
            self._message(self.paint.dim(reply_text(reply, self.lang)))
