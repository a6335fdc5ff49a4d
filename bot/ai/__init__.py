"""AI seats: the Policy contract, a random baseline and a heuristic player.

The table manager asks ``decide(state, seat, policy, rng)`` whenever a seat has a
decision (see ``Role``): the seat to act, each burn-window seat, every 还贡 receiver,
and each seat before the first play (revolt, 明点). ``selfplay.play_hand`` shows the
order in which a whole hand asks them.
"""

from .base import Policy, PolicyError, Role, decide, is_mandatory, options, role_of
from .heuristic import DEFAULT_WEIGHTS, HeuristicPolicy, Weights
from .levels import DEFAULT_LEVEL, LEVELS, Level, UnknownLevel, policy_for
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
    "StalledHand",
    "UnknownLevel",
    "Weights",
    "burn_order",
    "decide",
    "is_mandatory",
    "options",
    "play_hand",
    "policy_for",
    "role_of",
]
