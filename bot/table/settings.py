"""Validating an admin's changes to a group's settings against the one settings schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..engine.errors import ErrorCode, GoujiError
from ..engine.rules import PresetName, make_rules, overrides_of
from ..present.schema import Scope, SettingValue, locked_off, shown, spec_of
from .model import GroupSettings

RESET = "reset"  # not a setting: drop every rule override


def apply_setting_changes(current: GroupSettings, changes: object) -> GroupSettings:
    """Validated new settings; raises GoujiError (with the allowed values) on bad input.

    Every name and value is checked by type and range before use, so nothing an admin can
    type or a payload can carry reaches the engine unchecked."""
    if not isinstance(changes, Mapping):
        raise GoujiError(ErrorCode.BAD_SWITCH_VALUE, switch="", value=shown(changes), allowed="")
    table: dict[str, SettingValue] = {}
    overrides = dict(current.overrides)
    for name, value in changes.items():
        if name == RESET:
            overrides = {}
            continue
        spec = spec_of(name)
        checked = spec.validate(value)
        if spec.scope is Scope.TABLE:
            table[spec.name] = checked
            if spec.name == "preset":
                overrides = {}
        else:
            overrides[spec.name] = checked
    new = replace(current, **table)  # type: ignore[arg-type]
    new = _locks(new, table)
    return replace(new, overrides=kept_overrides(new.preset, overrides))


def _locks(new: GroupSettings, changed: Mapping[str, SettingValue]) -> GroupSettings:
    """A setting the preset fixes off: refused when asked for, else turned off."""
    if not locked_off("hints", new.preset):
        return new
    if changed.get("hints") is True:
        raise GoujiError(ErrorCode.SETTING_LOCKED, switch="hints")
    return replace(new, hints=False)


def kept_overrides(
    preset: PresetName, overrides: Mapping[str, SettingValue]
) -> tuple[tuple[str, SettingValue], ...]:
    """Only the switches that differ from the preset, in a stable order."""
    base = make_rules(preset)
    rules = make_rules(preset, overrides)  # the engine's own check of the combination
    kept = {k: v for k, v in overrides_of(rules).items() if getattr(base, k) != getattr(rules, k)}
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kept.items()))
