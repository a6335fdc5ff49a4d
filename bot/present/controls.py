"""Controls: every button a seat is offered, decided once for every front end.

``controls_of(private, table)`` reads a seat's ``PrivateSnapshot`` (its ``PlayMenu``) and the
``TableSnapshot`` and decides what that seat may press now: the suggested one-tap plays,
the ranks → sizes → variants to pick a play from (in a play tree and a burn tree), 过 / 让
/ 革命 / 明点 / 烩 / 冲点 / waive, 还贡, "not burning", "ready", 托管, refresh, 💡 and 报户.
A front end only encodes a ``Control`` into its own payload (callback data, custom id,
JSON, a typed letter), decodes it back, and lays the controls out; whether a button is
there is never its decision. ``Controls.offers`` is how a press is checked against the
state it was made for (adapters/press.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..engine.actions import Action, ActionKind
from ..engine.cards import Counts
from ..table.commands import Act, AskCount, Command, Ready, SetAutoplay
from ..table.model import Actor, ChatRef, TableStatus
from ..table.outputs import PrivateSnapshot, TableSnapshot
from .asking import count_askable
from .playmenu import PLAY_KINDS, RankChoice, ReturnChoice, Suggest


class Op(StrEnum):
    """What a control does. The first group sends an ``Action`` (``Act``); the next are
    the seat's other commands; the last only move between screens of the same controls."""

    PLAY = "play"
    BURN = "burn"
    PASS = "pass"
    RANG = "rang"
    REVOLT = "revolt"
    POINT = "point"  # 明点 (``pre``: 预点)
    HUI = "hui"
    CHONGDIAN = "chongdian"
    WAIVE = "waive"
    RETURN = "return"  # 还贡
    DECLINE = "decline"  # not burning: let the burn window pass (changes nothing)
    READY = "ready"  # done with revolts and declarations
    AUTOPLAY = "autoplay"  # 托管 on or off
    REFRESH = "refresh"
    HINT = "hint"  # 💡 the expert's choice, for the presser only
    ASK = "ask"  # 报户: how many cards a seat holds
    MODE = "mode"  # show the play (or burn) tree
    RANK = "rank"  # show one rank's sizes or plays
    SIZE = "size"  # show one size's plays (a page of them)
    PICK = "pick"  # a tribute return being put together card by card


ACTION_OPS: Final = {
    ActionKind.PLAY: Op.PLAY,
    ActionKind.BURN: Op.BURN,
    ActionKind.PASS: Op.PASS,
    ActionKind.RANG: Op.RANG,
    ActionKind.REVOLT: Op.REVOLT,
    ActionKind.DECLARE_POINT: Op.POINT,
    ActionKind.HUI: Op.HUI,
    ActionKind.CHONGDIAN: Op.CHONGDIAN,
    ActionKind.WAIVE: Op.WAIVE,
    ActionKind.RETURN_TRIBUTE: Op.RETURN,
}
NAV_OPS: Final = frozenset({Op.MODE, Op.RANK, Op.SIZE, Op.PICK})
# Honoured at any version: they say what the player wants whatever happened since, and
# the manager checks that they still apply (a player with nothing to declare gets no new
# controls when another player's "ready" changes the table, so a version check would
# refuse their own "ready").
ANYTIME_OPS: Final = frozenset({Op.READY, Op.AUTOPLAY, Op.REFRESH, Op.HINT, Op.ASK})
SEATS: Final = range(1, 7)


@dataclass(frozen=True, slots=True)
class Nav:
    """Where a navigation control leads: a tree (``kind`` PLAY or BURN; None: whichever
    holds the rank, for a layout that shows both at once), a rank, a size and its page (and
    a play of it picked: ``cards``); or a tribute return owed to ``giver`` with the
    ``cards`` picked so far."""

    kind: ActionKind | None = ActionKind.PLAY
    base: int = 0
    size: int = 0
    page: int = 0
    giver: int = 0
    cards: Counts | None = None


@dataclass(frozen=True, slots=True)
class Control:
    """One button: an op and the ``Action`` it sends or the screen it leads to."""

    op: Op
    action: Action | None = None
    nav: Nav | None = None
    reason: Suggest | None = None  # a suggested play: why it is suggested
    on: bool = False  # AUTOPLAY: turn 托管 on (True) or off
    target: int = 0  # ASK: the seat asked about

    @staticmethod
    def act(action: Action, reason: Suggest | None = None) -> Control:
        return Control(ACTION_OPS[action.kind], action, reason=reason)

    @staticmethod
    def to(op: Op, nav: Nav) -> Control:
        return Control(op, nav=nav)

    @property
    def is_nav(self) -> bool:
        return self.op in NAV_OPS

    @property
    def anytime(self) -> bool:
        return self.op in ANYTIME_OPS

    def plain(self) -> Control:
        """The same control without the suggestion's reason (what a payload carries)."""
        return Control(self.op, self.action, self.nav, None, self.on, self.target)

    def command(self, chat: ChatRef, actor: Actor, version: int | None) -> Command | None:
        """The table command this control sends (None: it sends none)."""
        if self.action is not None:
            return Act(chat=chat, actor=actor, action=self.action, version=version)
        if self.op is Op.READY:
            return Ready(chat=chat, actor=actor)
        if self.op is Op.AUTOPLAY:
            return SetAutoplay(chat=chat, actor=actor, on=self.on)
        if self.op is Op.ASK:
            return AskCount(chat=chat, actor=actor, target=self.target)
        return None


