"""Chinese and English names and descriptions for the slash commands.

The default names are ASCII (``/gouji join``) so anyone can type them; Chinese clients
see ``/够级 入座``. Default descriptions carry both languages for every other locale.
"""

from __future__ import annotations

from discord import Locale, app_commands

ZH_LOCALES = frozenset({Locale.chinese, Locale.taiwan_chinese})
EN_LOCALES = frozenset({Locale.american_english, Locale.british_english})

# key -> (default, zh, en)
TEXTS: dict[str, tuple[str, str, str]] = {
    "group": ("gouji", "够级", "gouji"),
    "group_desc": ("够级牌桌 · Gouji card table", "够级牌桌", "Gouji card table"),
    "new": ("new", "开桌", "new"),
    "new_desc": (
        "开一桌（或重新显示牌桌）· Open a table",
        "开一桌，或重新显示牌桌",
        "Open a table here, or show it again",
    ),
    "join": ("join", "入座", "join"),
    "join_desc": ("入座 · Sit down", "入座", "Sit down at the table"),
    "leave": ("leave", "离座", "leave"),
    "leave_desc": (
        "离座 · Leave your seat",
        "离座（开局后电脑接手）",
        "Leave your seat (an AI takes over mid-match)",
    ),
    "addbot": ("addbot", "加电脑", "addbot"),
    "addbot_desc": ("加电脑 · Add AI seats", "加电脑补位", "Add AI seats"),
    "removebot": ("removebot", "减电脑", "removebot"),
    "removebot_desc": ("减电脑 · Remove an AI seat", "移走一个电脑", "Remove an AI seat"),
    "start": ("start", "开始", "start"),
    "start_desc": (
        "开始比赛 · Start the match",
        "开始比赛（空位由电脑补）",
        "Start the match (AI fills empty seats)",
    ),
    "stop": ("stop", "结束", "stop"),
    "stop_desc": (
        "结束比赛 · Stop the match",
        "结束比赛（开桌人或管理员）",
        "Stop the match (creator or admin)",
    ),
    "settings": ("settings", "设置", "settings"),
    "settings_desc": (
        "本服设置 · Server settings",
        "改玩法和规则（需要管理服务器权限）",
        "Change preset and rules (Manage Server)",
    ),
    "rules": ("rules", "规则", "rules"),
    "rules_desc": ("规则 · Rules", "看本服玩法和规则", "Show this server's rules"),
    "score": ("score", "比分", "score"),
    "score_desc": ("比分 · Match score", "看这场的比分", "Show the match score"),
    "stats": ("stats", "战绩", "stats"),
    "stats_desc": ("战绩 · Server standings", "看本服战绩榜", "Show the server standings"),
    "count": ("count", "报户", "count"),
    "count_desc": (
        "问报户 · Ask a card count",
        "问某个座位还剩几张（报户）",
        "Ask how many cards a seat holds",
    ),
    "hand": ("hand", "我的牌", "hand"),
    "hand_desc": (
        "我的牌 · My hand",
        "只给你看你的牌和出牌按钮",
        "Show your hand and controls (only to you)",
    ),
    "seat": ("seat", "座位", "seat"),
    "seat_desc": ("座位 1–6 · Seat 1–6", "座位号 1 到 6", "Seat number 1 to 6"),
    "number": ("number", "数量", "number"),
    "number_desc": ("几个电脑 · How many", "加几个电脑", "How many AI seats"),
}


def L(key: str) -> app_commands.locale_str:
    """A command string whose translations live in ``TEXTS``."""
    return app_commands.locale_str(TEXTS[key][0], key=key)


class GoujiTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        entry = TEXTS.get(string.extras.get("key", ""))
        if entry is None:
            return None
        if locale in ZH_LOCALES:
            return entry[1]
        if locale in EN_LOCALES:
            return entry[2]
        return None
