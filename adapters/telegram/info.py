"""The informational replies: /rules, /score, /stats."""

from __future__ import annotations

from bot.engine.rules import make_rules, overrides_of
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.present.labels import setting_label, value_label
from bot.present.schema import SettingValue
from bot.present.stats import leaderboard_lines
from bot.table import ChatRef, GroupSettings, TableManager


def _seconds(n: int, lang: Lang) -> str:
    return t("tg_seconds", lang, n=n) if n else t("tg_no_limit", lang)


def changes_text(settings: GroupSettings, lang: Lang) -> str:
    changed = overrides_of(make_rules(settings.preset, dict(settings.overrides)))
    if not changed:
        return t("tg_settings_none", lang)
    return ", ".join(
        f"{setting_label(k, lang)} = {value_label(k, _setting(v), lang)}"
        for k, v in sorted(changed.items())
    )


def _setting(value: object) -> SettingValue:
    """A rule override as the settings labels take it (lists as tuples)."""
    if isinstance(value, list):
        return tuple(value)
    assert isinstance(value, bool | int | str)
    return value


def rules_text(settings: GroupSettings, lang: Lang) -> str:
    hands = settings.match_hands or t("tg_no_limit", lang)
    target = settings.target_score or t("tg_no_limit", lang)
    return "\n".join(
        [
            t("tg_rules", lang),
            t(
                "tg_rules_preset",
                lang,
                preset=preset_name(settings.preset, lang),
                changes=changes_text(settings, lang),
            ),
            t(
                "tg_rules_timer",
                lang,
                turn=_seconds(settings.turn_seconds, lang),
                hands=hands,
                target=target,
            ),
        ]
    )


def score_text(manager: TableManager, chat: ChatRef, lang: Lang) -> str:
    snap = manager.snapshot(chat.key)
    if snap is None:
        return t("no_table", lang)
    history = [h for h in snap.history if not h.voided]
    if not history:
        return t("tg_no_scores", lang)
    a, b = snap.totals
    lines = [t("tg_score_head", lang, hand_no=snap.hand_no, a=a, b=b)]
    for entry in history[-10:]:
        sa, sb = entry.team_scores
        lines.append(t("tg_score_line", lang, n=entry.hand_no, a=sa, b=sb))
    return "\n".join(lines)


async def stats_text(manager: TableManager, chat: ChatRef, lang: Lang) -> str:
    if not manager.keeps_stats:
        return t("tg_stats_off", lang)
    rows = await manager.leaderboard(chat.group_key)
    if not rows:
        return t("tg_stats_empty", lang)
    lines = [t("tg_stats_head", lang), *leaderboard_lines(rows, lang)]
    return "\n".join(lines)
