"""The lecture's advice (《够级讲堂》) as a small catalogue of recognisable mistakes.

A review (``bot.ai.review``) finds a decision where the expert's playouts prefer another
move; this module says *why*, in the lecture's words, when the pair (what was done, what
would have been better) fits one of a few patterns. Each pattern reads only what the
seat knew at the time: its own hand and the public table (``SeatView``). Texts are
gettext keys (``lesson_<code>``, zh and en, bot/i18n/locale).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from ..engine.actions import Action, ActionKind
from ..engine.cards import EMPTY, I_BIG, I_SMALL, I_THREE, I_TWO
from ..engine.plays import GOUJI_MIN, Play, is_gouji
from ..engine.state import opp, same_team
from ..engine.views import SeatView
from .hand import play_of
from .tracking import est_count

NEAR_OUT = 5  # an opponent with this many cards or fewer is about to go out
EARLY = 12  # a hand with more cards than this is still in its first half (打后半场)
HIGH = 14  # an ace and up are "big cards" (原则上9以上的牌不能动: we flag only A, 2, jokers)


class Lesson(StrEnum):
    """One piece of the lecture's advice; the value is the text key's tail."""

    ANSWER_OPPOSITE_GOUJI = "answer_opposite_gouji"  # 尽最大努力控制对门的够级牌
    KEEP_GOUJI_SET = "keep_gouji_set"  # 够级牌留着够级，别拆开管小牌
    KEEP_BIG_JOKER = "keep_big_joker"  # 对门够级时留着大王
    LONE_THREE = "lone_three"  # 落单的3留到最后会被闷
    LEAD_THREES = "lead_threes"  # 有3不发单
    TEAMMATE = "teammate"  # 以联邦为主：不截联邦的牌
    STOP_RUNNER = "stop_runner"  # 对手快走科了：该管就管
    BIG_CARDS_LATE = "big_cards_late"  # 打后半场：大牌留到后半场
    LEAD_SMALL = "lead_small"  # 出小牌

    @property
    def key(self) -> str:
        return f"lesson_{self.value}"


def _play(a: Action | None) -> Play | None:
    if a is None or a.kind not in (ActionKind.PLAY, ActionKind.BURN) or a.cards is None:
        return None
    return play_of(a.cards)


def _cards(a: Action | None) -> tuple[int, ...]:
    return a.cards if a is not None and a.cards is not None else EMPTY


def _declines(a: Action | None) -> bool:
    return a is None or a.kind in (ActionKind.PASS, ActionKind.RANG)


def _answering(view: SeatView) -> bool:
    pub = view.public
    return pub.top_seat is not None and not pub.leading and pub.to_act == view.seat


Check = Callable[[SeatView, Action | None, Action | None], bool]


def _answer_opposite_gouji(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    pub = view.public
    return (
        _answering(view)
        and pub.top_gouji
        and pub.top_seat == opp(view.seat)
        and _declines(chosen)
        and _play(better) is not None
    )


def _keep_gouji_set(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    """Broke (or spent) a 够级-sized set of the hand on an ordinary play."""
    p = _play(chosen)
    if p is None or not _answering(view) or view.public.top_gouji or not p.base:
        return False
    held = view.hand[p.base - 3] if 3 <= p.base <= 14 else 0
    need = GOUJI_MIN.get(p.base)
    if need is None or held < need or p.n >= held:
        return False  # not a 够级 set in the hand, or played whole
    b = _play(better)
    return b is None or b.base != p.base


def _keep_big_joker(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    """Fired a big joker at an ordinary play (or led it) where the better move keeps it."""
    if _cards(chosen)[I_BIG] <= _cards(better)[I_BIG]:
        return False
    return not view.public.top_gouji


def _lone_three(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    """Under 憋三 the 3s go last: spending a joker or 2 that should carry them out."""
    rules = view.public.rules
    if not rules.bie_san or not view.hand[I_THREE]:
        return False
    spent = sum(_cards(chosen)[i] for i in (I_TWO, I_SMALL, I_BIG))
    kept = sum(_cards(better)[i] for i in (I_TWO, I_SMALL, I_BIG))
    return spent > kept


def _lead_threes(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    if view.public.rules.bie_san or not view.public.leading:
        return False
    b, c = _play(better), _play(chosen)
    return b is not None and b.base == 3 and (c is None or c.base != 3)


def _teammate(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    top = view.public.top_seat
    return (
        _answering(view)
        and top is not None
        and top != view.seat
        and same_team(top, view.seat)
        and _play(chosen) is not None
        and _declines(better)
    )


def _stop_runner(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    top = view.public.top_seat
    if not _answering(view) or top is None or same_team(top, view.seat):
        return False
    return _declines(chosen) and _play(better) is not None and est_count(view, top) <= NEAR_OUT


def _big_cards_late(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    p = _play(chosen)
    if p is None or not _answering(view) or view.public.top_gouji:
        return False
    if sum(view.hand) <= EARLY:
        return False
    big = p.base >= HIGH or p.base == 0 or p.twos or p.jokers
    return bool(big) and _declines(better)


def _lead_small(view: SeatView, chosen: Action | None, better: Action | None) -> bool:
    c, b = _play(chosen), _play(better)
    if not view.public.leading or c is None or b is None:
        return False
    rules = view.public.rules
    return b.base != 0 and (c.base == 0 or c.base > b.base) and not is_gouji(b, rules)


# Most specific first: the first pattern that fits names the lesson.
CHECKS: tuple[tuple[Lesson, Check], ...] = (
    (Lesson.ANSWER_OPPOSITE_GOUJI, _answer_opposite_gouji),
    (Lesson.STOP_RUNNER, _stop_runner),
    (Lesson.KEEP_GOUJI_SET, _keep_gouji_set),
    (Lesson.TEAMMATE, _teammate),
    (Lesson.LONE_THREE, _lone_three),
    (Lesson.KEEP_BIG_JOKER, _keep_big_joker),
    (Lesson.BIG_CARDS_LATE, _big_cards_late),
    (Lesson.LEAD_THREES, _lead_threes),
    (Lesson.LEAD_SMALL, _lead_small),
)


def lesson_for(view: SeatView, chosen: Action | None, better: Action | None) -> Lesson | None:
    """The lecture's advice that explains preferring ``better`` to ``chosen``, if any."""
    for lesson, check in CHECKS:
        if check(view, chosen, better):
            return lesson
    return None
