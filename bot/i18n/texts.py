"""Localized texts: error messages by code, and UI strings by key. Chinese first."""

from __future__ import annotations

from typing import Any

LANGS = ("zh", "en")

ERRORS: dict[str, tuple[str, str]] = {
    "hand_over": ("这一局已经结束了。", "This hand is over."),
    "unknown_action": ("不认识这个操作：{action}。", "Unknown action: {action}."),
    "bad_seat": ("座位号应为 1 到 6。", "Seats are numbered 1 to 6."),
    "bad_target": ("目标座位应为 1 到 6。", "The target seat must be 1 to 6."),
    "wrong_phase": ("现在不能这样做（当前阶段：{phase}）。", "Not now (current phase: {phase})."),
    "seat_out": ("这个座位已经不在牌局中了。", "That seat is no longer in play."),
    "bad_notation": (
        "牌面写法有误：第 {position} 个字符“{char}”不认识。可用：3456789TJQKA2SB。",
        "Bad card notation: character {char!r} at position {position}. Use 3456789TJQKA2SB.",
    ),
    "empty_play": ("请至少出一张牌。", "Play at least one card."),
    "mixed_ranks": (
        "一手牌只能有一种点数（可贴2、挂花）：{ranks}。",
        "A play has one base rank only (plus 2s and jokers): {ranks}.",
    ),
    "no_tie_qian": ("本局规则不许贴钱（2 不能带在别的牌上）。", "Adding 2s to a play is off here."),
    "threes_alone": ("憋三：3 不能贴钱或挂花。", "Threes last: 3s take no 2s or jokers."),
    "fours_alone": ("点四：4 不能贴钱或挂花。", "Fours after opening: 4s take no 2s or jokers."),
    "cards_not_in_hand": ("你手里没有这些牌。", "You do not hold those cards."),
    "passed_this_trick": (
        "你这一轮已经过牌了，本轮不能再出。", "You passed in this trick and are out of it."
    ),
    "gouji_opposite_only": (
        "够级牌只有对头能接（别人只能烧牌）。",
        "Only the opposite may answer a gouji play (others may only burn).",
    ),
    "not_your_turn": ("还没轮到你。", "It is not your turn."),
    "lead_cannot_pass": ("你是首发，不能过牌。", "You lead: you cannot pass."),
    "three_must_be_last": (
        "憋三：3 只能最后一手全部打出。", "Threes last: your 3s go out together as your last play."
    ),
    "fours_after_kaidian": (
        "点四：开点后的首发才能出 4，且 4 不能用来接牌。",
        "Fours: 4s are led right after you open, never before, never as an answer.",
    ),
    "must_lead_fours": (
        "点四：开点后这一手必须把 4 全部打出。", "Fours: having opened, lead all your 4s now."
    ),
    "needs_joker_while_burning": (
        "烧牌中：除最后一手外每手都要挂花。",
        "Burning: every play but your last must carry a joker.",
    ),
    "size_mismatch": ("张数不对：要出 {size} 张。", "Wrong number of cards: play {size}."),
    "too_weak": ("这手牌管不上。", "That does not beat the play on top."),
    "burn_not_allowed": ("现在不能烧这手牌。", "You cannot burn this play now."),
    "burn_formula": (
        "手牌太散不能烧：点数种类减花数须不超过规定。",
        "Your hand is too spread to burn (ranks minus jokers is over the limit).",
    ),
    "burn_needs_kaidian": ("本局规则：开点后才能烧牌。", "You must open (开点) before burning."),
    "rang_not_allowed": ("现在不能让牌。", "You cannot defer now."),
    "revolt_not_allowed": ("现在不能革命。", "You cannot declare a revolution now."),
    "declare_not_allowed": ("现在不能明点。", "You cannot declare a point now."),
    "waive_not_allowed": ("你没有够死级可以放弃。", "You have no sure plays to waive."),
    "count_refused": ("本局规则不报户。", "Card counts are not told under these rules."),
    "return_not_owed": ("你不欠这家还贡。", "You owe no return to that seat."),
    "return_count": ("还贡要还 {count} 张。", "Return exactly {count} cards."),
    "unknown_switch": (
        "没有这个规则开关：{switch}。可用：{allowed}。",
        "No such rule switch: {switch}. Known: {allowed}.",
    ),
    "bad_switch_value": (
        "开关 {switch} 不能设为 {value}。可选：{allowed}。",
        "Switch {switch} cannot be {value}. Allowed: {allowed}.",
    ),
    "unknown_preset": (
        "没有这个玩法：{preset}。可选：{allowed}。",
        "No such preset: {preset}. Choose from: {allowed}.",
    ),
    "bad_scenario": ("对局文件有误：{detail}", "Bad scenario file: {detail}"),
}

UI: dict[str, tuple[str, str]] = {}


def _fill(template: str, params: dict[str, Any]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def error_text(code: str, params: dict[str, Any] | None = None, lang: str = "zh") -> str:
    pair = ERRORS.get(code)
    if pair is None:
        return code
    return _fill(pair[0] if lang == "zh" else pair[1], params or {})


def t(key: str, lang: str = "zh", **params: Any) -> str:
    pair = UI.get(key)
    if pair is None:
        return key
    return _fill(pair[0] if lang == "zh" else pair[1], params)
