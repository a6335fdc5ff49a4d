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
        "你这一轮已经过牌了，本轮不能再出。",
        "You passed in this trick and are out of it.",
    ),
    "gouji_opposite_only": (
        "够级牌只有对头能接（别人只能烧牌）。",
        "Only the opposite may answer a gouji play (others may only burn).",
    ),
    "not_your_turn": ("还没轮到你。", "It is not your turn."),
    "lead_cannot_pass": ("你是首发，不能过牌。", "You lead: you cannot pass."),
    "three_must_be_last": (
        "憋三：3 只能最后一手全部打出。",
        "Threes last: your 3s go out together as your last play.",
    ),
    "fours_after_kaidian": (
        "点四：开点后的首发才能出 4，且 4 不能用来接牌。",
        "Fours: 4s are led right after you open, never before, never as an answer.",
    ),
    "must_lead_fours": (
        "点四：开点后这一手必须把 4 全部打出。",
        "Fours: having opened, lead all your 4s now.",
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

UI: dict[str, tuple[str, str]] = {
    # replies
    "ok": ("好的。", "Done."),
    "table_opened": (
        "牌桌开好了！发送 /join 入座，人不够可以 /addbot 加电脑。",
        "Table opened! /join to sit down; /addbot adds AI seats.",
    ),
    "table_shown": ("这是本群当前的牌桌。", "Here is this chat's table."),
    "no_table": (
        "这里还没有牌桌，先发送 /gouji 开一桌。",
        "No table here yet: send /gouji to open one.",
    ),
    "already_seated": ("你已经坐在 {seat} 号位了。", "You are already in seat {seat}."),
    "match_in_progress": (
        "正在打牌，这局结束后再加入吧（可以先观战）。",
        "A match is in progress; join after it (you can watch meanwhile).",
    ),
    "bad_seat": ("座位号应为 1 到 6。", "Seats are numbered 1 to 6."),
    "seat_taken": ("{seat} 号位已经有人了。", "Seat {seat} is taken."),
    "table_full": ("六个座位都满了。", "All six seats are taken."),
    "joined": ("入座成功：{seat} 号位。", "You sit in seat {seat}."),
    "left": ("你已离座。", "You left the table."),
    "kicked": ("已请 {seat} 号位离座。", "Seat {seat} was removed."),
    "not_seated": ("你不在这张牌桌上。", "You are not seated at this table."),
    "not_in_lobby": ("只能在开局前这样做。", "Only before the match starts."),
    "swapped": ("换到了 {seat} 号位。", "You moved to seat {seat}."),
    "not_creator_or_admin": (
        "只有开桌人或群管理员可以这样做。",
        "Only the table's creator or a group admin can do that.",
    ),
    "ai_not_allowed": ("本群设置不允许电脑补位。", "This group does not allow AI seats."),
    "bots_added": ("加了 {count} 个电脑。", "Added {count} AI seat(s)."),
    "no_bot_there": ("{seat} 号位不是电脑。", "Seat {seat} is not an AI seat."),
    "no_bots": ("桌上没有电脑。", "There are no AI seats."),
    "bot_removed": ("移走了 {seat} 号位的电脑。", "Removed the AI in seat {seat}."),
    "already_started": ("已经开始了。", "The match has already started."),
    "need_six": (
        "还差 {missing} 人，本群不允许电脑补位。",
        "{missing} seat(s) are empty and AI seats are off here.",
    ),
    "started": ("开始！", "Let's play!"),
    "hand_not_over": ("这一局还没结束。", "The hand is not over yet."),
    "next_hand": ("下一局开始。", "Next hand."),
    "match_stopped": ("比赛已结束。", "The match has been stopped."),
    "spectating": ("你在观战。", "You are watching."),
    "not_playing": ("现在没有在打牌。", "No hand is being played."),
    "stale": (
        "这个按钮已经过期了，请用最新的消息操作。",
        "This button is out of date; please use the latest message.",
    ),
    "declare_closed": (
        "革命、明点只能在首发出牌前。",
        "Revolts and points are declared before the first play.",
    ),
    "wait_declarations": (
        "请稍等，大家正在考虑革命/明点。",
        "Wait a moment: seats may still revolt or declare.",
    ),
    "burn_declared": ("已申请烧牌。", "Burn declared."),
    "held_for_burns": (
        "收到，等烧牌时间过后出牌。",
        "Got it: your play goes after the burn window.",
    ),
    "count_posted": ("已在群里报户。", "The count was posted in the group."),
    "autoplay_on": ("已托管。", "Autoplay is on."),
    "autoplay_off": ("已取消托管。", "Autoplay is off."),
    "ready": ("好的，不革命不明点。", "Ready: no revolt, no point."),
    "not_admin": ("只有群管理员可以改规则。", "Only group admins can change the settings."),
    "settings_saved": (
        "设置已保存，下一局生效。",
        "Settings saved; they apply from the next hand.",
    ),
    "unknown_command": (
        "不认识这个命令。发送 /help 查看用法。",
        "Unknown command. Send /help for help.",
    ),
    "turn_warning": ("快到时间了，再不出就托管了！", "Hurry: autoplay takes over soon!"),
    # group notices
    "seat_to_ai": ("{name} 离开了，{seat} 号位由电脑接手。", "{name} left; AI plays seat {seat}."),
    "match_started": ("比赛开始（{preset}）。", "The match starts ({preset})."),
    "hand_started": (
        "第 {hand_no} 局开始，{leader} 号位首发。",
        "Hand {hand_no}: seat {leader} leads.",
    ),
    "hand_voided": (
        "两人以上革命，本局作废，重新发牌。",
        "Two revolts: the hand is void and redealt.",
    ),
    "autoplay_timeout": ("{name} 超时，已托管。", "{name} timed out; autoplay is on."),
    "count_answer": (
        "{asker} 问 {target_name}（{target} 号）报户：{answer_text}",
        "{asker} asks {target_name} (seat {target}) for a count: {answer_text}",
    ),
    "count_exact": ("{count} 张", "{count} cards"),
    "count_not_enough": ("不够报", "more than ten"),
    "count_out": ("已走", "out"),
    "press_enter_next": ("回车开始下一局（q 退出）…", "Press Enter for the next hand (q quits)…"),
    "more_options": ("……还有 {n} 种出法，可直接输入牌。", "…{n} more: type the cards."),
    "help_turn": (
        "输入编号或牌（如 TTTTT、88822），p 过，r 让，c N 问报户，t 托管，h 帮助，q 退出",
        "Type a number or cards (e.g. TTTTT, 88822); p pass, r defer, c N count, t autoplay, "
        "h help, q quit",
    ),
    "help_burn": (
        "可以烧牌：输入编号或 b 牌；直接回车不烧",
        "You may burn: a number or b CARDS; Enter declines",
    ),
    "help_return": ("还贡：输入要还的牌或编号", "Return tribute: type the cards or a number"),
    "help_pre_play": (
        "首发前：v 革命，d 明点，直接回车准备好了",
        "Before the first play: v revolt, d point, Enter = ready",
    ),
    "console_help": (
        "牌的写法：3456789TJQKA2，S 小王，B 大王，如 SS888、TTTT2。\n"
        "p 过  r 让  b 牌 烧牌  c N 问 N 号报户  t 托管开关  v 革命  d 明点  w 放弃够死级  q 退出",
        "Cards: 3456789TJQKA2, S small joker, B big joker, e.g. SS888, TTTT2.\n"
        "p pass  r defer  b CARDS burn  c N count of seat N  t autoplay  v revolt  d point  "
        "w waive  q quit",
    ),
    "bad_choice": ("没有这个编号。", "No such number."),
    "top_play": ("桌面：{seat} 号 {cards}", "On top: seat {seat} {cards}"),
    "ev_played": ("{name}：{cards}", "{name}: {cards}"),
    "ev_passed": ("{name}：过", "{name}: pass"),
    "ev_ranged": ("{name}：让", "{name}: defer"),
    "ev_trick_won": ("{name} 拿下这一轮。", "{name} wins the trick."),
    "ev_revolted": ("{name} 革命！", "{name} declares a revolution!"),
    "ev_voided": ("本局作废。", "The hand is void."),
    "ev_waived": ("{name} 放弃够死级。", "{name} waives the sure plays."),
    "ev_declared": ("{name} 明点：对头不开点！", "{name} declares the opposite will not open!"),
    "ev_burned": ("{name} 烧牌！", "{name} burns!"),
    "ev_burn_released": ("{name} 解烧。", "{name}'s burn is released."),
    "ev_burn_succeeded": ("{name} 烧牌成功！", "{name}'s burn succeeds!"),
    "ev_burn_failed": ("{name} 烧糊了。", "{name}'s burn fails."),
    "ev_caught": ("{name} 被闷了！", "{name} is caught with threes!"),
    "ev_opened": ("{name} 开点。", "{name} opens a point."),
    "ev_point_failed": ("{name} 没开点。", "{name} did not open."),
    "ev_fours_discarded": ("{name} 的 4 作废。", "{name}'s 4s are void."),
    "ev_went_out": ("{name} 走了（第 {order} 个）。", "{name} is out (#{order})."),
    "ev_free_play": ("四户乱缠！", "Four-way free play!"),
    "ev_tribute_given": ("{name} 进贡 {count} 张。", "{name} pays {count} card(s) of tribute."),
    "ev_tribute_returned": ("{name} 还贡 {count} 张。", "{name} returns {count} card(s)."),
    "ev_bought": ("{name} 买 {rank}。", "{name} buys a {rank}."),
    "match_over": (
        "比赛结束：一三五 {a} 分，二四六 {b} 分。",
        "Match over: team 1-3-5 {a}, team 2-4-6 {b}.",
    ),
    "result_title": ("第 {hand_no} 局结果", "Hand {hand_no} result"),
}

PLACES = (
    ("头科", "二科", "三科", "四科", "二落", "大落"),
    ("1st out", "2nd out", "3rd out", "4th out", "5th", "last"),
)
TRIBUTE_KINDS = {
    "men": ("闷贡", "caught tribute"),
    "burn": ("烧贡", "burn tribute"),
    "point": ("点贡", "point tribute"),
    "luo": ("落贡", "finish tribute"),
    "sweep": ("串三户贡", "sweep tribute"),
    "mingdian": ("明点", "point bet"),
    "yudian": ("预点", "pre-deal point bet"),
}
PRESET_NAMES = {
    "dagang": ("大纲/普级", "Standard (大纲)"),
    "qingdao": ("青岛场", "Qingdao"),
    "weifang": ("潍坊场", "Weifang"),
    "dazhong": ("大众场", "Dazhong"),
    "match": ("比赛", "Competition"),
}


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
    """A UI text; unknown keys fall back to the error texts, then to the key itself."""
    pair = UI.get(key) or ERRORS.get(key)
    if pair is None:
        return key
    return _fill(pair[0] if lang == "zh" else pair[1], params)


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "zh" else pair[1]


def place_name(place: int, lang: str = "zh") -> str:
    """1-based finish place: 头科 … 大落."""
    return PLACES[0 if lang == "zh" else 1][place - 1]


def tribute_kind(kind: str, lang: str = "zh") -> str:
    return _pick(TRIBUTE_KINDS.get(kind, (kind, kind)), lang)


def preset_name(preset: str, lang: str = "zh") -> str:
    return _pick(PRESET_NAMES.get(preset, (preset, preset)), lang)


def count_text(answer: str | None, count: int | None, lang: str = "zh") -> str:
    if answer == "exact":
        return t("count_exact", lang, count=count)
    if answer == "out":
        return t("count_out", lang)
    return t("count_not_enough", lang)
