"""Questions about a hand state that never change it: whose turn, what is refused and why.

Shared by the public queries in ``game`` and the transitions in ``transition``.
"""

from __future__ import annotations

from .actions import HuiRanks
from .cards import I_BIG, I_FOUR, I_SMALL, I_THREE, I_TWO, NOTATION
from .errors import ErrorCode
from .events import CountWord
from .movegen import Constraints, FoursMode
from .seats import opp, up
from .state import STREAK_EXEMPT, HandState, SeatStatus

_HUI_RANKS: dict[str, tuple[HuiRanks, ...]] = {
    "threes": (HuiRanks.THREES,),
    "threes_fours": (HuiRanks.THREES, HuiRanks.FOURS, HuiRanks.BOTH),
}


def constraints(state: HandState, seat: int) -> Constraints:
    h = state.hands[seat - 1]
    fours: FoursMode = "free"
    if state.rules.dian_si and h[I_FOUR] and seat not in state.fours_free:
        fours = "must" if seat in state.fours_pending else "forbid"
    return Constraints(fours=fours, need_joker=state.burner == seat)


def is_lead(state: HandState) -> bool:
    return state.top_play is None or state.lead_pending


# A refusal with the reason it was refused: the code, and a reason key that says why
# (``burn_not_allowed`` + ``lead``: "you lead: nothing to burn") where one code covers
# several cases; the texts map ``<code>.<reason>`` (bot.i18n.error_text).
Refusal = tuple[ErrorCode, str | None]


def burn_refusal(state: HandState, seat: int) -> Refusal | None:
    """Why the seat may not burn now, with the reason (None if it may, given cards that
    beat the top)."""
    top_seat = state.top_seat
    if state.top_play is None or top_seat is None:
        return ErrorCode.BURN_NOT_ALLOWED, "lead"
    if state.free_play:
        return ErrorCode.BURN_NOT_ALLOWED, "free_play"
    if not state.top_gouji:
        return ErrorCode.BURN_NOT_ALLOWED, "not_gouji"
    if seat == top_seat:
        return ErrorCode.BURN_NOT_ALLOWED, "own_play"
    if seat == opp(top_seat):
        return ErrorCode.BURN_NOT_ALLOWED, "opposite"
    if seat in state.locked:
        return ErrorCode.PASSED_THIS_TRICK, None
    if seat not in state.window:
        leading = state.lead_pending and state.to_act == seat
        return ErrorCode.BURN_NOT_ALLOWED, "lead" if leading else "window_closed"
    h = state.hands[seat - 1]
    distinct = sum(1 for i in range(12) if h[i])
    if distinct - (h[I_SMALL] + h[I_BIG]) > state.rules.burn_limit:
        return ErrorCode.BURN_FORMULA, None
    if state.rules.burn_requires_kaidian and seat not in state.opened:
        return ErrorCode.BURN_NEEDS_KAIDIAN, None
    return None


def burn_error(state: HandState, seat: int) -> ErrorCode | None:
    """Why the seat may not burn now (None if it may, given cards that beat the top)."""
    refusal = burn_refusal(state, seat)
    return None if refusal is None else refusal[0]


def rang_refusal(state: HandState, seat: int) -> Refusal | None:
    """Why the seat may not 让 now, with the reason."""
    if not state.rules.rang:
        return ErrorCode.RANG_NOT_ALLOWED, "off"
    if state.free_play:
        return ErrorCode.RANG_NOT_ALLOWED, "free_play"
    if state.top_seat is None or state.lead_pending:
        return ErrorCode.RANG_NOT_ALLOWED, "lead"
    if state.top_gouji:
        return ErrorCode.RANG_NOT_ALLOWED, "gouji"
    if state.top_seat != opp(seat):
        return ErrorCode.RANG_NOT_ALLOWED, "not_opposite"
    if state.rang_by is not None:
        return ErrorCode.RANG_NOT_ALLOWED, "once"
    if state.to_act != seat:
        return turn_error(state, seat), None
    before: list[int] = []
    s = up(seat)
    while len(before) < 2 and s != seat:
        if state.is_active(s) or s == state.top_seat:
            before.append(s)
        s = up(s)
    if len(before) < 2 or any(b not in state.passed_since_top for b in before):
        return ErrorCode.RANG_NOT_ALLOWED, "not_passed"
    return None


