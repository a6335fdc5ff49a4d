"""What the table message and a seat's private message say and which controls they carry.

Private controls come only from ``PrivateSnapshot.legal``. A half-made choice (rank
picked, size not yet) lives in the menus' own ``custom_id``s, so nothing is remembered
between presses and a restart loses nothing.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.ai import Role
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Counts, parse
from bot.engine.errors import IllegalAction
from bot.engine.plays import JOKERS_BASE
from bot.engine.state import Phase, SeatStatus
from bot.engine.views import PublicView
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.present.controls import Control, Controls, Nav, Op, asks_of
from bot.present.playmenu import RankChoice, SizeChoice, Suggest
from bot.table import PrivateSnapshot, TableSnapshot, TableStatus

from .buttons import op_of
from .custom_ids import Ref, decode_counts, encode_counts, seat_cid, table_cid
from .items import button, option, select
from .menus import MORE, cards_text, page_of, play_text, rank_name

TURN_KINDS = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN})
SIMPLE_LABELS = {
    "pass": "dc_btn_pass",
    "rang": "dc_btn_rang",
    "rev": "dc_btn_revolt",
    "pt": "dc_btn_point",
    "pp": "dc_btn_prepoint",
    "waive": "dc_btn_waive",
    "chong": "dc_btn_chongdian",
    "hui3": "dc_btn_hui3",
    "hui4": "dc_btn_hui4",
    "hui34": "dc_btn_hui34",
    "decline": "dc_btn_no_burn",
    "ready": "dc_btn_ready",
    "auto1": "dc_btn_auto_on",
    "auto0": "dc_btn_auto_off",
    "refresh": "dc_btn_refresh",
    "hint": "dc_btn_hint",
}
STYLES = {
    "rev": discord.ButtonStyle.danger,
    "ready": discord.ButtonStyle.success,
}
SUGGEST_LABELS = {
    Suggest.CHEAPEST: "suggest_cheapest",
    Suggest.LEAD_SET: "suggest_lead_set",
    Suggest.FINISH: "suggest_finish",
}
MAX_ROWS = 5
MAX_PER_ROW = 5


# -- table message -----------------------------------------------------------------------
def table_content(
    snap: TableSnapshot, captions: Sequence[str], deadline: float | None = None
) -> str:
    """The short text above the table image. ``deadline`` is a Unix time, shown live."""
    lang = snap.settings.lang
    lines = [t("dc_title", lang, preset=preset_name(snap.settings.preset, lang))]
    if snap.status is TableStatus.LOBBY:
        for seat, line in enumerate(snap.seats, start=1):
            if line is None:
                name = t("dc_seat_empty", lang)
            else:
                name = _escape(line.name) + (" " + t("dc_seat_ai", lang) if line.is_ai else "")
            lines.append(t("dc_seat_line", lang, seat=seat, name=name))
        lines.append(t("dc_lobby", lang))
        lines.append(t("dc_dm_hint", lang))
        return "\n".join(lines)
    a, b = snap.totals
    lines.append(t("dc_hand_line", lang, hand_no=snap.hand_no, a=a, b=b))
    pub = snap.public
    if snap.status is TableStatus.PLAYING and pub is not None:
        lines += _playing_line(snap, pub, deadline)
    elif snap.status is TableStatus.BETWEEN:
        lines.append(t("dc_between", lang))
    elif snap.status is TableStatus.FINISHED:
        lines.append(t("dc_finished", lang))
    lines.extend(captions)
    return "\n".join(lines)[:2000]


def _playing_line(snap: TableSnapshot, pub: PublicView, deadline: float | None) -> list[str]:
    """What the table is waiting for: a window, an AI seat thinking, a seat's turn."""
    lang = snap.settings.lang
    if snap.declare_open:
        return [t("dc_declare", lang)]
    if snap.window_open:
        return [t("dc_window", lang)]
    if snap.thinking is not None:
        name = _escape(snap.name_of(snap.thinking))
        return [t("ai_thinking", lang, seat=snap.thinking, name=name)]
    if pub.to_act is not None:
        turn = t("dc_turn", lang, seat=pub.to_act, name=_escape(snap.name_of(pub.to_act)))
        if deadline is not None:
            turn += " " + t("dc_deadline", lang, when=f"<t:{int(deadline)}:R>")
        return [turn]
    if pub.phase is Phase.RETURN_TRIBUTE:
        return [t("dc_return_phase", lang)]
    return []


