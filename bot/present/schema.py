"""One settings schema: every switch an admin may set, on every platform.

Each entry says what the value is (its type and allowed values), the text key that names it,
which presets set it, and which values a menu offers. The schema is read from the engine's
``Rules`` (so a new rule switch appears here, and in every menu, without further work) plus
the group's own table settings. Values are validated here, by type and range, *before*
anything else sees them: an admin's typo or a forged payload gets a coded refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Final

from ..ai.levels import DEFAULT_LEVEL, LEVELS
from ..engine.errors import ErrorCode, GoujiError
from ..engine.rules import PRESET_NAMES, PRESETS, Rules, allowed_values, choices, switch_names

SettingValue = bool | int | str | tuple[str, ...] | tuple[int, ...]


class SettingKind(StrEnum):
    BOOL = "bool"
    CHOICE = "choice"  # one of a few words or numbers
    INT = "int"  # an integer in a range
    ORDER = "order"  # a permutation of fixed words (tribute_order)
    INTS = "ints"  # a fixed number of integers (score_table)


class Scope(StrEnum):
    RULES = "rules"  # a rule switch (RULES.md), overriding the preset
    TABLE = "table"  # the group's own table settings (timer, match length, language...)


@dataclass(frozen=True, slots=True)
class SettingSpec:
    name: str
    scope: Scope
    kind: SettingKind
    default: SettingValue
    allowed: tuple[SettingValue, ...] = ()  # BOOL / CHOICE: every value; ORDER: the words
    lo: int = 0  # INT range, inclusive
    hi: int = 0
    steps: tuple[int, ...] = ()  # INT: what a menu offers (typing may give any in range)
    presets: tuple[str, ...] = ()  # the presets whose value differs from the default

    @property
    def help_key(self) -> str:
        return ("sw_" if self.scope is Scope.RULES else "set_") + self.name

    @property
    def menu_values(self) -> tuple[SettingValue, ...]:
        """What a menu offers: empty for list-valued switches (typed only)."""
        if self.kind is SettingKind.INT:
            return self.steps
        if self.kind in (SettingKind.BOOL, SettingKind.CHOICE):
            return self.allowed
        return ()

    def allowed_text(self) -> str:
        if self.kind is SettingKind.INT:
            return f"{self.lo}..{self.hi}"
        if self.kind is SettingKind.BOOL:
            return "true, false"
        if self.kind is SettingKind.CHOICE:
            return ", ".join(str(v) for v in self.allowed)
        if self.kind is SettingKind.ORDER:
            return "a list ordering " + ", ".join(str(v) for v in self.allowed)
        return f"{len(self.default) if isinstance(self.default, tuple) else 0} integers"

    def refuse(self, value: object) -> GoujiError:
        return GoujiError(
            ErrorCode.BAD_SWITCH_VALUE,
            switch=self.name,
            value=shown(value),
            allowed=self.allowed_text(),
        )

    def validate(self, value: object) -> SettingValue:
        """The value, if it has exactly the right type and is allowed; else a refusal."""
        checked = _check(self, value)
        if checked is None:
            raise self.refuse(value)
        return checked

    def parse(self, raw: str) -> SettingValue:
        """A value typed after ``/settings NAME`` (no JSON: nothing here can recurse)."""
        text = raw.strip()
        if len(text) > 200:
            raise self.refuse(text)
        parsed = _parse(self, text)
        checked = None if parsed is None else _check(self, parsed)
        if checked is None:
            raise self.refuse(text)  # quote what was typed, not what it was read as
        return checked


def shown(value: object) -> str:
    """A value as a refusal may quote it: short, whatever was sent."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool | int):
        text = str(value).lower() if isinstance(value, bool) else str(value)
    elif isinstance(value, list | tuple):
        text = ",".join(shown(v) for v in value[:16])
    else:
        text = "?"  # a forged value of another kind: never a Python type's name
    return text if len(text) <= 40 else text[:39] + "…"


def _is_int(value: object) -> bool:
    return type(value) is int  # not bool, not float


def _check(spec: SettingSpec, value: object) -> SettingValue | None:
    kind = spec.kind
    if kind is SettingKind.BOOL:
        return value if type(value) is bool else None
    if kind is SettingKind.INT:
        if isinstance(value, int) and _is_int(value) and spec.lo <= value <= spec.hi:
            return value
        return None
    if kind is SettingKind.CHOICE:
        for allowed in spec.allowed:
            if type(value) is type(allowed) and value == allowed:
                return allowed
        return None
    if not isinstance(value, list | tuple) or len(value) > 16:
        return None
    if kind is SettingKind.ORDER:
        words = tuple(v for v in value if isinstance(v, str))
        ok = len(words) == len(value) and sorted(words) == sorted(map(str, spec.allowed))
        return words if ok else None
    numbers = tuple(v for v in value if _is_int(v))
    size = len(spec.default) if isinstance(spec.default, tuple) else -1
    ok = len(numbers) == len(value) == size and all(-1000 <= n <= 1000 for n in numbers)
    return numbers if ok else None


_TRUE: Final = frozenset({"true", "on", "yes", "1", "开", "是"})
_FALSE: Final = frozenset({"false", "off", "no", "0", "关", "否"})


