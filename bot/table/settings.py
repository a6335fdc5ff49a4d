"""Validating an admin's changes to a group's settings."""

from __future__ import annotations

from typing import Any

from ..engine.errors import ErrorCode, GoujiError
from ..engine.rules import make_rules, overrides_of
from .model import GroupSettings

SETTING_LIMITS = {"turn_seconds": (0, 600), "match_hands": (0, 50), "target_score": (0, 1000)}


def _settings_dict(s: GroupSettings) -> dict[str, Any]:
    return {f: getattr(s, f) for f in GroupSettings.__dataclass_fields__}


def apply_setting_changes(current: GroupSettings, changes: dict[str, Any] | Any) -> GroupSettings:
    """Validated new settings; raises GoujiError with the allowed values on bad input."""
    values = _settings_dict(current)
    overrides = dict(current.overrides)
    for name, value in dict(changes).items():
        if name == "preset":
            make_rules(value)  # validates the name
            values["preset"] = value
            overrides = {}
        elif name == "reset":
            overrides = {}
        elif name in SETTING_LIMITS:
            lo, hi = SETTING_LIMITS[name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise GoujiError(
                    ErrorCode.BAD_SWITCH_VALUE, switch=name, value=value, allowed=f"{lo}..{hi}"
                )
            values[name] = value
        elif name == "lang":
            if value not in ("zh", "en"):
                raise GoujiError(
                    ErrorCode.BAD_SWITCH_VALUE, switch=name, value=value, allowed="zh, en"
                )
            values[name] = value
        elif name == "ai_fill":
            if not isinstance(value, bool):
                raise GoujiError(
                    ErrorCode.BAD_SWITCH_VALUE, switch=name, value=value, allowed="true, false"
                )
            values[name] = value
        else:
            overrides[name] = value
    base = make_rules(values["preset"])
    rules = make_rules(values["preset"], overrides)  # validates every switch
    kept = {k: v for k, v in overrides_of(rules).items() if getattr(base, k) != getattr(rules, k)}
    values["overrides"] = tuple(
        sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kept.items())
    )
    return GroupSettings(**values)
