"""A finished hand for the page's replay: every frame of the records desk (the start of
play, each trick, the end) with every hand face up — a record exists only once its hand
is over (bot.records.desk), as for /replay in the chats."""

from __future__ import annotations

from bot.engine.cards import fmt
from bot.i18n.catalogue import Lang
from bot.records.desk import Opened
from bot.records.steps import Frame
from bot.records.summary import frame_caption

from .payload import JsonObj


def frame_json(frame: Frame, names: tuple[str, ...] | list[str], lang: Lang) -> JsonObj:
    st = frame.state
    return {
        "kind": frame.kind.value,
        "trick": frame.trick,
        "winner": frame.winner,
        "cards": frame.cards,
        "caption": frame_caption(frame, names, lang),
        "hands": [fmt(h) for h in st.hands],
        "status": [s.value for s in st.status],
    }


def replay_json(opened: Opened, lang: Lang) -> JsonObj:
    rec = opened.record
    names = list(rec.names)
    return {
        "number": opened.number,
        "hand_no": rec.hand_no,
        "names": names,
        "frames": [frame_json(f, names, lang) for f in opened.frames],
    }
