"""Both settings menus show every value by its catalogue label (not a raw ``threes``), and
every menu value of every setting has one, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.discord.custom_ids import Ref
from adapters.discord.settings_view import changes_text as discord_changes
from adapters.discord.settings_view import settings_view
from adapters.telegram.info import changes_text as telegram_changes
from adapters.telegram.settings_menu import SettingsMenu
from bot.i18n import has_text, t
from bot.i18n.catalogue import Lang
from bot.present.labels import value_label
from bot.present.schema import SettingKind, schema
from bot.table import GroupSettings, apply_setting_changes

HUI = apply_setting_changes(
    GroupSettings(), {"hui": "threes", "tribute_order": ("luo", "men", "burn", "point")}
)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_choice_has_a_label_in_words(lang: Lang) -> None:
    for spec in schema().values():
        if spec.kind is not SettingKind.CHOICE or spec.name in ("lang", "preset", "ai_level"):
            continue  # languages by their own names; presets and levels have their texts
        for value in spec.allowed:
            if isinstance(value, str):
                assert has_text(f"{spec.name}.{value}", lang), (spec.name, value)
                assert value_label(spec.name, value, lang) == t(f"{spec.name}.{value}", lang)
        if lang == "zh":
            assert all(
                value_label(spec.name, v, lang) != v for v in spec.allowed if isinstance(v, str)
            )


def texts(markup: Any) -> list[str]:
    return [b.text for row in markup.inline_keyboard for b in row]


@pytest.mark.parametrize(
    ("lang", "shown", "raw"),
    [
        ("zh", ["烩 3", "不烩", "烩 3 和 4"], ["threes", "off"]),
        ("en", ["3s", "3s and 4s"], ["threes"]),
    ],
)
def test_telegrams_menu_and_summary_show_labels(
    lang: Lang, shown: list[str], raw: list[str]
) -> None:
    s = apply_setting_changes(HUI, {"lang": lang})
    menu = SettingsMenu(None)  # type: ignore[arg-type]  # the screens need no context
    text, markup = menu.switch(s, "hui")
    buttons = texts(markup)
    everything = " ".join([text, *buttons, telegram_changes(s, lang)])
    assert all(w in everything for w in shown), everything
    assert not any(w in buttons or f"= {w}" in everything for w in raw), everything
    _, page = menu.switches(s, 0)
    if lang == "zh":
        raw_values = ("off", "threes", "true", "false", "team", "bigs")
        assert not any(b.endswith(raw_values) for b in texts(page)), texts(page)


@pytest.mark.parametrize(("lang", "label"), [("zh", "烩 3"), ("en", "3s")])
def test_discords_panel_shows_labels(lang: Lang, label: str) -> None:
    s = apply_setting_changes(HUI, {"lang": lang})
    summary = discord_changes(s, lang)
    assert label in summary and "threes" not in summary and "['luo'" not in summary, summary
    view = settings_view(s, Ref.from_key("dc:1:2"), lang, editing="hui")
    options = [o.label for item in view.children for o in getattr(item.item, "options", [])]  # type: ignore[attr-defined]
    assert label in " ".join(options) and "threes" not in options, options
