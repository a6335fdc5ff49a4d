"""The review of a finished hand as text: the asker's three costliest decisions.

``bot.ai.review`` finds them; this module words them (gettext, zh and en) for the
terminal and the chat front ends, which only send the text privately.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ai.review import Mistake, Review
from ..engine.actions import Action, ActionKind
from ..engine.cards import fmt
from ..i18n import t
from ..i18n.catalogue import Lang
from .summary import seat_label


def action_text(a: Action | None, lang: Lang) -> str:
    """A move as a player reads it: the cards, 过, 让, 烧 … or 不烧."""
    if a is None:
        return t("review_no_burn", lang)
    if a.kind is ActionKind.PASS:
        return t("review_pass", lang)
    if a.kind is ActionKind.RANG:
        return t("review_rang", lang)
    cards = fmt(a.cards) if a.cards is not None else ""
    if a.kind is ActionKind.BURN:
        return t("review_burn", lang, cards=cards)
    return cards


def mistake_text(k: int, m: Mistake, lang: Lang) -> str:
    line = t(
        "review_line",
        lang,
        k=k,
        trick=m.trick,
        chosen=action_text(m.chosen, lang),
        better=action_text(m.better, lang),
        cost=f"{m.cost:.1f}",
    )
    if m.lesson is not None:
        line += "\n" + t("review_reason", lang, text=t(m.lesson.key, lang))
    return line


def review_text(review: Review, number: int, names: Sequence[str], lang: Lang) -> str:
    """The whole answer to ``/review``: a heading, up to three decisions, a note."""
    head = t(
        "review_head",
        lang,
        number=number,
        name=seat_label(names, review.seat),
        decisions=review.decisions,
    )
    if not review.mistakes:
        return head + "\n" + t("review_none", lang)
    body = [mistake_text(k, m, lang) for k, m in enumerate(review.mistakes, 1)]
    return "\n".join([head, *body, t("review_note", lang)])
