"""Chinese and English names and descriptions for the slash commands.

The texts live in this adapter's catalogue (``locale/*/LC_MESSAGES/discord.po``, context
``command``). The default names are the English ones, ASCII (``/gouji join``) so anyone can
type them; Chinese clients see ``/够级 入座``. Default descriptions carry both languages for
every other locale.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n.catalogue import Lang, text

ZH_LOCALES = frozenset({Locale.chinese, Locale.taiwan_chinese})
EN_LOCALES = frozenset({Locale.american_english, Locale.british_english})
CONTEXT = "command"
DESCRIPTION_LIMIT = 100  # Discord's limit on a command or option description


def command_text(key: str, lang: Lang) -> str:
    return text(key, lang, CONTEXT)


def default_text(key: str) -> str:
    """What a client in any other locale sees: the English name, or both descriptions."""
    en = command_text(key, "en")
    if not key.endswith("_desc"):
        return en
    both = f"{command_text(key, 'zh')} · {en}"
    return both if len(both) <= DESCRIPTION_LIMIT else en


def L(key: str) -> app_commands.locale_str:
    """A command string whose translations live in the catalogue."""
    return app_commands.locale_str(default_text(key), key=key)


class GoujiTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        if locale in ZH_LOCALES:
            return command_text(key, "zh")
        if locale in EN_LOCALES:
            return command_text(key, "en")
        return None