def rang_error(state: HandState, seat: int) -> ErrorCode | None:
    refusal = rang_refusal(state, seat)
    return None if refusal is None else refusal[0]


def revolt_error(state: HandState, seat: int) -> ErrorCode | None:
    r = state.rules
    if r.revolution == "off" or state.started or seat in state.revolters:
        return ErrorCode.REVOLT_NOT_ALLOWED
    if revolt_blocker(state, seat) is not None:
        return ErrorCode.REVOLT_NOT_ALLOWED
    return None


def revolt_blocker(state: HandState, seat: int) -> str | None:
    """The card (notation) in ``seat``'s hand that rules a revolution out, if one does,
    so a refusal can name it."""
    r = state.rules
    h = state.hands[seat - 1]
    for index in (I_BIG, I_SMALL, I_TWO):
        if h[index]:
            return NOTATION[index]
    if r.revolution == "no_hua_qian_34" and h[I_FOUR]:
        return NOTATION[I_FOUR]
    if (r.revolution == "no_hua_qian_34" or r.bie_san) and h[I_THREE]:
        # 《大纲》 第二十六条(二): under 憋三 "无3且大花、小花、钱全无时，可允许其革命".
        return NOTATION[I_THREE]
    return None


def declare_error(state: HandState, seat: int) -> ErrorCode | None:
    if (
        not state.rules.dadian
        or not state.rules.point_bets
        or state.started
        or any(d == seat for d, _ in state.declarations)
        or not state.is_active(opp(seat))
        or (state.rules.point_streak and state.streaks[opp(seat) - 1] >= STREAK_EXEMPT)
    ):
        return ErrorCode.DECLARE_NOT_ALLOWED
    return None


def hui_error(state: HandState, seat: int, ranks: HuiRanks | None) -> ErrorCode | None:
    """Why the seat may not 烩 those ranks now (RULES §10 烩牌)."""
    r = state.rules
    allowed = _HUI_RANKS.get(r.hui, ())
    if (
        ranks not in allowed
        or r.bie_san
        or state.started
        or state.hui is not None
        or state.top_play is not None
        or seat != state.to_act
    ):
        return ErrorCode.HUI_NOT_ALLOWED
    return None


def count_answer(state: HandState, target: int) -> tuple[CountWord, int | None]:
    """报户: ("exact", n), ("not_enough", None) — 不够报 — or ("out", None)."""
    if not state.is_active(target):
        return ("out", None) if state.status[target - 1] is not SeatStatus.OUT else ("exact", 0)
    n = sum(state.hands[target - 1])
    rule = state.rules.count_rule
    if rule == "always" or (rule == "ask_le10" and n <= 10) or (rule == "ask_lt10" and n < 10):
        return ("exact", n)
    return ("not_enough", None)


def turn_error(state: HandState, seat: int) -> ErrorCode:
    if is_lead(state) or state.top_seat is None:
        return ErrorCode.NOT_YOUR_TURN
    is_opp = seat == opp(state.top_seat)
    if (
        not state.free_play
        and seat in state.locked
        and not (is_opp and state.rules.opposite_final_say)
    ):
        return ErrorCode.PASSED_THIS_TRICK
    if not state.top_gousi and restricted(state) and not (is_opp or state.headless(seat)):
        return ErrorCode.GOUJI_OPPOSITE_ONLY
    return ErrorCode.NOT_YOUR_TURN


def restricted(state: HandState) -> bool:
    """A 够级牌 on top that only its opposite (and 无头 seats) may answer."""
    return (
        state.top_gouji
        and not state.free_play
        and state.top_seat is not None
        and not state.headless(state.top_seat)
    )
