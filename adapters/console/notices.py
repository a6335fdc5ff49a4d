"""How the terminal words the table's outputs: a notice about your own seat in the second
person, which lines are paced while you watch, and which replies it does not print."""

from __future__ import annotations

import dataclasses

from bot.i18n import count_text, has_text
from bot.i18n.catalogue import Lang
from bot.table import FrontText, Notice, NoticeCode, ReplyCode
from bot.table.outputs import params_of

# Replies the terminal does not print: "ok", and the count that was "posted in the group"
# (the terminal prints the answer itself as a notice).
QUIET_REPLIES = frozenset({ReplyCode.OK, ReplyCode.COUNT_POSTED})
# What a person watches being played: a short pause after each, as a table shows them.
# The lines a play makes, with the terminal's own "you" wording of them.
PACED_NOTICES = frozenset(
    {
        NoticeCode.EV_PLAYED,
        FrontText("ev_played_you"),
        NoticeCode.EV_BURNED,
        FrontText("ev_burned_you"),
    }
)


def personal(out: Notice, my_name: str, my_seat: int | None, lang: Lang) -> Notice:
    """A notice about the player's own seat, in the second person ("You declare ...")."""
    you = f"{out.key}_you"
    if out.key == NoticeCode.COUNT_ANSWER and dict(out.params).get("asker") == my_name:
        # 报户 you asked for: "You ask AI 4 …", or about your own seat "Your own count".
        params = dict(out.params)
        answer, count = params.get("answer"), params.get("count")
        params["answer_text"] = count_text(
            answer if isinstance(answer, str) else None,
            count if isinstance(count, int) else None,
            lang,
        )
        key = "count_answer_self" if params.get("target") == my_seat else you
        return dataclasses.replace(out, key=FrontText(key), params=params_of(**params))
    if my_seat is not None and out.seat == my_seat and has_text(you, lang):
        return dataclasses.replace(out, key=FrontText(you))
    return out
