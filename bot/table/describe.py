"""Turn replies, notices and private notes into text in the table's language."""

from __future__ import annotations

from ..engine.errors import ErrorCode
from ..engine.rules import is_preset
from ..i18n import count_text, preset_name, t
from ..i18n.catalogue import Lang
from ..present.labels import allowed_text, setting_label
from .codes import NoticeCode, ReplyCode
from .outputs import Notice, Param, Params, PrivateNote, Reply


def _str(value: Param) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Param) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _fill(key: str, params: Params, lang: Lang) -> dict[str, Param]:
    values = dict(params)
    if key in (ReplyCode.COUNT_POSTED, NoticeCode.COUNT_ANSWER):
        answer, count = _str(values.get("answer")), _int(values.get("count"))
        values["answer_text"] = count_text(answer, count, lang)
    switch = _str(values.get("switch"))
    if key == ErrorCode.BAD_SWITCH_VALUE and switch is not None:
        # Refusals name the setting and what it accepts in words, in the reader's language.
        allowed = allowed_text(switch, lang)
        values["switch"] = setting_label(switch, lang)
        if allowed is not None:
            values["allowed"] = allowed
    preset = values.get("preset")
    if is_preset(preset):
        values["preset"] = preset_name(preset, lang)
    return values


def reply_text(reply: Reply, lang: Lang = "zh") -> str:
    return t(reply.key, lang, **_fill(reply.key, reply.params, lang))


def notice_text(out: Notice, lang: Lang = "zh") -> str:
    return t(out.key, lang, **_fill(out.key, out.params, lang))


def note_text(out: PrivateNote, lang: Lang = "zh") -> str:
    return t(out.key, lang, **_fill(out.key, out.params, lang))
