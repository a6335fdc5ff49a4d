"""AI seats: the Policy contract, the levels (easy, normal, expert) and a random baseline.

The table manager asks ``decide(state, seat, policy, rng)`` whenever a seat has a
decision (see ``Role``): the seat to act, each burn-window seat, every 还贡 receiver,
and each seat before the first play (revolt, 明点). ``selfplay.play_hand`` shows the
order in which a whole hand asks them. ``policy_for(level, rules)`` builds a level's
policy; ``decide_async`` runs a decision off the event loop (needed for ``expert``).
"""

from .base import (
    Policy,
    PolicyError,
    Role,
    SearchingPolicy,
    decide,
    decide_async,
    is_mandatory,
    options,
    role_of,
)
from .heuristic import DEFAULT_WEIGHTS, HeuristicPolicy, Weights
from .levels import DEFAULT_LEVEL, LEVELS, Level, UnknownLevel, policy_for, without_search
from .normal import NormalPolicy, NormalWeights
from .random_policy import RandomPolicy
from .selfplay import HandLog, StalledHand, burn_order, play_hand

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "HandLog",
    "HeuristicPolicy",
    "Level",
    "NormalPolicy",
    "NormalWeights",
    "Policy",
    "PolicyError",
    "RandomPolicy",
    "Role",
    "SearchingPolicy",
    "StalledHand",
    "UnknownLevel",
    "Weights",
    "burn_order",
    "decide",
    "decide_async",
    "is_mandatory",
    "options",
    "play_hand",
    "policy_for",
    "role_of",
    "without_search",
]
