"""The pure 够级 rules engine (standard library only): cards, plays, rules, hand state."""

from .actions import Action, ActionKind, HuiRanks
from .cards import Counts, Rank, fmt, parse
from .errors import ErrorCode, GoujiError, IllegalAction, RulesError
from .events import Event, EventKind
from .game import (
    OptionGroup,
    apply,
    from_hands,
    legal_actions,
    legal_burns,
    legal_options,
    legal_plays,
    new_hand,
    next_leader,
)
from .plays import Play, beats, classify, is_gouji, is_pure_gouji
from .rules import PRESET_NAMES, PRESETS, Rules, make_rules
from .state import HandResult, HandState, Mark, Phase, PublicMove, SeatStatus, Tribute

__all__ = [
    "PRESETS",
    "PRESET_NAMES",
    "Action",
    "ActionKind",
    "Counts",
    "ErrorCode",
    "Event",
    "EventKind",
    "GoujiError",
    "HandResult",
    "HandState",
    "HuiRanks",
    "IllegalAction",
    "Mark",
    "OptionGroup",
    "Phase",
    "Play",
    "PublicMove",
    "Rank",
    "Rules",
    "RulesError",
    "SeatStatus",
    "Tribute",
    "apply",
    "beats",
    "classify",
    "fmt",
    "from_hands",
    "is_gouji",
    "is_pure_gouji",
    "legal_actions",
    "legal_burns",
    "legal_options",
    "legal_plays",
    "make_rules",
    "new_hand",
    "next_leader",
    "parse",
]
