"""Every word drawn on an image, Chinese first; English uses the terms of RULES.md §0."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.state import PLACE_NAMES_EN, PLACE_NAMES_ZH

LABELS: dict[str, tuple[str, str]] = {
    "seat": ("{n}号", "Seat {n}"),
    "seat_short": ("{n}", "{n}"),
    "team": ("联邦 {team}", "Team {team}"),
    "hand_no": ("第{n}局", "Hand {n}"),
    "cards": ("{n}张", "{n} cards"),
    "card": ("{n}张", "{n} card"),
    "cards_total": ("共{n}张", "{n} cards"),
    "pass": ("过", "pass"),
    "rang": ("让", "defer"),
    "opened": ("已开点", "opened"),
    "opened_short": ("开点", "opened"),
    "burning": ("烧牌中", "burning"),
    "burning_short": ("烧", "burn"),
    "revolted": ("革命", "revolution"),
    "autoplay": ("托管", "autoplay"),
    "headless": ("无头", "headless"),
    "caught": ("被闷", "caught"),
    "dead": ("出局", "dead"),
    "to_act": ("出牌中", "to act"),
    "turn_of": ("轮到 {who}", "{who} to act"),
    "top": ("最大", "top"),
    "top_play": ("桌面最大：{who}", "On top: {who}"),
    "gouji": ("够级", "gouji"),
    "free_play": ("四户乱缠", "four-way free play"),
    "lead": ("{who} 首发", "{who} leads"),
    "phase_return": ("还贡中", "returning tribute"),
    "phase_over": ("本局结束", "hand over"),
    "phase_voided": ("流局，重新发牌", "voided: redeal"),
    "no_cards": ("手牌已出完", "no cards left"),
    "teammate_hand": ("{who} 的牌", "{who}'s hand"),
    "result_title": ("本局结果", "Hand result"),
    "result_title_n": ("第{n}局结果", "Hand {n} result"),
    "points": ("{p}分", "{p} pt"),
    "team_score": ("本局得分", "Hand score"),
    "sweep": ("串三户 ×{m}", "sweep ×{m}"),
    "tributes": ("下局进贡", "Tribute next hand"),
    "no_tribute": ("无进贡", "no tribute"),
    "tribute_row": ("{giver} → {receiver}  {count}张", "{giver} → {receiver}  {count}"),
    "match_total": ("总比分", "Match total"),
    "voided": ("流局（两家以上革命），重新发牌", "Voided (two or more revolutions): redeal"),
}

PRESET_LABELS: dict[str, tuple[str, str]] = {
    "dagang": ("大纲", "Standard"),
    "qingdao": ("青岛场", "Qingdao"),
    "weifang": ("潍坊场", "Weifang"),
    "dazhong": ("大众场", "Dazhong"),
    "match": ("比赛", "Match"),
}

TRIBUTE_KINDS: dict[str, tuple[str, str]] = {
    "men": ("闷贡", "caught-threes tribute"),
    "burn": ("烧贡", "burn tribute"),
    "point": ("点贡", "point tribute"),
    "luo": ("落贡", "finish tribute"),
    "sweep": ("串三户贡", "sweep tribute"),
    "mingdian": ("明点", "open-point stake"),
    "yudian": ("预点", "pre-deal point stake"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def label(key: str, lang: str = "zh", **params: object) -> str:
    return _pick(LABELS[key], lang).format(**params)


def cards_label(n: int, lang: str = "zh") -> str:
    return label("card" if n == 1 else "cards", lang, n=n)


def preset_label(preset: str, lang: str = "zh") -> str:
    pair = PRESET_LABELS.get(preset)
    return _pick(pair, lang) if pair else preset


def tribute_label(kind: str, lang: str = "zh") -> str:
    pair = TRIBUTE_KINDS.get(kind)
    return _pick(pair, lang) if pair else kind


def place_label(place: int, lang: str = "zh") -> str:
    names = PLACE_NAMES_EN if lang == "en" else PLACE_NAMES_ZH
    return names[place - 1]


def seat_name(names: Sequence[str] | None, seat: int, lang: str = "zh") -> str:
    """The seat's display name, or "N号" when the caller has none (short list, blank)."""
    if names and len(names) >= seat and names[seat - 1].strip():
        return names[seat - 1]
    return label("seat", lang, n=seat)


def team_label(seat: int, lang: str = "zh") -> str:
    return label("team", lang, team="1-3-5" if seat % 2 else "2-4-6")


def all_strings(lang: str) -> list[str]:
    """Every fixed string (templates filled with digits), for the glyph-coverage test."""
    out = [_pick(p, lang) for p in LABELS.values()]
    out += [_pick(p, lang) for p in PRESET_LABELS.values()]
    out += [_pick(p, lang) for p in TRIBUTE_KINDS.values()]
    out += list(PLACE_NAMES_EN if lang == "en" else PLACE_NAMES_ZH)
    return [s.replace("{", "").replace("}", "") for s in out]