def table_view(snap: TableSnapshot, ref: Ref) -> discord.ui.View:
    lang = snap.settings.lang
    view = discord.ui.View(timeout=None)

    def add(op: str, key: str, style: discord.ButtonStyle) -> None:
        view.add_item(button(table_cid(ref, snap.version, op), t(key, lang), style, row=0))

    primary, grey, green = (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.success,
    )
    if snap.status is TableStatus.LOBBY:
        add("join", "dc_btn_join", primary)
        add("leave", "dc_btn_leave", grey)
        add("bot", "dc_btn_addbot", grey)
        add("start", "dc_btn_start", green)
    elif snap.status is TableStatus.PLAYING:
        add("hand", "dc_btn_hand", primary)
        asks = asks_of(snap)
        if asks:
            options = [
                option(
                    t("dc_count_option", lang, seat=c.target, name=snap.name_of(c.target)),
                    str(c.target),
                )
                for c in asks
            ]
            cid = table_cid(ref, snap.version, "count", menu=True)
            view.add_item(select(cid, t("dc_count_placeholder", lang), options, row=1))
    elif snap.status is TableStatus.BETWEEN:
        add("hand", "dc_btn_hand", primary)
        add("next", "dc_btn_next", green)
    else:
        add("new", "dc_btn_new", green)
    return view


def _escape(name: str) -> str:
    """Player names are free text: keep them from turning into markdown."""
    return discord.utils.escape_markdown(name)


def unix_deadline(monotonic_deadline: float | None, now: float) -> float | None:
    """The manager's clock is monotonic; Discord's live timestamps want Unix time."""
    if monotonic_deadline is None:
        return None
    return time.time() + max(0.0, monotonic_deadline - now)


# -- a seat's private message --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    """A choice in progress in the private menus."""

    rank: int | None = None
    size: int | None = None
    cards: Counts | None = None
    size_page: int = 0
    var_page: int = 0
    ret_giver: int | None = None
    ret_cards: Counts | None = None
    ret_page: int = 0


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 4 else None


def _paged(value: str) -> int | None:
    """The page a "more…" option asks for, or None for an ordinary value."""
    if value.startswith(MORE):
        return _int(value[1:])
    return None


def pick_from(op: str, value: str) -> Pick | None:
    """The choice after picking ``value`` in the private menu ``op``; None if malformed."""
    kind, rest = op[:1], op[1:]
    fields = rest.split(".") if rest else []
    nums = [_int(f) for f in fields]
    if any(n is None for n in nums):
        return None
    args = [n for n in nums if n is not None]
    more = _paged(value)
    if kind == "r" and not args:
        base = _int(value)
        return None if base is None else Pick(rank=base)
    if kind == "n" and len(args) == 2:
        base, _page = args
        if more is not None:
            return Pick(rank=base, size_page=more)
        size = _int(value)
        return None if size is None else Pick(rank=base, size=size, size_page=_page)
    if kind == "v" and len(args) == 3:
        base, size, _page = args
        if more is not None:
            return Pick(rank=base, size=size, var_page=more)
        cards = decode_counts(value)
        if cards is None:
            return None
        return Pick(rank=base, size=size, cards=cards, var_page=_page)
    if kind == "t" and len(args) == 2:
        giver, _page = args
        if more is not None:
            return Pick(ret_giver=giver, ret_page=more)
        cards = decode_counts(value)
        return None if cards is None else Pick(ret_giver=giver, ret_cards=cards, ret_page=_page)
    return None


def nav_of(pick: Pick) -> Control:
    """The navigation control a menu pick stands for (checked like any press)."""
    if pick.ret_giver is not None:
        nav = Nav(ActionKind.RETURN_TRIBUTE, giver=pick.ret_giver, cards=pick.ret_cards)
        return Control.to(Op.PICK, nav)
    if pick.size is None:
        return Control.to(Op.RANK, Nav(None, pick.rank or 0))
    return Control.to(
        Op.SIZE, Nav(None, pick.rank or 0, pick.size, pick.var_page, cards=pick.cards)
    )


def _resolve(
    pick: Pick, ranks: Sequence[RankChoice]
) -> tuple[RankChoice | None, SizeChoice | None, Counts | None]:
    """Fill in the steps that have one answer only, so a single option never needs a click."""
    rank = next((r for r in ranks if r.base == pick.rank), None)
    if rank is None:
        return None, None, None
    size = rank.size(pick.size) if pick.size is not None else None
    if size is None and len(rank.sizes) == 1:
        size = rank.sizes[0]
    if size is None:
        return rank, None, None
    cards = pick.cards if any(v.cards == pick.cards for v in size.variants) else None
    if cards is None and len(size.variants) == 1:
        cards = size.variants[0].cards
    return rank, size, cards


