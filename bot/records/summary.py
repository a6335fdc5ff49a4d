"""What a finished hand comes to, in words: the summary posted with a replay, the lines of
the group's history, and one line per public event for a step-through."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.events import Burned, Event, TributeCards, TributeGiven
from ..engine.rules import is_preset
from ..engine.state import Tribute, TributeKind
from ..i18n import has_text, place_name, preset_name, t, tribute_kind
from ..i18n.catalogue import Lang
from .record import HandRecord
from .replay import Replayed
from .steps import Frame, FrameKind


def seat_label(names: Sequence[str], seat: int, lang: Lang = "zh") -> str:
    """``3 名字``; "3 号" / "seat 3" when the seat's name is not known (never ``#3``: at
    the terminal that is option 3)."""
    name = names[seat - 1] if 1 <= seat <= len(names) else ""
    if name and name != f"#{seat}":
        return f"{seat} {name}"
    return t("seat_label", lang, seat=seat)


def event_line(e: Event, names: Sequence[str], lang: Lang = "zh") -> str | None:
    """A public event as the table announces it (None for events it does not announce)."""
    key = f"ev_{e.kind.value}"
    if not has_text(key):
        return None
    params: dict[str, Any] = e.params()
    if e.seat is not None:
        params["seat"] = e.seat
        params["name"] = seat_label(names, e.seat, lang)
    return t(key, lang, **params)


@dataclass(frozen=True, slots=True)
class GivenTribute:
    """A tribute given at the start of the hand, with its cards (shown once the hand is over)."""

    giver: int
    receiver: int
    count: int
    kind: TributeKind
    cards: str


def given_tributes(played: Replayed) -> list[GivenTribute]:
    kinds: dict[tuple[int, int], list[tuple[int, TributeKind]]] = {}
    cards: dict[tuple[int, int], list[str]] = {}
    for e in played.start_events:
        match e:
            case TributeGiven(seat=giver, target=receiver, count=n, tribute_kind=kind):
                kinds.setdefault((giver, receiver), []).append((n, kind))
            case TributeCards(seat=giver, target=receiver, cards=shown_cards):
                cards.setdefault((giver, receiver), []).append(shown_cards)
            case _:
                pass
    out = []
    for pair, given in kinds.items():
        shown = cards.get(pair, [])
        for k, (count, kind) in enumerate(given):
            out.append(
                GivenTribute(pair[0], pair[1], count, kind, shown[k] if k < len(shown) else "")
            )
    return out


def frame_caption(frame: Frame, names: Sequence[str], lang: Lang = "zh") -> str:
    """What a step-through frame shows, in one line."""
    st = frame.state
    if frame.kind is FrameKind.START:
        return t("rp_start", lang, name=seat_label(names, st.to_act or st.leader, lang))
    if frame.kind is FrameKind.TRICK:
        who = seat_label(names, frame.winner or 0, lang)
        return t("rp_trick", lang, n=frame.trick, name=who, cards=frame.cards)
    if st.result is not None and st.result.voided:
        return t("rp_voided", lang)
    places = [
        f"{place_name(i + 1, lang)} {seat_label(names, s, lang)}"
        for i, s in enumerate(st.result.places if st.result else ())
    ]
    return t("rp_end", lang) + " " + " · ".join(places)


def burners(played: Replayed) -> list[int]:
    """Seats that burned during the hand, in order (a seat once)."""
    out: list[int] = []
    for evs in played.events:
        for e in evs:
            if isinstance(e, Burned) and e.seat not in out:
                out.append(e.seat)
    return out


def _names_list(seats: Iterable[int], names: Sequence[str], lang: Lang) -> str:
    text = (
        "、".join(seat_label(names, s) for s in seats)
        if lang == "zh"
        else ", ".join(seat_label(names, s) for s in seats)
    )
    return text or t("rec_none", lang)


def _tribute_line(tr: Tribute | GivenTribute, names: Sequence[str], lang: Lang, cards: str) -> str:
    giver = tr.giver
    receiver = tr.receiver
    return t(
        "rec_tribute",
        lang,
        giver=seat_label(names, giver),
        receiver=seat_label(names, receiver),
        kind=tribute_kind(tr.kind, lang),
        count=tr.count,
        cards=cards,
    )


def summary_text(rec: HandRecord, played: Replayed, lang: Lang = "zh") -> str:
    """Result, who led, who burned, who opened, the tributes given and owed."""
    names = rec.names
    lines = [
        t(
            "rec_title",
            lang,
            number=rec.number,
            preset=preset_name(rec.rules.preset, lang),
            hand_no=rec.hand_no,
        )
    ]
    final = played.final
    if rec.voided:
        lines.append(t("rp_voided", lang))
    else:
        places = [
            f"{place_name(i + 1, lang)} {seat_label(names, s)}" for i, s in enumerate(rec.places)
        ]
        lines.append(t("rec_places", lang, places=" · ".join(places)))
        a, b = rec.team_scores
        lines.append(t("rec_scores", lang, a=a, b=b))
    lines.append(t("rec_leader", lang, name=seat_label(names, rec.leader)))
    lines.append(t("rec_burned", lang, names=_names_list(burners(played), names, lang)))
    if final.rules.dadian:
        lines.append(t("rec_opened", lang, names=_names_list(sorted(final.opened), names, lang)))
    given = given_tributes(played)
    if given:
        lines.append(t("rec_tributes", lang))
        lines += ["  " + _tribute_line(g, names, lang, g.cards) for g in given]
    else:
        lines.append(t("rec_no_tributes", lang))
    if rec.tributes:
        lines.append(t("rec_owes_next", lang))
        lines += ["  " + _tribute_line(x, names, lang, "").rstrip() for x in rec.tributes]
    return "\n".join(lines)


def history_text(rows: Sequence[tuple[int, Mapping[str, Any]]], lang: Lang = "zh") -> str:
    """The group's recent hands, one line each (newest first)."""
    if not rows:
        return t("rec_history_empty", lang)
    lines = [t("rec_history_title", lang, n=len(rows))]
    for number, raw in rows:
        stored = raw.get("preset")
        preset = preset_name(stored, lang) if is_preset(stored) else str(stored)
        if raw.get("voided"):
            lines.append(t("rec_history_void", lang, number=number, preset=preset))
            continue
        names = list(raw.get("names") or [])
        places = list(raw.get("places") or [0])
        first = places[0]
        who = seat_label(names, first) if len(names) == 6 else f"#{first}"
        a, b = [*list(raw.get("team_scores") or []), 0, 0][:2]
        lines.append(t("rec_history_line", lang, number=number, preset=preset, first=who, a=a, b=b))
    lines.append(t("rec_history_hint", lang))
    return "\n".join(lines)