@dataclass(frozen=True, slots=True)
class Controls:
    """What one seat may press at one version of the table."""

    seat: int
    version: int
    suggestions: tuple[Control, ...] = ()  # one-tap plays, best first
    trees: tuple[tuple[ActionKind, tuple[RankChoice, ...]], ...] = ()  # default tree first
    picks: tuple[RankChoice, ...] = ()  # both trees in one: each play with the kinds it may go as
    simple: tuple[Control, ...] = ()  # 过, 让, 革命, 明点, 烩, 冲点, waive (in that order)
    returns: tuple[ReturnChoice, ...] = ()  # 还贡 owed
    decline: Control | None = None  # not burning
    ready: Control | None = None
    own: tuple[Control, ...] = ()  # 托管 on/off, refresh, 💡
    asks: tuple[Control, ...] = ()  # 报户, one per seat

    @property
    def modes(self) -> tuple[ActionKind, ...]:
        return tuple(kind for kind, _ in self.trees)

    def tree(self, kind: ActionKind | None) -> tuple[RankChoice, ...]:
        if kind is None:
            return self.picks
        return next((ranks for k, ranks in self.trees if k is kind), ())

    def rank(self, kind: ActionKind | None, base: int) -> RankChoice | None:
        return next((r for r in self.tree(kind) if r.base == base), None)

    def ranks(self, kind: ActionKind) -> tuple[Control, ...]:
        """The rank buttons of one tree, low first."""
        return tuple(Control.to(Op.RANK, Nav(kind, r.base)) for r in self.tree(kind))

    def variants(self, kind: ActionKind | None, base: int, size: int) -> tuple[Control, ...]:
        """The plays of one rank and size in one tree, cheapest first."""
        rank = self.rank(kind, base)
        found = rank.size(size) if rank is not None else None
        if found is None:
            return ()
        return tuple(Control.act(v.action(kind)) for v in found.variants)

    def buttons(self) -> tuple[Control, ...]:
        """Every one-tap control but the plays picked from the trees and the returns."""
        single = tuple(c for c in (self.decline, self.ready) if c is not None)
        return (*self.suggestions, *self.simple, *single, *self.own, *self.asks)

    def actions(self) -> frozenset[Action]:
        """Every game action these controls can send."""
        plays = {
            v.action(kind)
            for kind, ranks in self.trees
            for r in ranks
            for s in r.sizes
            for v in s.variants
        }
        returns = {
            Action(ActionKind.RETURN_TRIBUTE, cards, r.giver)
            for r in self.returns
            for cards in r.options
        }
        simple = {c.action for c in (*self.suggestions, *self.simple) if c.action is not None}
        return frozenset(plays | returns | simple)

    def offers(self, control: Control) -> bool:
        """Whether ``control`` is one of these (a stale or forged press is not)."""
        if control.action is not None:
            action = control.action
            return ACTION_OPS.get(action.kind) is control.op and action in self.actions()
        if control.is_nav:
            return self._leads(control.op, control.nav or Nav())
        if control.op is Op.DECLINE:
            return self.decline is not None
        if control.op is Op.READY:
            return self.ready is not None
        return control.plain() in {c.plain() for c in (*self.own, *self.asks)}

    def _leads(self, op: Op, nav: Nav) -> bool:
        if op is Op.PICK:
            return any(r.giver == nav.giver for r in self.returns)
        if op is Op.MODE:
            return nav.kind in self.modes
        rank = self.rank(nav.kind, nav.base)
        return rank is not None and (op is Op.RANK or rank.size(nav.size) is not None)


def asks_of(table: TableSnapshot) -> tuple[Control, ...]:
    """报户 for each seat, where the table's count rule lets a player ask (bot/present/asking)."""
    if table.status is not TableStatus.PLAYING or not count_askable(table.rules):
        return ()
    return tuple(Control(Op.ASK, target=s) for s in SEATS)


def controls_of(private: PrivateSnapshot, table: TableSnapshot) -> Controls:
    """Everything the seat of ``private`` is offered now."""
    over = private.view.public.result is not None  # nothing is left to press
    if private.autoplay or over:
        # 托管: the AI decides at once; what the seat may press is taking its seat back.
        own = () if over else _own(private)
        return Controls(private.seat, private.version, own=own, asks=asks_of(table))
    menu = private.menu
    kinds = menu.kinds()
    order = (ActionKind.BURN, ActionKind.PLAY) if ActionKind.PLAY not in kinds else PLAY_KINDS
    trees = tuple((k, menu.tree(k)) for k in order if k in kinds)
    return Controls(
        seat=private.seat,
        version=private.version,
        suggestions=tuple(Control.act(s.action, s.reason) for s in menu.suggestions),
        trees=trees,
        picks=menu.ranks,
        simple=tuple(Control.act(a) for a in menu.simple),
        returns=menu.returns,
        decline=Control(Op.DECLINE) if _may_decline(private, kinds) else None,
        ready=Control(Op.READY) if _may_ready(private, table) else None,
        own=_own(private),
        asks=asks_of(table),
    )


def _may_decline(private: PrivateSnapshot, kinds: frozenset[ActionKind]) -> bool:
    """Offer "not burning" where a burn is all the seat may do (a seat that may pass passes)."""
    return kinds == {ActionKind.BURN} and all(a.kind is not ActionKind.PASS for a in private.legal)


def _may_ready(private: PrivateSnapshot, table: TableSnapshot) -> bool:
    """Offer "ready" while the declaration pause waits for this seat."""
    return table.declare_open and private.seat not in table.ready


def _own(private: PrivateSnapshot) -> tuple[Control, ...]:
    """托管 and refresh while the hand goes on, 💡 where the group allows hints and there
    is something to decide."""
    own = [Control(Op.AUTOPLAY, on=not private.autoplay), Control(Op.REFRESH)]
    if private.hints and not private.autoplay and private.legal:
        own.append(Control(Op.HINT))
    return tuple(own)
