"""Settings as people read them: every setting's name and value, and what a setting
accepts, in words from the catalogue (never a raw code such as ``threes`` alone, never a
Python type name). Both platforms' menus and every settings refusal use these."""

from __future__ import annotations

from ..engine.rules import is_preset
from ..i18n import has_text, place_name, preset_name, t, tribute_kind
from ..i18n.catalogue import Lang
from .schema import SettingKind, SettingSpec, SettingValue, schema

LANG_NAMES = {"zh": "中文", "en": "English"}


def setting_label(name: str, lang: Lang) -> str:
    """A setting's name in words (its help key's text), or the name itself."""
    spec = schema().get(name)
    key = spec.help_key if spec is not None else name
    return t(key, lang) if has_text(key, lang) else name


def value_label(name: str, value: SettingValue, lang: Lang) -> str:
    """One value of a setting in words."""
    if isinstance(value, bool):
        return t("value_on" if value else "value_off", lang)
    if isinstance(value, tuple):
        return _list_label(name, value, lang)
    if name == "preset" and is_preset(value):
        return preset_name(value, lang)
    if name == "lang":
        return LANG_NAMES.get(str(value), str(value))
    if name == "ai_level":
        return t(f"ai_level_{value}", lang)
    if isinstance(value, int):
        return _number_label(name, value, lang)
    key = f"{name}.{value}"
    return t(key, lang) if has_text(key, lang) else value


def _number_label(name: str, value: int, lang: Lang) -> str:
    if name in ("turn_seconds", "move_seconds"):
        return t("value_seconds", lang, n=value) if value else t("value_no_limit", lang)
    if name in ("match_hands", "target_score") and value == 0:
        return t("value_no_limit", lang)
    return str(value)


def _list_label(name: str, value: tuple[str, ...] | tuple[int, ...], lang: Lang) -> str:
    comma = t("value_comma", lang)
    if name == "tribute_order":
        return comma.join(tribute_kind(str(v), lang) for v in value)
    return comma.join(str(v) for v in value)


def _typed(label: str, code: str, lang: Lang) -> str:
    """A value with what to type for it: "烩 3 (threes)"."""
    return label if label == code else t("value_typed", lang, label=label, code=code)


def _code(value: SettingValue) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def allowed_label(spec: SettingSpec, lang: Lang) -> str:
    """What a setting accepts, in words, with what to type."""
    comma = t("value_comma", lang)
    if spec.kind is SettingKind.INT:
        return t("allowed_range", lang, lo=spec.lo, hi=spec.hi)
    if spec.kind in (SettingKind.BOOL, SettingKind.CHOICE):
        return comma.join(
            _typed(value_label(spec.name, v, lang), _code(v), lang) for v in spec.allowed
        )
    if spec.kind is SettingKind.ORDER:
        words = comma.join(_typed(tribute_kind(str(v), lang), str(v), lang) for v in spec.allowed)
        return t("allowed_order", lang, words=words)
    size = len(spec.default) if isinstance(spec.default, tuple) else 0
    return t("allowed_ints", lang, n=size, first=place_name(1, lang), last=place_name(6, lang))


def allowed_text(name: str, lang: Lang) -> str | None:
    """What the setting called ``name`` accepts, in words; None for no such setting."""
    spec = schema().get(name)
    return None if spec is None else allowed_label(spec, lang)
