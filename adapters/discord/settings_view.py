"""The server settings panel: preset, single rule switches, timer, match length, language.

Each change is one ``ChangeSettings`` command, saved at once, so the panel keeps no
state of its own: the setting being edited rides in the menus' ``custom_id``.
"""

from __future__ import annotations

import discord

from bot.engine.rules import PRESET_NAMES
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.present.labels import LANG_NAMES, setting_label, value_label
from bot.present.schema import SettingValue, menu_settings, schema
from bot.table import GroupSettings

from .custom_ids import Ref, settings_cid
from .items import button, option, select
from .menus import MORE, page_of


def editable() -> list[str]:
    """Everything the panel can set with a pick, from the one settings schema."""
    return [spec.name for spec in menu_settings()]


def values_of(name: str) -> tuple[SettingValue, ...]:
    spec = schema().get(name)
    return spec.menu_values if spec is not None else ()


def encode_value(value: SettingValue) -> str:
    if isinstance(value, bool):
        return "b1" if value else "b0"
    if isinstance(value, int):
        return f"i{value}"
    return f"s{value}"


def decode_value(name: str, text: str) -> SettingValue | None:
    """The value a menu entry stands for, if it is one the setting accepts."""
    for v in values_of(name):
        if encode_value(v) == text:
            return v
    return None


def current_value(settings: GroupSettings, name: str) -> SettingValue:
    return settings.value(name)


def settings_content(settings: GroupSettings, lang: Lang) -> str:
    lines = [t("dc_settings_title", lang)]
    lines.append(t("dc_rules_preset", lang, preset=preset_name(settings.preset, lang)))
    lines.append(t("dc_rules_changes", lang, changes=changes_text(settings, lang)))
    lines.append(
        t(
            "dc_settings_general",
            lang,
            turn=value_label("turn_seconds", settings.turn_seconds, lang),
            hands=value_label("match_hands", settings.match_hands, lang),
            target=value_label("target_score", settings.target_score, lang),
            language=LANG_NAMES.get(settings.lang, settings.lang),
            ai=value_label("ai_fill", settings.ai_fill, lang),
        )
    )
    return "\n".join(lines)


def changes_text(settings: GroupSettings, lang: Lang) -> str:
    if not settings.overrides:
        return t("dc_as_preset", lang)
    parts = []
    for name, value in settings.overrides:
        shown = value_label(name, value, lang)
        parts.append(f"{setting_label(name, lang)} = {shown}")
    return "; ".join(parts)


def settings_view(
    settings: GroupSettings, ref: Ref, lang: Lang, editing: str | None = None, page: int = 0
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    presets = [option(preset_name(p, lang), p, default=p == settings.preset) for p in PRESET_NAMES]
    view.add_item(select(settings_cid(ref, "preset"), t("dc_pick_preset", lang), presets, row=0))
    names = editable()
    if editing in names:
        # Keep the page that holds the setting being edited.
        page = names.index(editing) // 24 if len(names) > 25 else 0
    shown, has_more, page = page_of(names, page)
    picks = []
    for name in shown:
        value = value_label(name, current_value(settings, name), lang)
        picks.append(option(f"{setting_label(name, lang)}: {value}", name, default=name == editing))
    if has_more:
        picks.append(option(t("dc_more", lang), f"{MORE}{page + 1}"))
    cid = settings_cid(ref, f"pick.{page}")
    view.add_item(select(cid, t("dc_pick_setting", lang), picks, row=1))
    if editing in names:
        now = current_value(settings, editing)
        wanted = list(values_of(editing))
        values = [
            option(
                value_label(editing, v, lang),
                encode_value(v),
                default=v == now and type(v) is type(now),
            )
            for v in wanted
        ]
        placeholder = t("dc_pick_value", lang, name=setting_label(editing, lang))
        view.add_item(select(settings_cid(ref, f"val.{editing}"), placeholder, values, row=2))
    view.add_item(button(settings_cid(ref, "reset", menu=False), t("dc_btn_reset", lang), row=3))
    return view
