"""What the table answers and announces, as enums: front ends compare codes, not strings.

Each value is the text's key in the shared catalogue (``bot/i18n``), so a code is also
what ``t(code, lang)`` looks up and what is stored or sent between workers as text (a
``StrEnum`` is its value). A refusal of the engine keeps its own ``ErrorCode``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType, TypeAlias

from ..engine.errors import ErrorCode
from ..engine.events import EventKind


class ReplyCode(StrEnum):
    """The answer to a command's sender (``Reply.key``)."""

    AI_NOT_ALLOWED = "ai_not_allowed"
    ALREADY_PLAYED = "already_played"
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    AUTOPLAY_OFF = "autoplay_off"
    AUTOPLAY_ON = "autoplay_on"
    BAD_SEAT = "bad_seat"
    BAD_TARGET = "bad_target"
    BOT_REMOVED = "bot_removed"
    BOTS_ADDED = "bots_added"
    BURN_DECLARED = "burn_declared"
    COUNT_POSTED = "count_posted"
    DECLARE_CLOSED = "declare_closed"
    DECLARE_NOT_ALLOWED = "declare_not_allowed"
    DECLARE_PAUSE_OVER = "declare_pause_over"
    HAND_NOT_OVER = "hand_not_over"
    HELD_FOR_BURNS = "held_for_burns"
    JOINED = "joined"
    KICKED = "kicked"
    LEFT = "left"
    MATCH_IN_PROGRESS = "match_in_progress"
    MATCH_STOPPED = "match_stopped"
    NEED_SIX = "need_six"
    NEXT_HAND = "next_hand"
    NO_BOT_THERE = "no_bot_there"
    NO_BOTS = "no_bots"
    NO_TABLE = "no_table"
    NOT_ADMIN = "not_admin"
    NOT_CREATOR_OR_ADMIN = "not_creator_or_admin"
    NOT_IN_LOBBY = "not_in_lobby"
    NOT_PLAYING = "not_playing"
    NOT_SEATED = "not_seated"
    OK = "ok"
    READY = "ready"
    SEAT_TAKEN = "seat_taken"
    SETTINGS_SAVED = "settings_saved"
    SPECTATING = "spectating"
    STALE = "stale"
    STARTED = "started"
    SWAPPED = "swapped"
    TABLE_FULL = "table_full"
    TABLE_OPENED = "table_opened"
    TABLE_SHOWN = "table_shown"
    UNKNOWN_COMMAND = "unknown_command"
    WAIT_DECLARATIONS = "wait_declarations"


class NoticeCode(StrEnum):
    """A public line for the table (``Notice.key``): the table's own, then one per engine
    event announced (``ev_`` and the event's kind: ``NoticeCode.of_event``)."""

    AUTOPLAY_OFF = "autoplay_off"
    AUTOPLAY_ON = "autoplay_on"
    AUTOPLAY_TIMEOUT = "autoplay_timeout"
    COUNT_ANSWER = "count_answer"
    HAND_STARTED = "hand_started"
    HAND_VOIDED = "hand_voided"
    MATCH_STARTED = "match_started"
    SEAT_TO_AI = "seat_to_ai"
    EV_DEALT = "ev_dealt"
    EV_TRIBUTE_GIVEN = "ev_tribute_given"
    EV_TRIBUTE_RETURNED = "ev_tribute_returned"
    EV_BOUGHT = "ev_bought"
    EV_PLAY_STARTS = "ev_play_starts"
    EV_REVOLTED = "ev_revolted"
    EV_VOIDED = "ev_voided"
    EV_WAIVED = "ev_waived"
    EV_HUI = "ev_hui"
    EV_CHONGDIAN = "ev_chongdian"
    EV_CHONGDIAN_RESULT = "ev_chongdian_result"
    EV_DECLARED = "ev_declared"
    EV_PLAYED = "ev_played"
    EV_PASSED = "ev_passed"
    EV_RANGED = "ev_ranged"
    EV_BURNED = "ev_burned"
    EV_BURN_RELEASED = "ev_burn_released"
    EV_BURN_SUCCEEDED = "ev_burn_succeeded"
    EV_BURN_FAILED = "ev_burn_failed"
    EV_CAUGHT = "ev_caught"
    EV_TRICK_WON = "ev_trick_won"
    EV_LEAD = "ev_lead"
    EV_OPENED = "ev_opened"
    EV_POINT_FAILED = "ev_point_failed"
    EV_FOURS_DISCARDED = "ev_fours_discarded"
    EV_FOURS_FREED = "ev_fours_freed"
    EV_WENT_OUT = "ev_went_out"
    EV_FREE_PLAY = "ev_free_play"
    EV_COUNT = "ev_count"
    EV_HAND_OVER = "ev_hand_over"

    @staticmethod
    def of_event(kind: EventKind) -> NoticeCode:
        return NoticeCode(f"ev_{kind.value}")


class NoteCode(StrEnum):
    """A private line for one player (``PrivateNote.key``)."""

    NOTE_RETURN_PAID = "note_return_paid"
    NOTE_RETURN_RECEIVED = "note_return_received"
    NOTE_TRIBUTE_PAID = "note_tribute_paid"
    NOTE_TRIBUTE_RECEIVED = "note_tribute_received"
    SEAT_LEFT = "seat_left"
    TURN_WARNING = "turn_warning"


# A front end's own text key (its .po domain), for a reply it makes itself.
FrontText = NewType("FrontText", str)
ReplyKey: TypeAlias = ReplyCode | ErrorCode | FrontText
NoteKey: TypeAlias = NoteCode | ErrorCode  # a queued play the engine refused is a note too
NoticeKey: TypeAlias = NoticeCode | FrontText  # the terminal words some lines its own way


def note_key(text: str) -> NoteKey:
    """A private note's key read back (from another worker): its code."""
    return NoteCode(text) if text in NoteCode.__members__.values() else ErrorCode(text)