def highlight_of(priv: PrivateSnapshot, pick: Pick) -> Counts | None:
    cards = _resolve(pick, priv.menu.ranks)[2]
    owed = {r.giver: r.options for r in priv.menu.returns}
    if cards is None and pick.ret_cards in owed.get(pick.ret_giver or 0, ()):
        cards = pick.ret_cards
    return cards


def private_content(priv: PrivateSnapshot, snap: TableSnapshot | None) -> str:
    lang = priv.lang
    name = _escape(snap.name_of(priv.seat)) if snap is not None else f"#{priv.seat}"
    lines = [t("dc_private_head", lang, name=name, seat=priv.seat, cards=sum(priv.view.hand))]
    me = priv.view.public.seats[priv.seat - 1]
    if priv.autoplay:
        lines.append(t("dc_role_auto", lang))
    elif priv.role is Role.TURN and not any(a.kind in TURN_KINDS for a in priv.legal):
        lines.append(t("dc_role_pre_play", lang))  # the leader, before anyone may play
    elif priv.role is Role.TURN:
        answering = any(a.kind is ActionKind.PASS for a in priv.legal)
        lines.append(t("dc_role_turn" if answering else "dc_role_lead", lang))
    elif priv.role in (Role.BURN, Role.RETURN, Role.PRE_PLAY):
        lines.append(t(f"dc_role_{priv.role}", lang))
    elif me.status is not SeatStatus.PLAYING or priv.view.public.result is not None:
        lines.append(t("dc_role_done", lang))
    else:
        lines.append(t("dc_role_wait", lang))
    pub = priv.view.public
    if pub.top_cards and pub.top_seat is not None and pub.result is None:
        who = snap.name_of(pub.top_seat) if snap is not None else f"#{pub.top_seat}"
        lines.append(t("dc_top", lang, name=who, cards=_notation_text(pub.top_cards, lang)))
    return "\n".join(lines)


def _notation_text(notation: str, lang: Lang) -> str:
    try:
        return play_text(parse(notation), lang)
    except IllegalAction:
        return notation


class _Rows:
    """The suggested one-tap plays on the first row; then menus, a whole row each; then
    the other buttons, five to a row."""

    def __init__(self) -> None:
        self.view = discord.ui.View(timeout=None)
        self.top: list[tuple[str, str, discord.ButtonStyle]] = []
        self.menus: list[tuple[str, str, list[discord.SelectOption]]] = []
        self.buttons: list[tuple[str, str, discord.ButtonStyle]] = []

    def menu(self, cid: str, placeholder: str, options: list[discord.SelectOption]) -> None:
        self.menus.append((cid, placeholder, options))

    def finish(self) -> discord.ui.View:
        row = 0
        if self.top:
            for cid, label, style in self.top[:MAX_PER_ROW]:
                self.view.add_item(button(cid, label, style, row=0))
            row = 1
        for cid, placeholder, options in self.menus[: MAX_ROWS - 1 - row]:
            self.view.add_item(select(cid, placeholder, options, row=row))
            row += 1
        for i, (cid, label, style) in enumerate(self.buttons):
            at = row + i // MAX_PER_ROW
            if at < MAX_ROWS:
                self.view.add_item(button(cid, label, style, row=at))
        return self.view


