"""Texts of records, replays and "why" answers (Chinese first, English available).

Kept in the shared catalogue's shape (a key → (zh, en) pair) and looked up through
``rt``, which falls back to the shared texts (event lines, place and tribute names).
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from ..i18n.texts import UI

TEXTS: dict[str, tuple[str, str]] = {
    # frames
    "rp_start": ("开始出牌：{name} 先出。", "Play begins: {name} leads."),
    "rp_trick": ("第 {n} 轮：{name} 以 {cards} 拿下。", "Trick {n}: {name} wins with {cards}."),
    "rp_end": ("本局结束。", "The hand is over."),
    "rp_voided": ("本局作废（革命）。", "The hand was voided (revolution)."),
    "rp_position": ("第 {i}/{n} 步", "Step {i}/{n}"),
    "rp_hand_of": ("手牌", "hand"),
    "rp_hand_empty": ("（没牌了）", "(no cards)"),
    "rp_prompt": (
        "回车/n 下一步 · p 上一步 · 数字 跳到第几步 · q 退出：",
        "Enter/n next · p previous · a number jumps to that step · q quit: ",
    ),
    "rp_refused": ("第 {i} 个操作被拒：{message}", "Action {i} was refused: {message}"),
    "rp_match_hand": ("—— 第 {k} 把 ——", "—— hand {k} ——"),
    # summaries and lists
    "rec_title": (
        "牌局 #{number} · {preset} · 第 {hand_no} 局",
        "Record #{number} · {preset} · hand {hand_no}",
    ),
    "rec_places": ("名次：{places}", "Places: {places}"),
    "rec_scores": ("一三五 {a} 分，二四六 {b} 分", "Team 1-3-5 {a}, team 2-4-6 {b}"),
    "rec_opened": ("开点：{names}", "Opened: {names}"),
    "rec_burned": ("烧牌：{names}", "Burned: {names}"),
    "rec_leader": ("先出：{name}", "Led by: {name}"),
    "rec_tribute": (
        "{giver} → {receiver}：{kind} {count} 张 {cards}",
        "{giver} → {receiver}: {kind}, {count} card(s) {cards}",
    ),
    "rec_tributes": ("本局进贡：", "Tributes this hand:"),
    "rec_no_tributes": ("本局没有进贡。", "No tributes this hand."),
    "rec_owes_next": ("下一局要进贡：", "Owed to the next hand:"),
    "rec_none": ("无", "none"),
    "rec_voided": ("作废", "void"),
    "rec_history_title": ("本群最近 {n} 局：", "This group's last {n} hands:"),
    "rec_history_line": (
        "#{number} · {preset} · 头科 {first} · 一三五 {a} / 二四六 {b}",
        "#{number} · {preset} · 1st {first} · 1-3-5 {a} / 2-4-6 {b}",
    ),
    "rec_history_void": ("#{number} · {preset} · 作废", "#{number} · {preset} · void"),
    "rec_history_empty": ("本群还没有打完的牌局。", "No finished hands in this group yet."),
    "rec_history_hint": (
        "发送 /replay 编号 看回放，/why 编号 步数 问裁判。",
        "Send /replay N to watch one, /why N STEP to ask the referee.",
    ),
    "rec_no_such_hand": ("没有编号为 #{number} 的牌局。", "There is no hand #{number}."),
    "rec_in_play": (
        "这一局还在进行，打完才能看回放（保护大家的手牌）。",
        "That hand is still in play: replays open once it is over (the cards stay private).",
    ),
    "rec_no_hands": ("本群还没有打完的牌局。", "No finished hands in this group yet."),
    "rec_incomplete": (
        "#{number} 是旧版本记录的，无法导出。",
        "Hand #{number} was stored by an older version and cannot be exported.",
    ),
    "rec_broken": (
        "#{number} 的记录按现在的规则回放不了。",
        "Hand #{number} no longer replays under the current engine.",
    ),
    "rec_file_caption": (
        "牌局 #{number} 的对局文件：gouji referee 文件 可复核。",
        "Record #{number} as a scenario file: check it with gouji referee FILE.",
    ),
    "rec_written": ("已写入 {path}（{hands} 局）。", "Wrote {path} ({hands} hand(s))."),
    "rec_stale": (
        "这个回放已经过期了，请重新发送 /replay。",
        "This replay is stale: send /replay again.",
    ),
    "rec_not_yours": (
        "这是别人打开的回放，请自己发送 /replay。",
        "This replay is someone else's: send /replay yourself.",
    ),
    "rec_bad_id": ("牌局编号应是数字，如 /replay 12。", "A hand id is a number, e.g. /replay 12."),
    "rec_bad_step": (
        "步数应是 0 到 {last} 的数字。",
        "The step must be a number from 0 to {last}.",
    ),
    # why
    "why_usage": (
        "用法：回复桌面消息发 /why，或 /why 编号 步数（步数见回放）。",
        "Usage: reply to a table message with /why, or /why ID STEP (steps as in the replay).",
    ),
    "why_refused": (
        "第 {i} 步 {name} 的 {action} 被拒：{message}（规则 {section}）",
        "Step {i}: {name}'s {action} was refused: {message} (rules {section})",
    ),
    "why_played": (
        "第 {i} 步 {name} {action}：合规。{detail}",
        "Step {i}: {name} {action}: legal. {detail}",
    ),
    "why_trick": (
        "第 {n} 轮为什么结束：{name} 的 {cards} 没人再压（{reason}）。（规则 {section}）",
        "Why trick {n} ended: nobody beat {name}'s {cards} ({reason}). (rules {section})",
    ),
    "why_trick_all_passed": ("其余各家都过了", "every other seat passed"),
    "why_trick_gousi": ("够死级：对头没能接", "a sure play: the opposite could not answer"),
    "why_trick_opposite": ("对头放行（对头说了算）", "the opposite let it stand (final say)"),
    "why_tribute": (
        "{giver} 欠 {receiver} {count} 张{kind}：{reason}（规则 {section}）",
        "{giver} owes {receiver} {count} card(s), {kind}: {reason} (rules {section})",
    ),
    "why_tribute_luo": (
        "{giver} 是{place}，按名次向对方头科/二科进落贡",
        "{giver} finished {place}, so pays the finishing tribute",
    ),
    "why_tribute_men": ("{giver} 被闷（憋三）", "{giver} was caught holding threes"),
    "why_tribute_burn": ("{giver} 被烧", "{giver} was burned"),
    "why_tribute_point": ("{giver} 没开点", "{giver} did not open a point"),
    "why_tribute_sweep": ("串三户：{giver} 一方被包", "a sweep: {giver}'s team was swept"),
    "why_tribute_bet": ("点数押注的结果", "the outcome of a point bet"),
    "why_nothing": ("第 {i} 步没有需要解释的。", "Nothing to explain at step {i}."),
    "why_no_tributes": ("这一局没有欠下进贡。", "This hand owes no tributes."),
    "why_events": ("发生了：{events}", "What happened: {events}"),
}


def rt(key: str, lang: str = "zh", **params: Any) -> str:
    """A records text (falls back to the shared catalogue)."""
    pair = TEXTS.get(key)
    if pair is None:
        return t(key, lang, **params)
    template = pair[0] if lang == "zh" else pair[1]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def has_shared_text(key: str) -> bool:
    return key in UI
