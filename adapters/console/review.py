"""``gouji review FILE --seat N [--json]``: a seat's three costliest decisions in a hand.

FILE is a scenario file (``gouji export``, ``gouji --watch --record``, /replay's
attachment, or one written by hand) or a stored record (JSON, format 2). The review is
``bot.ai.review``; the words are ``bot.records.teacher``'s. Bad input gets one line and
exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from bot.ai.review import ReviewConfig, review
from bot.engine.errors import GoujiError
from bot.engine.replay import scenario_error_line
from bot.engine.scenario import ScenarioError, decode
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.records import HandRecord
from bot.records.replay import RecordError, Replayed, replay
from bot.records.scenario import replay_scenario
from bot.records.teacher import review_text

MAX_DEALS = 1000


class BadInput(Exception):
    """One polite line for the reader."""


def load(raw: bytes, hand: int, lang: Lang) -> tuple[Replayed, tuple[str, ...]]:
    """The hand to review and its seat names, from a scenario file or a stored record."""
    try:
        obj: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        obj = None
    if isinstance(obj, dict) and "seed" in obj and "actions" in obj and "hands" not in obj:
        try:
            rec = HandRecord.from_json(obj, 1)
            return replay(rec), rec.names
        except (RecordError, GoujiError, KeyError, ValueError, TypeError):
            raise BadInput(t("rec_broken", lang, number=1)) from None
    try:
        played = replay_scenario(decode(raw))
    except ScenarioError as err:
        raise BadInput(scenario_error_line(err, lang)["message"]) from None
    if not 1 <= hand <= len(played):
        raise BadInput(t("review_bad_hand", lang, hand=hand, hands=len(played)))
    return played[hand - 1], ()


def review_main(
    file: str,
    seat: int,
    lang: Lang = "zh",
    as_json: bool = False,
    deals: int | None = None,
    hand: int = 1,
    out: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    try:
        if not 1 <= seat <= 6:
            raise BadInput(t("review_bad_seat", lang, seat=seat))
        if deals is not None and not 1 <= deals <= MAX_DEALS:
            raise BadInput(t("review_bad_deals", lang, most=MAX_DEALS))
        try:
            raw = Path(file).read_bytes()
        except OSError as err:
            raise BadInput(f"{file}: {err.strerror or type(err).__name__}") from None
        played, names = load(raw, hand, lang)
    except BadInput as err:
        print(str(err), file=sys.stderr)
        return 2
    config = ReviewConfig() if deals is None else ReviewConfig(deals=deals)
    got = review(played, seat, config)
    if as_json:
        for m in got.mistakes:
            print(json.dumps(m.to_json(), ensure_ascii=False), file=out)
        return 0
    print(review_text(got, hand, names or tuple(f"#{s}" for s in range(1, 7)), lang), file=out)
    return 0
