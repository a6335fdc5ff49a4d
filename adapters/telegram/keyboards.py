"""Inline keyboards: the group's table buttons and each player's private action keyboard.

The private keyboard is a small state machine whose state is the pressed button's own
payload. Its first screen starts with the play menu's suggested plays (one tap each),
then 过 / 让, then the ranks you may play with how many of each you hold. A rank shows
every play of that rank as one button (two taps in all); a rank with more plays than fit
on a screen asks for the size first, then lists that size's plays (three taps). Each
screen offers only what ``PrivateSnapshot.menu`` holds.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import NOTATION, Counts
from bot.engine.plays import Play
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.present.playmenu import RankChoice, Suggest, play_of
from bot.table import PrivateSnapshot, TableSnapshot, TableStatus

from .callback import ActPress, GroupPress, encode
from .views import cards_text, rank_label

Rows = list[list[InlineKeyboardButton]]
ASK_RULES = ("ask_le10", "ask_lt10")


PAGE = 12  # plays per screen: 4 rows of 3 fit a phone
RANKS_PER_ROW = 6
SUGGEST_LABELS = {
    Suggest.CHEAPEST: "suggest_cheapest",
    Suggest.LEAD_SET: "suggest_lead_set",
    Suggest.FINISH: "suggest_finish",
}


def _kind(mode: str) -> ActionKind:
    return ActionKind.PLAY if mode == "p" else ActionKind.BURN


def counts_of(notation: str) -> Counts:
    c = [0] * len(NOTATION)
    for ch in notation:
        c[NOTATION.index(ch)] += 1
    return tuple(c)


def markup_key(markup: InlineKeyboardMarkup | None) -> Hashable:
    return None if markup is None else json.dumps(markup.to_dict(), sort_keys=True)


def _chunk(buttons: Sequence[InlineKeyboardButton], width: int) -> Rows:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


# -- group -------------------------------------------------------------------------------
def _g(text: str, tid: str, op: str, seat: int | None = None) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(GroupPress(tid, op, seat)))


def table_keyboard(snap: TableSnapshot, tid: str, lang: Lang) -> InlineKeyboardMarkup | None:
    if snap.status is TableStatus.LOBBY:
        row = [
            _g(t("tg_btn_join", lang), tid, "j"),
            _g(t("tg_btn_addbot", lang), tid, "a"),
            _g(t("tg_btn_start", lang), tid, "s"),
        ]
        return InlineKeyboardMarkup([row])
    if snap.status is TableStatus.BETWEEN:
        return InlineKeyboardMarkup(
            [[_g(t("tg_btn_next", lang), tid, "n"), _g(t("tg_btn_mine", lang), tid, "h")]]
        )
    if snap.status is TableStatus.PLAYING:
        rows: Rows = [[_g(t("tg_btn_mine", lang), tid, "h")]]
        if snap.rules is not None and snap.rules.count_rule in ASK_RULES:
            asks = [_g(t("tg_btn_count", lang, seat=s), tid, "c", s) for s in range(1, 7)]
            rows += _chunk(asks, 3)
        return InlineKeyboardMarkup(rows)
    return None


def link_keyboard(text: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, url=url)]])


# -- private -----------------------------------------------------------------------------
class _Keys:
    """Builds buttons for one player's snapshot."""

    def __init__(self, priv: PrivateSnapshot, tid: str, lang: Lang, snap: TableSnapshot) -> None:
        self.priv = priv
        self.tid = tid
        self.lang = lang
        self.declare_open = snap.declare_open
        self.ready = snap.ready
        self.kinds = {a.kind for a in priv.legal}

    def button(self, text: str, op: str, *args: object) -> InlineKeyboardButton:
        press = ActPress(self.tid, self.priv.version, op, tuple(str(a) for a in args))
        return InlineKeyboardButton(text, callback_data=encode(press))

    def options(self, mode: str) -> tuple[RankChoice, ...]:
        """The play menu's ranks → sizes → variants for this mode (play or burn)."""
        return self.priv.menu.tree(_kind(mode))

    def default_mode(self) -> str:
        return "b" if ActionKind.PLAY not in self.kinds and ActionKind.BURN in self.kinds else "p"

    def play_button(self, mode: str, p: Play, label_key: str | None = None) -> InlineKeyboardButton:
        """One tap sends this play (or burn)."""
        cards = cards_text(p.counts(), self.lang)
        label_key = label_key or ("tg_btn_play" if mode == "p" else "tg_btn_burn")
        return self.button(t(label_key, self.lang, cards=cards), "g", mode, *p)

    def suggestions(self, mode: str) -> Rows:
        """The menu's suggested plays for this mode, one tap each, on one row."""
        row = []
        for s in self.priv.menu.suggestions:
            if s.action.kind is _kind(mode) and s.action.cards is not None:
                label = SUGGEST_LABELS[s.reason]
                row.append(self.play_button(mode, play_of(s.action.cards), label))
        return [row] if row else []

    def footer(self) -> Rows:
        auto = self.priv.autoplay
        label = "tg_btn_auto_off" if auto else "tg_btn_auto_on"
        row = [
            self.button(t(label, self.lang), "t", 0 if auto else 1),
            self.button(t("tg_btn_refresh", self.lang), "h"),
        ]
        if self.priv.hints and not auto and self.priv.legal:
            row.append(self.button(t("tg_btn_hint", self.lang), "H"))
        return [row]

    # screens
    def root(self, mode: str | None = None) -> Rows:
        if self.priv.autoplay:
            return self.footer()
        owed = self.priv.menu.returns
        if owed:
            return self.returns(owed[0].giver, "")
        mode = mode or self.default_mode()
        rows = self.suggestions(mode)
        moves = self.moves(mode)
        if moves:
            rows.append(moves)
        ranks = [
            self.button(f"{rank_label(r.base, self.lang)}×{r.held}", "b", mode, r.base)
            for r in self.options(mode)
        ]
        rows += _chunk(ranks, RANKS_PER_ROW)
        rows += self.pre_play()
        return rows + self.footer()

    def moves(self, mode: str) -> list[InlineKeyboardButton]:
        """过, 让 and the switch between playing and burning."""
        moves = []
        if ActionKind.PASS in self.kinds:
            moves.append(self.button(t("tg_btn_pass", self.lang), "x"))
        if ActionKind.RANG in self.kinds:
            moves.append(self.button(t("tg_btn_rang", self.lang), "y"))
        if mode == "p" and ActionKind.BURN in self.kinds:
            moves.append(self.button(t("tg_btn_burn_mode", self.lang), "r", "b"))
        if mode == "b" and ActionKind.PLAY in self.kinds:
            moves.append(self.button(t("tg_btn_play_mode", self.lang), "r", "p"))
        if mode == "b" and ActionKind.PLAY not in self.kinds:
            moves.append(self.button(t("tg_btn_no_burn", self.lang), "n"))
        return moves

    def pre_play(self) -> Rows:
        row = []
        for a in self.priv.legal:
            if a.kind is ActionKind.REVOLT:
                row.append(self.button(t("tg_btn_revolt", self.lang), "V"))
            elif a.kind is ActionKind.DECLARE_POINT:
                key = "tg_btn_prepoint" if a.pre else "tg_btn_point"
                row.append(self.button(t(key, self.lang), "D", 1 if a.pre else 0))
            elif a.kind is ActionKind.WAIVE:
                row.append(self.button(t("tg_btn_waive", self.lang), "W"))
            elif a.kind is ActionKind.HUI and a.ranks is not None:
                label = t("tg_btn_hui", self.lang, ranks=a.ranks.value)
                row.append(self.button(label, "U", a.ranks.value))
            elif a.kind is ActionKind.CHONGDIAN:
                row.append(self.button(t("tg_btn_chongdian", self.lang), "C"))
        if self.declare_open and self.priv.seat not in self.ready:
            row.append(self.button(t("tg_btn_ready", self.lang), "K"))
        return _chunk(row, 3)

    def sizes(self, mode: str, base: int) -> list[int]:
        rank = next((r for r in self.options(mode) if r.base == base), None)
        return [s.size for s in rank.sizes] if rank is not None else []

    def variants(self, mode: str, base: int, size: int) -> list[Play]:
        rank = next((r for r in self.options(mode) if r.base == base), None)
        found = rank.size(size) if rank is not None else None
        return [v.play for v in found.variants] if found is not None else []

    def base(self, mode: str, base: int) -> Rows:
        sizes = self.sizes(mode, base)
        if not sizes:
            return self.root(mode)
        back = [self.button(t("tg_btn_back", self.lang), "r", mode)]
        every = [p for n in sizes for p in self.variants(mode, base, n)]
        if len(every) <= PAGE:
            # Every play of this rank fits: each is one tap away, a row per size.
            if all(len(self.variants(mode, base, n)) == 1 for n in sizes):
                return [*_chunk([self.play_button(mode, p) for p in every], 3), back]
            rows: Rows = []  # a row per size: 999, 999 +2, 999 +22 read side by side
            for n in sizes:
                rows += _chunk([self.play_button(mode, p) for p in self.variants(mode, base, n)], 3)
            return [*rows, back]
        buttons = [
            self.button(t("tg_btn_size", self.lang, n=n), "z", mode, base, n, 0) for n in sizes
        ]
        return [*_chunk(buttons, 4), back]

    def size(self, mode: str, base: int, size: int, page: int) -> Rows:
        found = self.variants(mode, base, size)
        if not found:
            return self.root(mode)
        start = page * PAGE
        rows = _chunk([self.play_button(mode, p) for p in found[start : start + PAGE]], 3)
        nav = []
        if start + PAGE < len(found):
            nav.append(self.button(t("tg_btn_more", self.lang), "z", mode, base, size, page + 1))
        sizes = self.sizes(mode, base)
        back = ("b", mode, base) if len(sizes) > 1 else ("r", mode)
        nav.append(self.button(t("tg_btn_back", self.lang), *back))
        return [*rows, nav]

    def confirm(self, mode: str, p: Play) -> Rows:
        """A "v" press, from a keyboard made before every play was one tap from its rank
        (a message from an older version of the bot): offer that play to send."""
        if not self.priv.menu.allows(Action(_kind(mode), p.counts())):
            return self.root(mode)
        label = "tg_btn_play" if mode == "p" else "tg_btn_burn"
        return [
            [self.play_button(mode, p, label)],
            [self.button(t("tg_btn_back", self.lang), "r", mode)],
        ]

    def returns(self, giver: int, picked: str) -> Rows:
        owed = {r.giver: r.count for r in self.priv.menu.returns}
        count = owed.get(giver)
        if count is None:
            return self.root()
        have = list(self.priv.view.hand)
        chosen = counts_of(picked)
        if any(c > h for c, h in zip(chosen, have, strict=True)) or len(picked) > count:
            picked, chosen = "", counts_of("")
        shown = cards_text(chosen, self.lang) or "—"
        head = t("tg_btn_selected", self.lang, cards=shown, k=len(picked), count=count)
        rows: Rows = [[self.button(head, "R", giver, picked)]]
        if len(picked) < count:
            picks = [
                self.button(cards_text(counts_of(ch), self.lang), "R", giver, picked + ch)
                for i, ch in enumerate(NOTATION)  # low cards first: the usual return
                if have[i] > chosen[i]
            ]
            rows += _chunk(picks, 5)
        else:
            done = t("tg_btn_return", self.lang, cards=shown, seat=giver)
            rows.append([self.button(done, "Q", giver, picked)])
        if picked:
            rows.append([self.button(t("tg_btn_reset", self.lang), "R", giver, "")])
        return rows + self.footer()