def _parse(spec: SettingSpec, text: str) -> object | None:
    low = text.lower()
    if spec.kind is SettingKind.BOOL:
        return True if low in _TRUE else False if low in _FALSE else None
    if spec.kind is SettingKind.INT:
        return _parse_int(low)
    if spec.kind is SettingKind.CHOICE:
        for allowed in spec.allowed:
            if str(allowed).lower() == low:
                return allowed
        return None
    parts = [p.strip() for p in low.strip("[]() ").replace(" ", ",").split(",") if p.strip()]
    if spec.kind is SettingKind.ORDER:
        return tuple(p.strip("'\"") for p in parts)
    numbers = [_parse_int(p) for p in parts]
    return None if None in numbers else tuple(numbers)


def _parse_int(text: str) -> int | None:
    body = text[1:] if text.startswith("-") else text
    if not body.isascii() or not body.isdigit() or len(body) > 6:
        return None
    return int(text)


# -- the schema itself -----------------------------------------------------------------------
# Integer settings: the range the engine or the table accepts and the steps a menu offers.
_TABLE_INTS: Final = {
    "turn_seconds": (45, 0, 600, (0, 15, 20, 30, 45, 60, 90, 120, 180, 300)),
    "match_hands": (4, 0, 50, (0, 1, 2, 3, 4, 6, 8, 10, 12, 16, 20)),
    "target_score": (0, 0, 1000, (0, 8, 12, 16, 20, 30, 50, 100)),
}
_RULE_STEPS: Final = {"move_seconds": (0, 15, 20, 30, 45, 60, 90, 120)}
LANG_CODES: Final = ("zh", "en")
TABLE_SETTINGS: Final = ("preset", *_TABLE_INTS, "lang", "ai_fill", "ai_level", "hints")
# Settings a preset fixes off: hints (💡, the expert's choice for the player's decision)
# are a teacher's help, not for competition play (比赛).
LOCKED_OFF: Final[Mapping[str, tuple[str, ...]]] = {"hints": ("match",)}


def locked_off(name: str, preset: str) -> bool:
    """Whether ``preset`` fixes the setting ``name`` off."""
    return preset in LOCKED_OFF.get(name, ())


def _presets_setting(name: str) -> tuple[str, ...]:
    default = getattr(Rules(), name)
    return tuple(p for p, values in PRESETS.items() if name in values and values[name] != default)


def _int_range(name: str) -> tuple[int, int] | None:
    text = allowed_values(name)
    lo, sep, hi = text.partition("..")
    if not sep:
        return None
    return int(lo), int(hi)


def _rule_spec(name: str) -> SettingSpec:
    default = getattr(Rules(), name)
    presets = _presets_setting(name)
    base = {"name": name, "scope": Scope.RULES, "default": default, "presets": presets}
    if isinstance(default, bool):
        return SettingSpec(kind=SettingKind.BOOL, allowed=(True, False), **base)
    if isinstance(default, tuple):
        if all(isinstance(v, str) for v in default):
            return SettingSpec(kind=SettingKind.ORDER, allowed=default, **base)
        return SettingSpec(kind=SettingKind.INTS, **base)
    discrete = choices(name)
    if discrete:
        return SettingSpec(kind=SettingKind.CHOICE, allowed=discrete, **base)
    bounds = _int_range(name)
    if bounds is None:
        raise ValueError(f"rule switch {name} has no schema")  # a new kind of switch
    lo, hi = bounds
    steps = _RULE_STEPS.get(name, tuple(range(lo, hi + 1)))
    return SettingSpec(kind=SettingKind.INT, lo=lo, hi=hi, steps=steps, **base)


def _table_spec(name: str) -> SettingSpec:
    table = Scope.TABLE
    if name == "preset":
        return SettingSpec(name, table, SettingKind.CHOICE, "dagang", allowed=PRESET_NAMES)
    if name == "lang":
        return SettingSpec(name, table, SettingKind.CHOICE, "zh", allowed=LANG_CODES)
    if name == "ai_fill":
        return SettingSpec(name, table, SettingKind.BOOL, True, allowed=(True, False))
    if name == "ai_level":
        return SettingSpec(name, table, SettingKind.CHOICE, DEFAULT_LEVEL.value, allowed=LEVELS)
    if name == "hints":
        return SettingSpec(name, table, SettingKind.BOOL, False, allowed=(True, False))
    default, lo, hi, steps = _TABLE_INTS[name]
    return SettingSpec(name, table, SettingKind.INT, default, lo=lo, hi=hi, steps=steps)


@cache
def schema() -> Mapping[str, SettingSpec]:
    """Every setting by name: the table's own first, then the rule switches in RULES.md order."""
    specs = [_table_spec(n) for n in TABLE_SETTINGS] + [_rule_spec(n) for n in switch_names()]
    return {s.name: s for s in specs}


def spec_of(name: object) -> SettingSpec:
    """The schema entry for a setting name; a coded refusal for anything else."""
    spec = schema().get(name) if isinstance(name, str) else None
    if spec is None:
        raise GoujiError(ErrorCode.UNKNOWN_SWITCH, switch=shown(name), allowed=", ".join(schema()))
    return spec


def menu_settings() -> tuple[SettingSpec, ...]:
    """The settings a menu can set with a tap (list-valued switches are typed)."""
    return tuple(s for s in schema().values() if s.menu_values and s.name != "preset")
