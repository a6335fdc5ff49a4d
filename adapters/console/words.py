"""What the player types besides cards: the command words and the one-letter actions.

Commands that are not one card letter are words (``auto`` for 托管), so a player never
plays cards they did not name."""

from __future__ import annotations

from bot.engine.actions import ActionKind

QUIT_WORDS = frozenset({"q", "quit", "exit"})
AUTO_WORDS = frozenset({"auto", "托管"})  # 托管 is a word: a lone t is a card (a 10)
AUTOPASS_WORDS = frozenset({"autopass", "自动过"})
HELP_WORDS = frozenset({"h", "?", "help"})
YES_WORDS = frozenset({"y", "yes", "是"})
# Single letters that read as a command to a player but as one card to the parser:
# b (burn) is a big joker, s a small joker, t (托管) a 10. Typed alone, they are asked about.
LONE_LETTERS = frozenset({"b", "s", "t"})
# The one-letter actions that need no argument.
SIMPLE_KEYS = {
    "p": ActionKind.PASS,
    "r": ActionKind.RANG,
    "v": ActionKind.REVOLT,
    "d": ActionKind.DECLARE_POINT,
    "w": ActionKind.WAIVE,
}
