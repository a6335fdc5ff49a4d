"""The terminal step-through of a record (``gouji replay FILE``), the export of a stored
hand (``gouji export``) and the record of a watched hand (``gouji --watch --record``)."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.engine.replay import scenario_error_line
from bot.engine.rules import PresetName
from bot.engine.scenario import ScenarioError, decode
from bot.engine.views import public_view
from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.records import HandRecord, hand_scenario, match_scenario
from bot.records.replay import RecordCode, RecordError, Replayed
from bot.records.scenario import replay_scenario
from bot.records.steps import Frame, FrameKind, frames
from bot.records.summary import event_line, frame_caption, seat_label
from bot.store import Store, is_postgres_url
from bot.table import ChatRef

from .format import Painter, grouped, last_play_text, seat_marks
from .screen import pad

InputFn = Callable[[str], str]
NO_NAMES: tuple[str, ...] = ("",) * 6


def frame_text(
    frame: Frame, names: Sequence[str], lang: Lang, position: str, paint: Painter
) -> str:
    """One frame: the caption, what happened since the last frame, and every seat with
    its last play this trick and its whole hand (a record is shown once the hand is over)."""
    st = frame.state
    pub = public_view(st)
    lines = [paint.bold(f"[{position}] {frame_caption(frame, names, lang)}")]
    for e in frame.events:
        text = event_line(e, names, lang)
        if text:
            lines.append(paint.dim("  · " + text))
    for sp in pub.seats:
        marks = seat_marks(sp, lang, burning=False)
        last = last_play_text(sp.last, lang)
        hand = grouped(st.hands[sp.seat - 1]) or t("rp_hand_empty", lang)
        turn = "▶" if pub.to_act == sp.seat and frame.kind is FrameKind.START else " "
        head = f"{turn} {seat_label(names, sp.seat, lang)} {' '.join(marks)}".rstrip()
        row = f"{pad(head, 16)} {pad(last, 14)} {t('rp_hand_of', lang)}: {hand}"
        lines.append(paint.seat(sp.seat, row))
    return "\n".join(lines)


def pages(played: Sequence[Replayed]) -> list[tuple[int, Frame]]:
    """Every frame of every hand, tagged with its hand index."""
    return [(k, f) for k, hand in enumerate(played) for f in frames(hand)]


def step_through(
    played: Sequence[Replayed],
    names: Sequence[str],
    lang: Lang,
    out: TextIO,
    input_fn: InputFn | None,
    paint: Painter,
) -> int:
    """Show the frames; with ``input_fn`` the reader moves through them, else all print."""
    shown = pages(played)
    for hand in played:
        for r in hand.refused:
            message = t(r.code, lang, **dict(r.params))
            print(paint.warn(t("rp_refused", lang, i=r.index, message=message)), file=out)
    i = 0
    while 0 <= i < len(shown):
        k, frame = shown[i]
        if len(played) > 1 and (i == 0 or shown[i - 1][0] != k):
            print(paint.bold(t("rp_match_hand", lang, k=k + 1)), file=out)
        position = t("rp_position", lang, i=i, n=len(shown) - 1)
        print(frame_text(frame, names, lang, position, paint), file=out)
        if input_fn is None:
            i += 1
            continue
        i = _move(i, len(shown), input_fn, lang, out, paint)
    return 0


def _move(i: int, count: int, input_fn: InputFn, lang: Lang, out: TextIO, paint: Painter) -> int:
    """The step to show next: Enter or n the next one, p the one before, a number that
    step, q (or the end of input) none (-1). Anything else is answered, not taken as
    "next"."""
    while True:
        try:
            answer = input_fn(t("rp_prompt", lang)).strip().lower()
        except EOFError:
            return -1
        if answer in ("q", "quit", "exit"):
            return -1
        if answer in ("", "n"):
            return i + 1
        if answer == "p":
            return max(0, i - 1)
        if answer.isdigit():
            return min(int(answer), count - 1)
        print(paint.warn(t("rp_unknown", lang, text=answer)), file=out)


def replay_main(
    file: str,
    lang: Lang = "zh",
    show_all: bool = False,
    out: TextIO | None = None,
    input_fn: InputFn | None = input,
) -> int:
    """``gouji replay FILE``: step through a scenario file (an exported record)."""
    out = out or sys.stdout
    try:
        played = replay_scenario(decode(Path(file).read_bytes()))
    except OSError as err:
        print(f"{file}: {err.strerror or type(err).__name__}", file=out)
        return 2
    except ScenarioError as err:
        print(scenario_error_line(err, lang)["message"], file=out)
        return 2
    paint = Painter(out.isatty())
    interactive = input_fn is not None and not show_all
    return step_through(played, NO_NAMES, lang, out, input_fn if interactive else None, paint)


def _record_error_text(err: RecordError, lang: Lang) -> str:
    key = "rec_incomplete" if err.code is RecordCode.INCOMPLETE else "rec_broken"
    return t(key, lang, number=err.number)


def scenario_json(scenario: dict[str, Any]) -> str:
    """The file: one action per line, so a diff or a chat preview stays readable."""
    return json.dumps(scenario, ensure_ascii=False, indent=1) + "\n"


def db_problem(db: str) -> str | None:
    """Why ``db`` cannot be exported from, if it cannot: opening a SQLite file that is not
    there would create an empty database (a typo would leave one behind)."""
    if is_postgres_url(db):
        return None
    path = Path(db)
    if not path.exists():
        return f"no such database file: {db}"
    if not path.is_file():
        return f"{db} is not a file"
    return None


async def _stored_hands(db: str, group: str, number: int, limit: int) -> list[tuple[int, Any]]:
    store = Store(db)
    await store.open()
    try:
        return await store.hands_from(group, number, limit)
    finally:
        await store.close()


async def export_main(
    db: str,
    group: str,
    number: int,
    match: bool = False,
    path: str | None = None,
    lang: Lang = "zh",
    out: TextIO | None = None,
) -> int:
    """``gouji export``: write hand ``number`` of ``group`` (and, with ``match``, the later
    hands of its match) as a scenario file."""
    out = out or sys.stdout
    problem = db_problem(db)
    if problem is not None:
        print(f"gouji: {problem}", file=sys.stderr)
        return 2
    try:
        rows = await _stored_hands(db, group, number, 1000 if match else 1)
    except Exception as err:  # not a database, or one this version cannot read: one line
        print(f"gouji: cannot read {db}: {err}", file=sys.stderr)
        return 1
    if not rows:
        print(t("rec_no_such_hand", lang, number=number), file=sys.stderr)
        return 1
    try:
        recs = [HandRecord.from_json(raw, n) for n, raw in rows]
        first = recs[0]
        if match:
            same = [r for r in recs if r.match_id is not None and r.match_id == first.match_id]
            scenario, count = match_scenario(same or recs[:1])
        else:
            scenario, count = hand_scenario(first), 1
    except RecordError as err:
        print(_record_error_text(err, lang), file=sys.stderr)
        return 1
    text = scenario_json(scenario)
    if path is None:
        out.write(text)
    else:
        Path(path).write_text(text, encoding="utf-8")
        print(t("rec_written", lang, path=path, hands=count), file=sys.stderr)
    return 0


async def watch_and_record(
    preset: PresetName, seed: int | None, lang: Lang, path: str, out: TextIO | None = None
) -> int:
    """``gouji --watch --record FILE``: watch one hand and write its record (a voided deal
    and its redeal go in together, under ``next_hands``)."""
    from .app import ConsoleTable

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "watch.sqlite3")
        await store.open()
        try:
            table = ConsoleTable(
                preset=preset, seed=seed, lang=lang, hands=1, watch=True, out=out, store=store
            )
            code = await table.run()
            rows = await store.hands_from(ChatRef("console", "local").group_key, 1, 1000)
        finally:
            await store.close()
    if not rows:
        return code or 1
    scenario, count = match_scenario([HandRecord.from_json(raw, n) for n, raw in rows])
    Path(path).write_text(scenario_json(scenario), encoding="utf-8")
    print(t("rec_written", lang, path=path, hands=count), file=out or sys.stdout)
    return code
