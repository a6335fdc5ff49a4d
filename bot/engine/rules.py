"""Every house-rule switch of RULES.md, the five presets, and validated overrides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, TypeAlias, TypeGuard, get_args

from .errors import ErrorCode, RulesError

TRIBUTE_KINDS = ("men", "burn", "point", "luo")

# Settings and records stored before rules v2 used a boolean `tribute_return`: True returned
# every kind of tribute (what `all` does now), False none. A hand recorded under v1 replays
# exactly with these; a group's stored settings only ever held False (True was every
# preset's default, and only differences are stored).
LEGACY_VALUES: dict[str, dict[Any, Any]] = {"tribute_return": {True: "all", False: "none"}}


# The five presets (RULES.md §14).
PresetName: TypeAlias = Literal["dagang", "qingdao", "weifang", "dazhong", "match"]
# The values of each switch that is a choice (``_CHOICES`` below is built from these).
SmallJokerBeatenBy: TypeAlias = Literal["bigs", "more_jokers"]
MixedJokers: TypeAlias = Literal["big", "small"]
BurnPriority: TypeAlias = Literal["team", "order"]
BurnSuccess: TypeAlias = Literal["out", "first_trick"]
NextLeader: TypeAlias = Literal["loser", "rotate"]
Revolution: TypeAlias = Literal["off", "no_hua_qian", "no_hua_qian_34"]
RevoltOppositeOpens: TypeAlias = Literal["three_plays", "auto"]
HuiRule: TypeAlias = Literal["off", "threes", "threes_fours"]
TributeReturn: TypeAlias = Literal["luo", "all", "none"]
PointBetSuccess: TypeAlias = Literal["opposite_not_opened", "both"]
SweepTribute: TypeAlias = Literal["opposite", "redeal"]
TributeWithoutLegal: TypeAlias = Literal["skip", "highest_card"]
KaidianTwos: TypeAlias = Literal["never", "pair", "single"]
KaidianPlays: TypeAlias = Literal["pure", "no_big_joker"]
UnopenedFours: TypeAlias = Literal["discard", "play"]
CountRule: TypeAlias = Literal["ask_le10", "ask_lt10", "always", "never"]
Scoring: TypeAlias = Literal["standard", "competition"]


@dataclass(frozen=True, slots=True)
class Rules:
    preset: PresetName = "dagang"
    # §2 deck
    remove_threes: int = 0
    remove_fours: int = 0
    remove_fives: int = 0
    # §4-6 plays
    tie_qian: bool = True
    small_joker_beaten_by: SmallJokerBeatenBy = "bigs"
    kill_two_big: bool = False
    kill_three_small: bool = False
    kill_three_twos: bool = False
    mixed_jokers: MixedJokers = "big"
    gouji_twos: int = 1
    # §7 trick flow
    opposite_final_say: bool = True
    rang: bool = True
    # §8 burning
    burn_limit: int = 2
    burn_priority: BurnPriority = "team"
    burn_success: BurnSuccess = "out"
    burn_requires_kaidian: bool = False
    failed_burn_opens_opposite: bool = False
    counter_burn_double: bool = False
    # §10 before play
    next_leader: NextLeader = "loser"
    revolution: Revolution = "no_hua_qian"
    revolt_opposite_opens: RevoltOppositeOpens = "three_plays"
    chongdian: bool = False
    hui: HuiRule = "off"
    tribute: bool = True
    sweep_tribute: SweepTribute = "opposite"
    tribute_without_legal: TributeWithoutLegal = "skip"
    tribute_return: TributeReturn = "luo"
    tribute_order: tuple[str, ...] = TRIBUTE_KINDS
    point_bets: bool = True
    point_bet_fail_double: bool = False
    point_bet_success: PointBetSuccess = "opposite_not_opened"
    point_streak: bool = False
    # §11
    dadian: bool = False
    kaidian_twos: KaidianTwos = "never"
    kaidian_plays: KaidianPlays = "pure"
    dian_si: bool = False
    unopened_fours: UnopenedFours = "discard"
    bie_san: bool = False
    men_is_last: bool = False
    # §12
    count_rule: CountRule = "ask_le10"
    see_team_after_out: bool = False
    # §13 scoring
    score_table: tuple[int, ...] = (4, 2, 0, 0, -2, -4)
    sweep_multiplier: int = 2
    positive_only: bool = True
    scoring: Scoring = "standard"
    # table pace: seconds a move (0 = the group's own timer)
    move_seconds: int = 0

    def switches(self) -> dict[str, Any]:
        """The switch values as plain JSON-friendly data (lists for tuples)."""
        out = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}


# name -> allowed values (a tuple) or ("int", lo, hi) for ranges.
_CHOICES: dict[str, tuple[Any, ...]] = {
    "remove_threes": (0, 10),
    "remove_fours": (0, 8, 10),
    "remove_fives": (0, 4),
    "small_joker_beaten_by": get_args(SmallJokerBeatenBy),
    "mixed_jokers": get_args(MixedJokers),
    "gouji_twos": (1, 2),
    "burn_priority": get_args(BurnPriority),
    "burn_success": get_args(BurnSuccess),
    "next_leader": get_args(NextLeader),
    "revolution": get_args(Revolution),
    "revolt_opposite_opens": get_args(RevoltOppositeOpens),
    "hui": get_args(HuiRule),
    "tribute_return": get_args(TributeReturn),
    "point_bet_success": get_args(PointBetSuccess),
    "sweep_tribute": get_args(SweepTribute),
    "tribute_without_legal": get_args(TributeWithoutLegal),
    "kaidian_twos": get_args(KaidianTwos),
    "kaidian_plays": get_args(KaidianPlays),
    "unopened_fours": get_args(UnopenedFours),
    "count_rule": get_args(CountRule),
    "scoring": get_args(Scoring),
}
_INT_RANGES: dict[str, tuple[int, int]] = {
    "burn_limit": (0, 13),
    "sweep_multiplier": (1, 4),
    "move_seconds": (0, 600),
}
_BOOLS = {f.name for f in fields(Rules) if f.type in ("bool", bool)}

PRESETS: dict[PresetName, dict[str, Any]] = {
    "dagang": {},
    "qingdao": {
        "remove_threes": 10,
        "remove_fours": 8,
        "bie_san": True,
        "dadian": True,
        "dian_si": True,
        "count_rule": "ask_lt10",
        "revolution": "no_hua_qian_34",
        "burn_requires_kaidian": True,
        "men_is_last": True,
        "see_team_after_out": True,
        "burn_priority": "order",
        "positive_only": False,
        "revolt_opposite_opens": "auto",
        "point_bet_success": "both",
    },
    "weifang": {
        "bie_san": True,
        "dadian": True,
        "kaidian_twos": "pair",
        "count_rule": "always",
        "men_is_last": True,
        "burn_priority": "order",
        "positive_only": False,
        "revolt_opposite_opens": "auto",
    },
    "dazhong": {
        "remove_threes": 10,
        "bie_san": True,
        "dadian": True,
        "dian_si": True,
        "kill_three_twos": True,
        "count_rule": "never",
        "burn_requires_kaidian": True,
        "men_is_last": True,
        "see_team_after_out": True,
        "burn_priority": "order",
        "positive_only": False,
        "revolt_opposite_opens": "auto",
        "point_bet_success": "both",
        "chongdian": True,
    },
    "match": {
        "bie_san": True,
        "dadian": True,
        "kill_three_twos": True,
        "count_rule": "never",
        "revolution": "off",
        "tribute": False,
        "scoring": "competition",
        "score_table": (2, 1, 0, 0, -1, -2),
        "sweep_multiplier": 1,
        "kaidian_plays": "no_big_joker",
        "burn_success": "first_trick",
        "move_seconds": 30,
        "next_leader": "rotate",
        "failed_burn_opens_opposite": True,
        "point_bets": False,
    },
}
PRESET_NAMES: tuple[PresetName, ...] = get_args(PresetName)
assert set(PRESET_NAMES) == set(PRESETS)


def is_preset(value: object) -> TypeGuard[PresetName]:
    """Whether ``value`` names one of the presets (a stored or typed name)."""
    return value in PRESET_NAMES


def switch_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Rules) if f.name != "preset")


def allowed_values(name: str) -> str:
    """A short description of what a switch accepts, for error messages and menus."""
    if name in _CHOICES:
        return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in _CHOICES[name])
    if name in _INT_RANGES:
        lo, hi = _INT_RANGES[name]
        return f"{lo}..{hi}"
    if name in _BOOLS:
        return "true, false"
    if name == "tribute_order":
        return "a list ordering " + ", ".join(TRIBUTE_KINDS)
    if name == "score_table":
        return "six integers, 头科 to 大落"
    return ""


def choices(name: str) -> tuple[Any, ...]:
    """Discrete values of a switch (for menus); empty for free-form switches."""
    if name in _CHOICES:
        return _CHOICES[name]
    if name in _BOOLS:
        return (True, False)
    return ()


def upgrade_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Stored overrides with values of removed switch forms replaced (see LEGACY_VALUES).

    For loading stored settings only: ``make_rules`` itself refuses the old forms.
    """
    out = dict(overrides)
    for name, table in LEGACY_VALUES.items():
        value = out.get(name)
        if isinstance(value, bool) and value in table:
            out[name] = table[value]
    return out


