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
from bot.engine.actions import Action, ActionKind, HuiRanks
from bot.engine.cards import Counts, parse
from bot.engine.errors import IllegalAction
from bot.engine.plays import JOKERS_BASE
from bot.engine.state import Phase, SeatStatus
from bot.engine.views import PublicView
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.present.playmenu import PlayMenu, RankChoice, SizeChoice, Suggest
from bot.table import PrivateSnapshot, TableSnapshot, TableStatus

from .custom_ids import Ref, decode_counts, encode_counts, seat_cid, table_cid
from .items import button, option, select
from .menus import MORE, cards_text, page_of, play_text, rank_name

ASKABLE_COUNTS = frozenset({"ask_le10", "ask_lt10"})
TURN_KINDS = frozenset({ActionKind.PLAY, ActionKind.PASS, ActionKind.RANG, ActionKind.BURN})
SIMPLE_OPS = {
    ActionKind.PASS: "pass",
    ActionKind.RANG: "rang",
    ActionKind.REVOLT: "rev",
    ActionKind.WAIVE: "waive",
    ActionKind.CHONGDIAN: "chong",
}
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
        rules = snap.rules
        if rules is not None and rules.count_rule in ASKABLE_COUNTS:
            options = [
                option(t("dc_count_option", lang, seat=s, name=snap.name_of(s)), str(s))
                for s in range(1, 7)
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


def _simple_op(action: Action) -> str:
    """The custom-id op of a button for an action without cards."""
    if action.kind is ActionKind.HUI and action.ranks is not None:
        return f"hui{action.ranks.value}"
    return SIMPLE_OPS.get(action.kind) or ("pp" if action.pre else "pt")


def action_from(op: str) -> Action | None:
    """The game action a private button stands for; None if it is not one (or malformed)."""
    simple = {
        "pass": Action(ActionKind.PASS),
        "rang": Action(ActionKind.RANG),
        "rev": Action(ActionKind.REVOLT),
        "pt": Action(ActionKind.DECLARE_POINT),
        "pp": Action(ActionKind.DECLARE_POINT, pre=True),
        "waive": Action(ActionKind.WAIVE),
        "chong": Action.chongdian(),
        **{f"hui{r.value}": Action.hui(r) for r in HuiRanks},
    }
    if op in simple:
        return simple[op]
    if op.startswith("c"):
        op = op[1:]
    head, body = op[:1], op[1:]
    if head in ("P", "B"):
        cards = decode_counts(body)
        if cards is None:
            return None
        return Action(ActionKind.PLAY if head == "P" else ActionKind.BURN, cards)
    if head == "R":
        giver_text, dot, code = body.partition(".")
        giver, cards = _int(giver_text), decode_counts(code)
        if not dot or giver is None or not 1 <= giver <= 6 or cards is None:
            return None
        return Action(ActionKind.RETURN_TRIBUTE, cards, giver)
    return None


def _resolve(
    pick: Pick, menu: PlayMenu
) -> tuple[RankChoice | None, SizeChoice | None, Counts | None]:
    """Fill in the steps that have one answer only, so a single option never needs a click."""
    rank = menu.rank(pick.rank) if pick.rank is not None else None
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
    cards = _resolve(pick, priv.menu)[2]
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
    """Lays out one seat's ``PlayMenu``: menus for rank, size and variant, then buttons."""

    def __init__(self, priv: PrivateSnapshot, ref: Ref, pick: Pick) -> None:
        self.priv, self.ref, self.pick = priv, ref, pick
        self.lang = priv.lang
        self.rows = _Rows()

    def cid(self, op: str, is_menu: bool = False) -> str:
        return seat_cid(self.ref, self.priv.seat, self.priv.version, op, menu=is_menu)

    def more(self, page: int) -> discord.SelectOption:
        return option(t("dc_more", self.lang), f"{MORE}{page + 1}")

    def button(self, op: str, label: str, style: discord.ButtonStyle) -> None:
        self.rows.buttons.append((self.cid(op), label, style))

    def plays(self) -> None:
        menu, lang = self.priv.menu, self.lang
        rank, size, cards = _resolve(self.pick, menu)
        if menu.has_plays:
            options = [
                option(f"{_rank_label(r.base, lang)} ×{r.held}", str(r.base), default=r is rank)
                for r in menu.ranks
            ]
            self.rows.menu(self.cid("r", True), t("dc_pick_rank", lang), options)
        if rank is not None and len(rank.sizes) > 1:
            self.sizes(rank, size)
        if rank is not None and size is not None and len(size.variants) > 1:
            self.variants(rank, size, cards)
        variant = menu.variant(cards) if cards is not None else None
        if variant is not None:
            code, text = encode_counts(variant.cards), play_text(variant.cards, lang)
            for kind in variant.kinds:
                if kind is ActionKind.PLAY:
                    label, style = t("dc_btn_play", lang, cards=text), discord.ButtonStyle.success
                    self.button(f"P{code}", label, style)
                else:
                    label, style = t("dc_btn_burn", lang, cards=text), discord.ButtonStyle.danger
                    self.button(f"B{code}", label, style)

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
        for s in self.priv.menu.suggestions:
            cards = s.action.cards
            assert cards is not None
            letter = "P" if s.action.kind is ActionKind.PLAY else "B"
            label = t(SUGGEST_LABELS[s.reason], self.lang, cards=play_text(cards, self.lang))
            cid = self.cid(f"c{letter}{encode_counts(cards)}")
            self.rows.top.append((cid, label, discord.ButtonStyle.primary))

    def returns(self) -> None:
        pick = self.pick
        for owed in self.priv.menu.returns[:3]:
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
                op = f"R{giver}.{encode_counts(chosen)}"
                self.button(op, label, discord.ButtonStyle.success)

    def simple(self, declare_open: bool) -> None:
        for action in self.priv.menu.simple:
            op = _simple_op(action)
            style = discord.ButtonStyle.danger if op == "rev" else discord.ButtonStyle.secondary
            self.button(op, t(SIMPLE_LABELS[op], self.lang), style)
        if declare_open and not any(a.kind is ActionKind.PLAY for a in self.priv.legal):
            self.button("ready", t("dc_btn_ready", self.lang), discord.ButtonStyle.success)

    def own(self) -> None:
        """托管 and refresh, while the hand goes on."""
        auto_op, auto_key = (
            ("auto0", "dc_btn_auto_off") if self.priv.autoplay else ("auto1", "dc_btn_auto_on")
        )
        self.button(auto_op, t(auto_key, self.lang), discord.ButtonStyle.secondary)
        self.button("refresh", t("dc_btn_refresh", self.lang), discord.ButtonStyle.secondary)
        if self.priv.hints and not self.priv.autoplay and self.priv.legal:
            self.button("hint", t("dc_btn_hint", self.lang), discord.ButtonStyle.secondary)


def add_link(view: discord.ui.View, label: str, url: str | None) -> discord.ui.View:
    """A link button (the web table, adapters/web) where the view still has room: a full
    view keeps its game controls and goes without the link this time."""
    if url is not None:
        with contextlib.suppress(ValueError):
            view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
    return view


def private_view(
    priv: PrivateSnapshot, ref: Ref, pick: Pick, declare_open: bool
) -> discord.ui.View:
    layout = _Private(priv, ref, pick)
    layout.plays()
    layout.suggestions()
    layout.returns()
    layout.simple(declare_open)
    if priv.view.public.result is None:  # once the hand is over, nothing is left to press
        layout.own()
    return layout.rows.finish()


def _rank_label(base: int, lang: Lang) -> str:
    if base == JOKERS_BASE:
        return t("dc_rank_jokers_only", lang)
    return rank_name(base, lang)
