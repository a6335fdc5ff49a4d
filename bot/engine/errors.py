"""Refusals carry a stable code and parameters; human text lives in bot.i18n."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    HAND_OVER = "hand_over"
    UNKNOWN_ACTION = "unknown_action"
    BAD_SEAT = "bad_seat"
    BAD_TARGET = "bad_target"
    WRONG_PHASE = "wrong_phase"
    SEAT_OUT = "seat_out"
    BAD_NOTATION = "bad_notation"
    EMPTY_PLAY = "empty_play"
    MIXED_RANKS = "mixed_ranks"
    NO_TIE_QIAN = "no_tie_qian"
    THREES_ALONE = "threes_alone"
    FOURS_ALONE = "fours_alone"
    CARDS_NOT_IN_HAND = "cards_not_in_hand"
    PASSED_THIS_TRICK = "passed_this_trick"
    GOUJI_OPPOSITE_ONLY = "gouji_opposite_only"
    NOT_YOUR_TURN = "not_your_turn"
    LEAD_CANNOT_PASS = "lead_cannot_pass"
    THREE_MUST_BE_LAST = "three_must_be_last"
    FOURS_AFTER_KAIDIAN = "fours_after_kaidian"
    MUST_LEAD_FOURS = "must_lead_fours"
    NEEDS_JOKER_WHILE_BURNING = "needs_joker_while_burning"
    SIZE_MISMATCH = "size_mismatch"
    TOO_WEAK = "too_weak"
    BURN_NOT_ALLOWED = "burn_not_allowed"
    BURN_FORMULA = "burn_formula"
    BURN_NEEDS_KAIDIAN = "burn_needs_kaidian"
    BURN_SUPERSEDED = "burn_superseded"
    RANG_NOT_ALLOWED = "rang_not_allowed"
    REVOLT_NOT_ALLOWED = "revolt_not_allowed"
    DECLARE_NOT_ALLOWED = "declare_not_allowed"
    WAIVE_NOT_ALLOWED = "waive_not_allowed"
    HUI_NOT_ALLOWED = "hui_not_allowed"
    CHONGDIAN_NOT_ALLOWED = "chongdian_not_allowed"
    CHONGDIAN_NEEDS_PURE = "chongdian_needs_pure"
    COUNT_REFUSED = "count_refused"
    RETURN_NOT_OWED = "return_not_owed"
    RETURN_COUNT = "return_count"
    UNKNOWN_SWITCH = "unknown_switch"
    BAD_SWITCH_VALUE = "bad_switch_value"
    SETTING_LOCKED = "setting_locked"  # the preset fixes this setting (hints in 比赛)
    UNKNOWN_PRESET = "unknown_preset"
    BAD_SCENARIO = "bad_scenario"
    BAD_STREAKS = "bad_streaks"


class GoujiError(Exception):
    """Base of every refusal: `code` is stable, `params` fill the localized message."""

    def __init__(self, code: ErrorCode, **params: Any) -> None:
        super().__init__(code.value, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.code.value
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code.value}({inner})"


class IllegalAction(GoujiError):
    """An action the rules refuse; the state it was tried on is unchanged."""


class RulesError(GoujiError):
    """A bad preset name, switch name or switch value."""