def _validate(name: str, value: Any) -> Any:
    def bad() -> RulesError:
        return RulesError(
            ErrorCode.BAD_SWITCH_VALUE, switch=name, value=value, allowed=allowed_values(name)
        )

    if name in _BOOLS:
        if not isinstance(value, bool):
            raise bad()
        return value
    if name in _CHOICES:
        if isinstance(value, bool) or value not in _CHOICES[name]:
            raise bad()
        return value
    if name in _INT_RANGES:
        lo, hi = _INT_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise bad()
        return value
    if name == "tribute_order":
        if not isinstance(value, list | tuple) or sorted(value) != sorted(TRIBUTE_KINDS):
            raise bad()
        return tuple(value)
    if name == "score_table":
        ok = isinstance(value, list | tuple) and len(value) == 6
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise bad()
        return tuple(value)
    raise RulesError(ErrorCode.UNKNOWN_SWITCH, switch=name, allowed=", ".join(switch_names()))


def make_rules(preset: str = "dagang", overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset's rules with validated overrides; raises RulesError listing allowed values."""
    if not is_preset(preset):
        raise RulesError(ErrorCode.UNKNOWN_PRESET, preset=preset, allowed=", ".join(PRESET_NAMES))
    values: dict[str, Any] = {"preset": preset, **PRESETS[preset]}
    for name, value in (overrides or {}).items():
        if name == "preset" or name not in switch_names():
            raise RulesError(
                ErrorCode.UNKNOWN_SWITCH, switch=name, allowed=", ".join(switch_names())
            )
        values[name] = _validate(name, value)
    return replace(Rules(), **values)


def overrides_of(rules: Rules) -> dict[str, Any]:
    """The switches that differ from the rules' preset (what an admin flipped)."""
    base = make_rules(rules.preset)
    out: dict[str, Any] = {}
    for f in fields(Rules):
        v = getattr(rules, f.name)
        if f.name != "preset" and v != getattr(base, f.name):
            out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def deck_size(rules: Rules) -> int:
    return 216 - rules.remove_threes - rules.remove_fours - rules.remove_fives
