"""``rules`` at the terminal: the table's preset and every rule switch with its value, as
the chats' /rules names them (the switch names come from the same catalogue)."""

from __future__ import annotations

from dataclasses import fields

from bot.engine.rules import Rules, deck_size, make_rules
from bot.i18n import has_text, preset_name, t
from bot.i18n.catalogue import Lang
from bot.table.outputs import TableSnapshot


def _value(value: object, lang: Lang) -> str:
    if isinstance(value, bool):
        return t("console_on" if value else "console_off", lang)
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def deck_text(rules: Rules, lang: Lang) -> str:
    """How many cards are dealt, and which were taken out (青岛场: ten 3s and eight 4s)."""
    out = [
        t("console_rules_cards", lang, n=n, rank=rank)
        for rank, n in ((3, rules.remove_threes), (4, rules.remove_fours), (5, rules.remove_fives))
        if n
    ]
    removed = t(
        "console_rules_removed", lang, what="，".join(out) if lang == "zh" else ", ".join(out)
    )
    cards = deck_size(rules)
    each = f"{cards // 6}" if cards % 6 == 0 else f"{cards // 6}–{cards // 6 + 1}"
    return t("console_rules_deck", lang, cards=cards, each=each, removed=removed if out else "")


def rules_text(snap: TableSnapshot, lang: Lang) -> str:
    rules = snap.rules or make_rules(snap.settings.preset, dict(snap.settings.overrides))
    head = t("console_rules_head", lang, preset=preset_name(rules.preset, lang))
    skip = {"preset", "remove_threes", "remove_fours", "remove_fives"}
    items = [
        f"{t('sw_' + f.name, lang)}: {_value(getattr(rules, f.name), lang)}"
        for f in fields(Rules)
        if f.name not in skip and has_text("sw_" + f.name, lang)
    ]
    sep = "；" if lang == "zh" else "; "
    return "\n".join([head, deck_text(rules, lang), sep.join(items)])
