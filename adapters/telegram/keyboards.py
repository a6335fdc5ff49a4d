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

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import NOTATION, Counts
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.present.controls import Control, Controls, Nav, Op, asks_of, controls_of
from bot.present.playmenu import Suggest
from bot.table import PrivateSnapshot, TableSnapshot, TableStatus

from .callback import GroupPress, encode
from .presses import counts_of, press_of
from .views import cards_text, rank_label

Rows = list[list[InlineKeyboardButton]]


PAGE = 12  # plays per screen: 4 rows of 3 fit a phone
RANKS_PER_ROW = 6
SUGGEST_LABELS = {
    Suggest.CHEAPEST: "suggest_cheapest",
    Suggest.LEAD_SET: "suggest_lead_set",
    Suggest.FINISH: "suggest_finish",
}


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
        asks = [
            _g(t("tg_btn_count", lang, seat=c.target), tid, "c", c.target) for c in asks_of(snap)
        ]
        rows += _chunk(asks, 3)
        return InlineKeyboardMarkup(rows)
    return None


def link_keyboard(text: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, url=url)]])


# -- private -----------------------------------------------------------------------------
SIMPLE_LABELS = {
    Op.PASS: "tg_btn_pass",
    Op.RANG: "tg_btn_rang",
    Op.REVOLT: "tg_btn_revolt",
    Op.WAIVE: "tg_btn_waive",
    Op.CHONGDIAN: "tg_btn_chongdian",
    Op.DECLINE: "tg_btn_no_burn",
    Op.READY: "tg_btn_ready",
    Op.REFRESH: "tg_btn_refresh",
    Op.HINT: "tg_btn_hint",
}
MOVES = frozenset({Op.PASS, Op.RANG})  # on the row with the switch between trees