def action_keyboard(
    priv: PrivateSnapshot,
    tid: str,
    lang: Lang,
    snap: TableSnapshot,
    screen: ActPress | None = None,
    web_url: str | None = None,
) -> InlineKeyboardMarkup:
    """The keyboard for ``screen`` (a navigation press), or the root one; ``web_url``: the
    web table's page (adapters/web), opened as a Mini App from the last row."""
    keys = _Keys(priv, tid, lang, snap)
    rows = _screen(keys, screen) if screen is not None else keys.root()
    if web_url is not None:
        rows.append([InlineKeyboardButton(t("tg_btn_web", lang), web_app=WebAppInfo(web_url))])
    return InlineKeyboardMarkup(rows)


def _screen(keys: _Keys, press: ActPress) -> Rows:
    op, args = press.op, press.args
    if op == "r":
        return keys.root(args[0])
    if op == "b":
        return keys.base(args[0], int(args[1]))
    if op == "z":
        base, size, page = (int(a) for a in args[1:])
        return keys.size(args[0], base, size, page)
    if op == "v":
        return keys.confirm(args[0], Play(*(int(a) for a in args[1:])))
    if op == "R":
        return keys.returns(int(args[0]), args[1])
    return keys.root()


def action_of(press: ActPress) -> Action | None:
    """The game action a press asks for (None for navigation and adapter-only presses)."""
    op, args = press.op, press.args
    if op == "g":
        play = Play(*(int(a) for a in args[1:]))
        kind = ActionKind.PLAY if args[0] == "p" else ActionKind.BURN
        return Action(kind, play.counts())
    if op == "Q":
        return Action(ActionKind.RETURN_TRIBUTE, counts_of(args[1]), int(args[0]))
    simple = {"x": ActionKind.PASS, "y": ActionKind.RANG, "V": ActionKind.REVOLT}
    if op in simple:
        return Action(simple[op])
    if op == "W":
        return Action(ActionKind.WAIVE)
    if op == "D":
        return Action(ActionKind.DECLARE_POINT, pre=args[0] == "1")
    if op == "U":
        ranks = next((r for r in HuiRanks if r.value == args[0]), None)
        return Action.hui(ranks) if ranks is not None else None
    if op == "C":
        return Action.chongdian()
    return None