class _Private:
    """Lays out one seat's ``Controls``: menus for rank, size and variant, then buttons."""

    def __init__(self, priv: PrivateSnapshot, ref: Ref, pick: Pick, controls: Controls) -> None:
        self.priv, self.ref, self.pick, self.controls = priv, ref, pick, controls
        self.lang = priv.lang
        self.rows = _Rows()

    def cid(self, op: str, is_menu: bool = False) -> str:
        return seat_cid(self.ref, self.priv.seat, self.controls.version, op, menu=is_menu)

    def more(self, page: int) -> discord.SelectOption:
        return option(t("dc_more", self.lang), f"{MORE}{page + 1}")

    def button(self, control: Control, label: str | None = None) -> None:
        op = op_of(control)
        label = label or t(SIMPLE_LABELS[op], self.lang)
        style = STYLES.get(op, discord.ButtonStyle.secondary)
        self.rows.buttons.append((self.cid(op), label, style))

    def plays(self) -> None:
        ranks, lang = self.controls.picks, self.lang
        rank, size, cards = _resolve(self.pick, ranks)
        if ranks:
            options = [
                option(f"{_rank_label(r.base, lang)} ×{r.held}", str(r.base), default=r is rank)
                for r in ranks
            ]
            self.rows.menu(self.cid("r", True), t("dc_pick_rank", lang), options)
        if rank is not None and len(rank.sizes) > 1:
            self.sizes(rank, size)
        if rank is not None and size is not None and len(size.variants) > 1:
            self.variants(rank, size, cards)
        variant = next((v for v in size.variants if v.cards == cards), None) if size else None
        if variant is not None:
            text = play_text(variant.cards, lang)
            for kind in variant.kinds:
                play = kind is ActionKind.PLAY
                label = t("dc_btn_play" if play else "dc_btn_burn", lang, cards=text)
                style = discord.ButtonStyle.success if play else discord.ButtonStyle.danger
                op = op_of(Control.act(variant.action(kind)))
                self.rows.buttons.append((self.cid(op), label, style))

    def sizes(self, rank: RankChoice, size: SizeChoice | None) -> None:
        sizes = [s.size for s in rank.sizes]
        shown, has_more, page = page_of(sizes, self.pick.size_page)
        options = [
            option(
                t("dc_size_option", self.lang, n=n),
                str(n),
                default=size is not None and n == size.size,
            )
            for n in shown
        ]
        if has_more:
            options.append(self.more(page))
        self.rows.menu(
            self.cid(f"n{rank.base}.{page}", True), t("dc_pick_size", self.lang), options
        )

    def variants(self, rank: RankChoice, size: SizeChoice, cards: Counts | None) -> None:
        combos = [v.cards for v in size.variants]
        shown, has_more, page = page_of(combos, self.pick.var_page)
        options = [
            option(play_text(c, self.lang), encode_counts(c), default=c == cards) for c in shown
        ]
        if has_more:
            options.append(self.more(page))
        op = f"v{rank.base}.{size.size}.{page}"
        self.rows.menu(self.cid(op, True), t("dc_pick_variant", self.lang), options)

    def suggestions(self) -> None:
        for s in self.controls.suggestions:
            assert s.action is not None and s.action.cards is not None and s.reason is not None
            text = play_text(s.action.cards, self.lang)
            label = t(SUGGEST_LABELS[s.reason], self.lang, cards=text)
            self.rows.top.append((self.cid(op_of(s)), label, discord.ButtonStyle.primary))

    def returns(self) -> None:
        pick = self.pick
        for owed in self.controls.returns[:3]:
            giver = owed.giver
            wanted = pick.ret_page if pick.ret_giver == giver else 0
            shown, has_more, page = page_of(owed.options, wanted)
            chosen = pick.ret_cards if pick.ret_giver == giver else None
            options = [
                option(cards_text(c, self.lang), encode_counts(c), default=c == chosen)
                for c in shown
            ]
            if has_more:
                options.append(self.more(page))
            placeholder = t("dc_pick_return", self.lang, seat=giver, count=owed.count)
            self.rows.menu(self.cid(f"t{giver}.{page}", True), placeholder, options)
            if chosen is not None and chosen in owed.options:
                label = t(
                    "dc_btn_return", self.lang, cards=cards_text(chosen, self.lang), seat=giver
                )
                give = Control.act(Action(ActionKind.RETURN_TRIBUTE, chosen, giver))
                self.rows.buttons.append(
                    (self.cid(op_of(give)), label, discord.ButtonStyle.success)
                )

    def simple(self) -> None:
        """过, 让, 革命, 明点, 烩, 冲点, waive; not burning; ready; then 托管, refresh, 💡."""
        c = self.controls
        for control in (*c.simple, c.decline, c.ready, *c.own):
            if control is not None:
                self.button(control)


def add_link(view: discord.ui.View, label: str, url: str | None) -> discord.ui.View:
    """A link button (the web table, adapters/web) where the view still has room: a full
    view keeps its game controls and goes without the link this time."""
    if url is not None:
        with contextlib.suppress(ValueError):
            view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
    return view


def private_view(
    priv: PrivateSnapshot, ref: Ref, pick: Pick, controls: Controls
) -> discord.ui.View:
    """One seat's controls (``controls_of(priv, table)``), with the menus at ``pick``."""
    layout = _Private(priv, ref, pick, controls)
    layout.plays()
    layout.suggestions()
    layout.returns()
    layout.simple()
    return layout.rows.finish()


def _rank_label(base: int, lang: Lang) -> str:
    if base == JOKERS_BASE:
        return t("dc_rank_jokers_only", lang)
    return rank_name(base, lang)