class _Keys:
    """Lays out one seat's ``Controls`` (bot/present/controls.py) as keyboard screens."""

    def __init__(self, controls: Controls, priv: PrivateSnapshot, tid: str, lang: Lang) -> None:
        self.controls = controls
        self.priv = priv
        self.tid = tid
        self.lang = lang

    def button(self, text: str, control: Control) -> InlineKeyboardButton:
        press = press_of(self.tid, self.controls.version, control)
        return InlineKeyboardButton(text, callback_data=encode(press))

    def label(self, c: Control) -> str:
        a = c.action
        if c.op is Op.AUTOPLAY:
            return t("tg_btn_auto_on" if c.on else "tg_btn_auto_off", self.lang)
        if c.op is Op.POINT and a is not None:
            return t("tg_btn_prepoint" if a.pre else "tg_btn_point", self.lang)
        if c.op is Op.HUI and a is not None and a.ranks is not None:
            return t("tg_btn_hui", self.lang, ranks=a.ranks.value)
        if a is not None and a.cards is not None and c.op in (Op.PLAY, Op.BURN):
            key = SUGGEST_LABELS[c.reason] if c.reason is not None else None
            key = key or ("tg_btn_play" if c.op is Op.PLAY else "tg_btn_burn")
            return t(key, self.lang, cards=cards_text(a.cards, self.lang))
        return t(SIMPLE_LABELS[c.op], self.lang)

    def keys(self, controls: Sequence[Control]) -> list[InlineKeyboardButton]:
        return [self.button(self.label(c), c) for c in controls]

    def default_kind(self) -> ActionKind:
        return self.controls.modes[0] if self.controls.modes else ActionKind.PLAY

    def footer(self) -> Rows:
        return [self.keys(self.controls.own)] if self.controls.own else []

    # screens
    def root(self, kind: ActionKind | None = None) -> Rows:
        c = self.controls
        if c.returns:
            return self.returns(c.returns[0].giver, None)
        kind = kind or self.default_kind()
        mine = [s for s in c.suggestions if s.action is not None and s.action.kind is kind]
        rows = [self.keys(mine)] if mine else []
        moves = self.moves(kind)
        if moves:
            rows.append(moves)
        ranks = [
            self.button(
                f"{rank_label(r.base, self.lang)}×{r.held}", Control.to(Op.RANK, Nav(kind, r.base))
            )
            for r in c.tree(kind)
        ]
        rows += _chunk(ranks, RANKS_PER_ROW)
        later = [s for s in c.simple if s.op not in MOVES]
        later += [x for x in (c.ready,) if x is not None]
        rows += _chunk(self.keys(later), 3)
        return rows + self.footer()

    def moves(self, kind: ActionKind) -> list[InlineKeyboardButton]:
        """过, 让, the switch between playing and burning, and not burning."""
        c = self.controls
        moves = self.keys([s for s in c.simple if s.op in MOVES])
        for other in c.modes:
            if other is not kind:
                key = "tg_btn_burn_mode" if other is ActionKind.BURN else "tg_btn_play_mode"
                moves.append(self.button(t(key, self.lang), Control.to(Op.MODE, Nav(other))))
        if c.decline is not None:
            moves += self.keys([c.decline])
        return moves

    def back(self, kind: ActionKind) -> InlineKeyboardButton:
        return self.button(t("tg_btn_back", self.lang), Control.to(Op.MODE, Nav(kind)))

    def base(self, kind: ActionKind, base: int) -> Rows:
        rank = self.controls.rank(kind, base)
        if rank is None:
            return self.root(kind)
        sizes = [s.size for s in rank.sizes]
        every = [p for n in sizes for p in self.controls.variants(kind, base, n)]
        if len(every) <= PAGE:
            # Every play of this rank fits: each is one tap away, a row per size (999,
            # 999 +2, 999 +22 read side by side) unless each size has one play.
            if all(len(s.variants) == 1 for s in rank.sizes):
                return [*_chunk(self.keys(every), 3), [self.back(kind)]]
            rows: Rows = []
            for n in sizes:
                rows += _chunk(self.keys(self.controls.variants(kind, base, n)), 3)
            return [*rows, [self.back(kind)]]
        buttons = [
            self.button(t("tg_btn_size", self.lang, n=n), Control.to(Op.SIZE, Nav(kind, base, n)))
            for n in sizes
        ]
        return [*_chunk(buttons, 4), [self.back(kind)]]

    def size(self, nav: Nav) -> Rows:
        kind, base, size = nav.kind or self.default_kind(), nav.base, nav.size
        found = self.controls.variants(kind, base, size)
        if not found:
            return self.root(kind)
        if nav.cards is not None:
            return self.confirm(nav)
        start = nav.page * PAGE
        rows = _chunk(self.keys(found[start : start + PAGE]), 3)
        bar = []
        if start + PAGE < len(found):
            more = Control.to(Op.SIZE, Nav(kind, base, size, nav.page + 1))
            bar.append(self.button(t("tg_btn_more", self.lang), more))
        rank = self.controls.rank(kind, base)
        if rank is not None and len(rank.sizes) > 1:
            bar.append(
                self.button(t("tg_btn_back", self.lang), Control.to(Op.RANK, Nav(kind, base)))
            )
        else:
            bar.append(self.back(kind))
        return [*rows, bar]

    def confirm(self, nav: Nav) -> Rows:
        """A "v" press, from a keyboard made before every play was one tap from its rank
        (a message from an older version of the bot): offer that play to send."""
        kind = nav.kind or self.default_kind()
        assert nav.cards is not None
        play = Control.act(Action(kind, nav.cards))
        if not self.controls.offers(play):
            return self.root(kind)
        return [self.keys([play]), [self.back(kind)]]

    def returns(self, giver: int, picked: Counts | None) -> Rows:
        """还贡 card by card: each pick leads towards a return the controls offer."""
        owed = next((r for r in self.controls.returns if r.giver == giver), None)
        if owed is None:
            return self.root()
        chosen = picked or counts_of("")
        if not any(_within(chosen, o) for o in owed.options):
            chosen = counts_of("")
        shown = cards_text(chosen, self.lang) or "—"
        head = t("tg_btn_selected", self.lang, cards=shown, k=sum(chosen), count=owed.count)

        def pick(cards: Counts) -> Control:
            return Control.to(Op.PICK, Nav(ActionKind.RETURN_TRIBUTE, giver=giver, cards=cards))

        rows: Rows = [[self.button(head, pick(chosen))]]
        if chosen not in owed.options:
            picks = [
                self.button(cards_text(counts_of(ch), self.lang), pick(_plus(chosen, i)))
                for i, ch in enumerate(NOTATION)  # low cards first: the usual return
                if any(_within(_plus(chosen, i), o) for o in owed.options)
            ]
            rows += _chunk(picks, 5)
        else:
            done = t("tg_btn_return", self.lang, cards=shown, seat=giver)
            give = Control.act(Action(ActionKind.RETURN_TRIBUTE, chosen, giver))
            rows.append([self.button(done, give)])
        if sum(chosen):
            rows.append([self.button(t("tg_btn_reset", self.lang), pick(counts_of("")))])
        return rows + self.footer()


def _within(part: Counts, whole: Counts) -> bool:
    return all(p <= w for p, w in zip(part, whole, strict=True))


def _plus(cards: Counts, i: int) -> Counts:
    return tuple(n + (j == i) for j, n in enumerate(cards))


def action_keyboard(
    priv: PrivateSnapshot,
    tid: str,
    lang: Lang,
    snap: TableSnapshot,
    screen: Control | None = None,
    web_url: str | None = None,
    controls: Controls | None = None,
) -> InlineKeyboardMarkup:
    """The keyboard for ``screen`` (a navigation control), or the root one; ``web_url``: the
    web table's page (adapters/web), opened as a Mini App from the last row."""
    keys = _Keys(controls or controls_of(priv, snap), priv, tid, lang)
    rows = _screen(keys, screen) if screen is not None else keys.root()
    if web_url is not None:
        rows.append([InlineKeyboardButton(t("tg_btn_web", lang), web_app=WebAppInfo(web_url))])
    return InlineKeyboardMarkup(rows)


def _screen(keys: _Keys, screen: Control) -> Rows:
    nav = screen.nav or Nav()
    if screen.op is Op.RANK:
        return keys.base(nav.kind or keys.default_kind(), nav.base)
    if screen.op is Op.SIZE:
        return keys.size(nav)
    if screen.op is Op.PICK:
        return keys.returns(nav.giver, nav.cards)
    if screen.op is Op.MODE:
        return keys.root(nav.kind)
    return keys.root()
