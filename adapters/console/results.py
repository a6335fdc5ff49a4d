"""A finished hand's result in the terminal: places, 比赛's itemized ±1s, team scores and
tributes, in columns aligned by display width (头科 and "1st out" are not the same width)."""

from __future__ import annotations

from bot.i18n import bonus_kind, image_label, place_name, t, tribute_kind
from bot.i18n.catalogue import Lang
from bot.table import HandFinished
from bot.table.outputs import TableSnapshot

from .format import Painter
from .screen import pad, width


def result_lines(out: HandFinished, snap: TableSnapshot, lang: Lang, paint: Painter) -> list[str]:
    """Places with their points, then each ±1 of 比赛 scoring, so the rows add up."""
    res = out.result
    lines = [paint.bold(t("result_title", lang, hand_no=out.hand_no))]
    places = [place_name(i + 1, lang) for i in range(len(res.places))]
    names = [snap.name_of(seat) for seat in res.places]
    pw = max((width(p) for p in places), default=0)
    nw = max((width(n) for n in names), default=0)
    for place, seat, name in zip(places, res.places, names, strict=True):
        points = res.seat_points[seat - 1]
        lines.append(f"  {pad(place, pw)}  {seat}  {pad(name, nw)}  {points:+d}")
    for bonus in res.bonuses:
        earner, payer = bonus.earner, bonus.payer
        lines.append(
            f"  {bonus_kind(bonus.kind, lang)}: {earner} {snap.name_of(earner)} +1, "
            f"{payer} {snap.name_of(payer)} -1"
        )
    a, b = res.team_scores
    if res.sweep_team is None:
        for team, raw, final in (
            ("1-3-5", res.itemized_scores()[0], a),
            ("2-4-6", res.itemized_scores()[1], b),
        ):
            if raw != final:  # positive_only: the losing team records 0
                lines.append("  " + image_label("winners_only", lang, team=team, raw=f"{raw:+d}"))
    lines.append(f"  135: {a:+d}   246: {b:+d}")
    for tr in res.tributes:
        lines.append(f"  {tribute_kind(tr.kind, lang)}: {tr.giver} → {tr.receiver} ×{tr.count}")
    ta, tb = out.totals
    lines.append(f"  Σ 135: {ta:+d}   246: {tb:+d}")
    return lines
