"""Turn replies and notices into text in the table's language."""

from __future__ import annotations

from typing import Any

from ..i18n import count_text, preset_name, t
from .outputs import Out, Reply

MINOR_KEYS = frozenset({"ev_played", "ev_passed", "ev_ranged", "ev_trick_won"})


def reply_text(reply: Reply, lang: str = "zh") -> str:
    params = dict(reply.params)
    if reply.key == "count_posted":
        params["answer_text"] = count_text(params.get("answer"), params.get("count"), lang)
    return t(reply.key, lang, **params)


def notice_text(out: Out, lang: str = "zh") -> str:
    params: dict[str, Any] = dict(out.params)
    if out.key == "count_answer":
        params["answer_text"] = count_text(params.get("answer"), params.get("count"), lang)
    if "preset" in params:
        params["preset"] = preset_name(str(params["preset"]), lang)
    return t(out.key, lang, **params)
