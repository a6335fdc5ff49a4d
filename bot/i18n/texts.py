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
    "burn_superseded": (
        "同一时机的另一家烧牌在先，你的烧牌作废。",
        "Another burn declared in the same window came first; yours is dropped.",
    ),
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
    "bad_scenario_field": (
        "对局文件有误：{field} {detail_zh}",
        "Bad scenario file: {field} {detail_en}",
    ),
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
    "seat_left": ("你已离座，这个座位由电脑接手。", "You left; the AI plays your seat now."),
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
    # Telegram
    "tg_group_only": (
        "这个命令请在群里用：把我拉进群，发送 /gouji 开桌。",
        "Use this command in a group: add me to one and send /gouji.",
    ),
    "tg_welcome": (
        "你好！我是够级机器人。把我拉进群，在群里发送 /gouji 开桌；入座后手牌会私聊发到这里。",
        "Hi! I deal 够级 (Gouji). Add me to a group and send /gouji there; once you sit "
        "down, your hand arrives in this chat.",
    ),
    "tg_dm_hello": (
        "你好！入座后手牌和出牌按钮会发到这里。",
        "Hi! Your hand and your action buttons will arrive in this chat.",
    ),
    "tg_need_start": (
        "{name}，我还不能私聊你（机器人不能主动给没打开过它的人发消息）。请点下面的按钮打开机器人，"
        "点“开始”后就自动入座。",
        "{name}, I cannot message you yet (a bot cannot start a chat with someone who never "
        "opened it). Tap the button below and press Start: you will be seated.",
    ),
    "tg_dm_blocked": (
        "{name} 收不到私信：请点按钮打开机器人看手牌。",
        "{name} cannot get my messages: tap the button to open the bot and see your hand.",
    ),
    "tg_btn_open_join": ("打开机器人并入座", "Open the bot and join"),
    "tg_btn_open_bot": ("打开机器人", "Open the bot"),
    "tg_joined_private": (
        "入座成功：{seat} 号位。开局后手牌会发到这里。",
        "You sit in seat {seat}. Your hand will arrive here when the match starts.",
    ),
    "tg_link_expired": (
        "这个链接已经失效了，请在群里重新发送 /join。",
        "This link has expired; send /join in the group again.",
    ),
    "tg_bad_button": (
        "这个按钮无效，请用最新的消息。",
        "This button is not valid; please use the latest message.",
    ),
    "tg_anon_join": (
        "匿名管理员不能入座，请用自己的账号加入。",
        "An anonymous admin cannot sit down; please join with your own account.",
    ),
    "tg_usage_count": (
        "用法：/count 座位号（1-6），例如 /count 3",
        "Usage: /count SEAT (1-6), e.g. /count 3",
    ),
    "tg_usage_addbot": ("用法：/addbot [数量 1-5]", "Usage: /addbot [count 1-5]"),
    "tg_usage_removebot": ("用法：/removebot [座位号 1-6]", "Usage: /removebot [seat 1-6]"),
    "tg_usage_settings": (
        "用法：/settings 打开菜单，或 /settings 名称 值（如 /settings burn_limit 3）",
        "Usage: /settings opens the menu, or /settings NAME VALUE (e.g. /settings burn_limit 3)",
    ),
    "tg_hand_sent": ("手牌已私信发给你。", "Your hand was sent to you privately."),
    "tg_no_hand": ("你现在没有在打牌。", "You have no hand in play."),
    "tg_count_done": ("已在群里报户。", "The count was posted in the group."),
    "tg_btn_join": ("加入", "Join"),
    "tg_btn_start": ("开始", "Start"),
    "tg_btn_addbot": ("加电脑", "Add AI"),
    "tg_btn_mine": ("我的牌", "My cards"),
    "tg_btn_count": ("{seat}号报户", "Count #{seat}"),
    "tg_btn_next": ("下一局", "Next hand"),
    "tg_btn_pass": ("过", "Pass"),
    "tg_btn_rang": ("让", "Defer"),
    "tg_btn_burn_mode": ("🔥 烧牌…", "🔥 Burn…"),
    "tg_btn_play_mode": ("出牌…", "Play…"),
    "tg_btn_no_burn": ("不烧", "Don't burn"),
    "tg_btn_cheapest": ("⚡ 最小：{cards}", "⚡ Cheapest: {cards}"),
    "tg_btn_back": ("↩ 返回", "↩ Back"),
    "tg_btn_size": ("{n} 张", "{n} cards"),
    "tg_btn_play": ("✅ 出 {cards}", "✅ Play {cards}"),
    "tg_btn_burn": ("🔥 烧 {cards}", "🔥 Burn {cards}"),
    "tg_btn_more": ("更多…", "More…"),
    "tg_btn_auto_on": ("托管", "Autoplay"),
    "tg_btn_auto_off": ("取消托管", "Stop autoplay"),
    "tg_btn_revolt": ("革命", "Revolt"),
    "tg_btn_point": ("明点", "Declare point"),
    "tg_btn_prepoint": ("预点", "Pre-point"),
    "tg_btn_waive": ("放弃够死级", "Waive sure plays"),
    "tg_btn_ready": ("准备好了", "Ready"),
    "tg_btn_refresh": ("🔄 刷新", "🔄 Refresh"),
    "tg_btn_selected": ("已选 {cards}（{k}/{count}）", "Picked {cards} ({k}/{count})"),
    "tg_btn_reset": ("重选", "Start over"),
    "tg_btn_return": ("✅ 还 {cards} → {seat}号", "✅ Return {cards} → seat {seat}"),
    "tg_jokers": ("王", "Jokers"),
    "tg_you_are": (
        "第{hand_no}局 · 你是 {seat} 号（联邦 {team}）",
        "Hand {hand_no} · you are seat {seat} (team {team})",
    ),
    "tg_role_lead": ("轮到你首发。", "Your lead."),
    "tg_role_turn": (
        "轮到你：桌面 {seat} 号 {cards}",
        "Your turn: seat {seat} has {cards} on top.",
    ),
    "tg_role_burn": (
        "可以烧 {seat} 号的 {cards}，过时不候。",
        "You may burn seat {seat}'s {cards}: be quick.",
    ),
    "tg_role_return": (
        "还贡：选 {count} 张还给 {seat} 号。",
        "Return tribute: pick {count} for seat {seat}.",
    ),
    "tg_role_pre": (
        "首发前：可以革命或明点；不想就点“准备好了”。",
        "Before the first play: revolt or declare a point, or press Ready.",
    ),
    "tg_role_wait": ("等别人出牌…", "Waiting for the others…"),
    "tg_role_auto": ("托管中：电脑替你出牌。", "Autoplay is on: the AI plays for you."),
    "tg_role_done": ("这一局你没有牌要出了。", "You have nothing left to play this hand."),
    "tg_hand_line": ("手牌（{n}）：{cards}", "Hand ({n}): {cards}"),
    "tg_teammate": ("{seat}号 {name}：", "Seat {seat} {name}: "),
    "tg_cap_head": (
        "够级 · {preset} · 第{hand_no}局 · 一三五 {a:+d} : 二四六 {b:+d}",
        "Gouji · {preset} · hand {hand_no} · 1-3-5 {a:+d} : 2-4-6 {b:+d}",
    ),
    "tg_cap_lobby_head": (
        "够级 · {preset} · 等人入座（{n}/6）",
        "Gouji · {preset} · seats taken {n}/6",
    ),
    "tg_cap_lobby": (
        "点“加入”或发送 /join 入座；人不够点“加电脑”；人齐了点“开始”。",
        "Press Join or send /join; Add AI fills a seat; press Start when ready.",
    ),
    "tg_cap_turn": ("▶ 轮到 {seat} 号 {name}", "▶ Seat {seat} {name} to act"),
    "tg_cap_window": ("烧牌时间…", "Burn window…"),
    "tg_cap_declare": ("首发前：等大家革命/明点…", "Before the first play: revolts and points…"),
    "tg_cap_return": ("还贡中…", "Returning tribute…"),
    "tg_cap_between": (
        "本局结束，稍后自动开始下一局（也可以点“下一局”）。",
        "Hand over; the next starts shortly (or press Next hand).",
    ),
    "tg_cap_finished": (
        "比赛结束。发送 /gouji 再开一桌。",
        "Match over. Send /gouji for a new table.",
    ),
    "tg_result_caption": (
        "第{hand_no}局结果：一三五 {a:+d}，二四六 {b:+d}（总分 {ta:+d} : {tb:+d}）",
        "Hand {hand_no}: 1-3-5 {a:+d}, 2-4-6 {b:+d} (match {ta:+d} : {tb:+d})",
    ),
    "tg_match_stopped": (
        "比赛提前结束：一三五 {a} 分，二四六 {b} 分。",
        "Match stopped: team 1-3-5 {a}, team 2-4-6 {b}.",
    ),
    "tg_help": (
        "够级机器人 · 群里用：\n"
        "/gouji 开桌（或显示本群牌桌）\n/join 入座  /leave 离座\n"
        "/addbot [n] 加电脑  /removebot [座位] 移走电脑\n/begin 开始  /stop 结束比赛\n"
        "/count N 问 N 号报户\n/score 本场比分  /stats 排行榜\n"
        "/rules 规则  /settings 设置（管理员）\n"
        "手牌和出牌按钮私聊发给你：先点一下机器人头像打开私聊。",
        "Gouji bot · in a group:\n"
        "/gouji open a table (or show this chat's)\n/join sit down  /leave stand up\n"
        "/addbot [n] add AI seats  /removebot [seat] remove one\n"
        "/begin start  /stop end the match\n"
        "/count N ask seat N for a card count\n/score match score  /stats leaderboard\n"
        "/rules the rules  /settings settings (admins)\n"
        "Your hand and your buttons come in a private chat: open the bot once first.",
    ),
    "tg_rules": (
        "够级：六人两队（一三五对二四六），四副牌。一手牌只能一种点数，可以贴 2、挂王；"
        "接牌要张数相同、更大。够级牌只有对头能接，别人可以烧。先走完的是头科，最后的是大落。",
        "Gouji: six seats in two teams (1-3-5 v 2-4-6), four decks. A play is one rank, "
        "with 2s and jokers added; answer with as many cards, higher. Only the opposite "
        "answers a gouji play; others may burn it. First out is 头科, last is 大落.",
    ),
    "tg_rules_preset": ("玩法：{preset}；改动：{changes}", "Preset: {preset}; changes: {changes}"),
    "tg_no_scores": ("还没有打完的局。", "No hand has finished yet."),
    "tg_rules_timer": (
        "每步 {turn} · 每场 {hands} 局 · 目标分 {target}",
        "Turn timer {turn} · {hands} hands a match · target {target}",
    ),
    "tg_score_head": (
        "第{hand_no}局后总分：一三五 {a:+d}，二四六 {b:+d}",
        "After hand {hand_no}: team 1-3-5 {a:+d}, team 2-4-6 {b:+d}",
    ),
    "tg_score_line": (
        "第{n}局：一三五 {a:+d}，二四六 {b:+d}",
        "Hand {n}: 1-3-5 {a:+d}, 2-4-6 {b:+d}",
    ),
    "tg_stats_head": ("本群排行榜：", "Leaderboard:"),
    "tg_stats_line": (
        "{i}. {name} · {points:+d} 分 · {hands} 局 · 头科 {firsts} · 大落 {lasts}",
        "{i}. {name} · {points:+d} pts · {hands} hands · 1st {firsts} · last {lasts}",
    ),
    "tg_stats_empty": ("还没有打完的局。", "No finished hands yet."),
    "tg_stats_off": (
        "没有启用数据库（GOUJI_DB），不能统计。",
        "Stats need the database (GOUJI_DB).",
    ),
    "tg_settings_title": (
        "本群设置（管理员可改，下一局生效）\n玩法：{preset}\n改动：{changes}",
        "Group settings (admins; they apply from the next hand)\n"
        "Preset: {preset}\nChanges: {changes}",
    ),
    "tg_settings_none": ("无", "none"),
    "tg_set_preset": ("玩法：{v} ▸", "Preset: {v} ▸"),
    "tg_set_switches": ("规则开关 ▸", "Rule switches ▸"),
    "tg_set_value": ("{name}：{v}", "{name}: {v}"),
    "tg_set_lang": ("语言：中文", "Language: English"),
    "tg_set_done": ("完成", "Done"),
    "tg_set_reset": ("恢复玩法默认", "Reset to the preset"),
    "tg_set_prev": ("◀ 上一页", "◀ Prev"),
    "tg_set_next": ("下一页 ▶", "Next ▶"),
    "tg_set_closed": ("设置已关闭。", "Settings closed."),
    "tg_set_freeform": (
        "这个开关请用命令改：/settings {name} 值（{allowed}）",
        "Set this one by command: /settings {name} VALUE ({allowed})",
    ),
    "tg_on": ("开", "on"),
    "tg_off": ("关", "off"),
    "tg_no_limit": ("不限", "none"),
    "tg_seconds": ("{n}秒", "{n} s"),
    "cmd_gouji": ("开桌 / 显示牌桌", "Open a table / show it"),
    "cmd_join": ("入座", "Sit down"),
    "cmd_leave": ("离座", "Leave the table"),
    "cmd_addbot": ("加电脑 [数量]", "Add AI seats [count]"),
    "cmd_removebot": ("移走电脑 [座位]", "Remove an AI seat [seat]"),
    "cmd_begin": ("开始比赛", "Start the match"),
    "cmd_stop": ("结束比赛", "Stop the match"),
    "cmd_count": ("问报户：/count 座位号", "Ask a card count: /count SEAT"),
    "cmd_score": ("本场比分", "Match score"),
    "cmd_stats": ("排行榜", "Leaderboard"),
    "cmd_rules": ("规则", "Rules"),
    "cmd_settings": ("设置（管理员）", "Settings (admins)"),
    "cmd_help": ("帮助", "Help"),
    # settings menus: one label per rule switch (free-form switches have none)
    "sw_remove_threes": ("去掉几张 3", "Threes removed"),
    "sw_remove_fours": ("去掉几张 4", "Fours removed"),
    "sw_remove_fives": ("去掉几张 5", "Fives removed"),
    "sw_tie_qian": ("贴钱", "Add twos (贴钱)"),
    "sw_small_joker_beaten_by": ("小王牌被什么管", "Small-joker plays beaten by"),
    "sw_kill_two_big": ("两大王杀一大王", "Two big jokers kill one"),
    "sw_kill_three_small": ("三小王杀一大王", "Three small jokers kill a big"),
    "sw_kill_three_twos": ("三个 2 杀一大王", "Three 2s kill a big joker"),
    "sw_mixed_jokers": ("大小王混挂算", "Mixed jokers count as"),
    "sw_gouji_twos": ("几个 2 算够级", "2s for a gouji play"),
    "sw_opposite_final_say": ("对头最后说话", "Opposite's final say"),
    "sw_rang": ("让牌", "Defer (让牌)"),
    "sw_burn_limit": ("烧牌限制（点数种类−花）", "Burn limit (ranks − jokers)"),
    "sw_burn_priority": ("烧牌优先", "Burn priority"),
    "sw_burn_success": ("烧牌成功", "Burn succeeds when"),
    "sw_burn_requires_kaidian": ("开点后才能烧", "Burn needs 开点"),
    "sw_next_leader": ("下一局首发", "Next hand's leader"),
    "sw_revolution": ("革命", "Revolution"),
    "sw_tribute": ("进贡", "Tribute"),
    "sw_sweep_tribute": ("串三户之后", "After a sweep"),
    "sw_tribute_without_legal": ("没有法定贡牌时", "No legal tribute card"),
    "sw_tribute_return": ("还贡", "Return tribute"),
    "sw_dadian": ("打点", "Points rule (打点)"),
    "sw_kaidian_twos": ("2 开点", "2s open a point"),
    "sw_kaidian_plays": ("开点的牌", "Plays that open"),
    "sw_dian_si": ("点四", "Fours after opening"),
    "sw_unopened_fours": ("没开点的 4", "Unopened fours"),
    "sw_bie_san": ("憋三", "Threes last"),
    "sw_men_is_last": ("被闷算大落", "Caught counts as last"),
    "sw_count_rule": ("报户", "Card counts"),
    "sw_see_team_after_out": ("走后看队友的牌", "See teammates once out"),
    "sw_sweep_multiplier": ("串三户倍数", "Sweep multiplier"),
    "sw_positive_only": ("只记赢家", "Record winners only"),
    "sw_scoring": ("计分", "Scoring"),
    "sw_move_seconds": ("规则的每步秒数", "Rules' seconds a move"),
    "set_turn_seconds": ("每步时限（秒）", "Turn timer (seconds)"),
    "set_match_hands": ("每场局数", "Hands per match"),
    "set_target_score": ("目标分", "Target score"),
    "set_lang": ("语言", "Language"),
    "set_ai_fill": ("电脑补位", "AI fills seats"),
    # Discord
    "dc_title": ("**够级 · {preset}**", "**Gouji · {preset}**"),
    "dc_table_opened": (
        "牌桌开好了！点【入座】或用 /gouji join 入座，人不够可以【加电脑】。",
        "Table opened! Press Join or use /gouji join; Add AI fills empty seats.",
    ),
    "dc_no_table": (
        "这里还没有牌桌，先用 /gouji new 开一桌。",
        "No table here yet: use /gouji new to open one.",
    ),
    "dc_unknown_command": ("不认识这个命令。", "Unknown command."),
    "dc_error": ("出了点问题，请再试一次。", "Something went wrong; please try again."),
    "dc_lobby": (
        "等人入座：点【入座】加入，人不够可以【加电脑】，然后【开始】。",
        "Waiting for players: press Join; Add AI fills seats; then Start.",
    ),
    "dc_seat_line": ("{seat} 号 {name}", "Seat {seat}: {name}"),
    "dc_seat_empty": ("（空）", "(empty)"),
    "dc_seat_ai": ("（电脑）", "(AI)"),
    "dc_hand_line": (
        "第 {hand_no} 局 · 一三五 {a:+d} : 二四六 {b:+d}",
        "Hand {hand_no} · team 1-3-5 {a:+d} : 2-4-6 {b:+d}",
    ),
    "dc_turn": ("▶ 轮到 {seat} 号 {name}", "▶ Seat {seat} {name} to act"),
    "dc_deadline": ("（{when} 超时托管）", "(autoplay {when})"),
    "dc_return_phase": ("还贡中…", "Returning tribute…"),
    "dc_declare": ("首发前：可以革命或明点。", "Before the first play: revolts and points."),
    "dc_window": ("烧牌时间…", "Burn window…"),
    "dc_between": (
        "本局结束，下一局马上开始（也可以点【下一局】）。",
        "Hand over; the next one starts shortly (or press Next hand).",
    ),
    "dc_finished": (
        "比赛结束。点【再开一桌】重新开始。",
        "Match over. Press New table to play again.",
    ),
    "dc_dm_hint": (
        "手牌私信发给你；私信关着的话点【我的牌】。",
        "Your hand comes by DM; with DMs closed, press My hand.",
    ),
    "dc_btn_join": ("入座", "Join"),
    "dc_btn_leave": ("离座", "Leave"),
    "dc_btn_addbot": ("加电脑", "Add AI"),
    "dc_btn_start": ("开始", "Start"),
    "dc_btn_hand": ("我的牌", "My hand"),
    "dc_btn_next": ("下一局", "Next hand"),
    "dc_btn_new": ("再开一桌", "New table"),
    "dc_count_placeholder": ("问报户…", "Ask a card count…"),
    "dc_count_option": ("{seat} 号 {name}", "Seat {seat} {name}"),
    "dc_pick_rank": ("出什么点数…", "Pick a rank…"),
    "dc_pick_size": ("出几张…", "How many cards…"),
    "dc_pick_variant": ("贴 2 / 挂花…", "With twos or jokers…"),
    "dc_rank_jokers_only": ("只出王", "jokers only"),
    "dc_size_option": ("{n} 张", "{n} cards"),
    "dc_more": ("更多…", "More…"),
    "dc_btn_play": ("出 {cards}", "Play {cards}"),
    "dc_btn_burn": ("烧 {cards}", "Burn {cards}"),
    "dc_btn_cheapest": ("最小管：{cards}", "Cheapest: {cards}"),
    "dc_btn_pass": ("过", "Pass"),
    "dc_btn_rang": ("让", "Defer"),
    "dc_btn_revolt": ("革命", "Revolt"),
    "dc_btn_point": ("明点", "Declare point"),
    "dc_btn_prepoint": ("预点", "Pre-point"),
    "dc_btn_waive": ("放弃够死级", "Waive sure plays"),
    "dc_btn_ready": ("准备好了", "Ready"),
    "dc_btn_auto_on": ("托管", "Autoplay"),
    "dc_btn_auto_off": ("取消托管", "Stop autoplay"),
    "dc_btn_refresh": ("刷新", "Refresh"),
    "dc_pick_return": ("还给 {seat} 号 {count} 张…", "Return {count} to seat {seat}…"),
    "dc_btn_return": ("还贡 {cards} → {seat} 号", "Return {cards} → seat {seat}"),
    "dc_private_head": (
        "**{name}** · {seat} 号位 · {cards} 张",
        "**{name}** · seat {seat} · {cards} cards",
    ),
    "dc_role_turn": ("轮到你了！", "Your turn!"),
    "dc_role_lead": ("轮到你首发。", "You lead."),
    "dc_role_burn": ("可以烧牌，过时不候。", "You may burn this play — be quick."),
    "dc_role_return": ("还贡：选要还的牌。", "Return tribute: pick the cards."),
    "dc_role_pre_play": (
        "首发前：可以革命或明点；不想就点【准备好了】。",
        "Before the first play: revolt or declare a point, or press Ready.",
    ),
    "dc_role_wait": ("等别人出牌…", "Waiting for the others…"),
    "dc_role_auto": ("托管中：电脑替你出牌。", "Autoplay is on: the AI plays for you."),
    "dc_role_done": ("这一局你没有牌要出了。", "You have nothing left to play this hand."),
    "dc_top": ("桌面：{name} {cards}", "On top: {name} {cards}"),
    "dc_no_hand": ("你现在没有在这桌打牌。", "You have no hand in play at this table."),
    "dc_not_yours": (
        "这不是你的座位：这些按钮只有本人能用。",
        "That is not your seat: these buttons are for their player only.",
    ),
    "dc_need_manage": (
        "只有有“管理服务器”权限的成员可以改设置。",
        "Only members with the Manage Server permission can change the settings.",
    ),
    "dc_unknown_button": (
        "这个按钮认不出来了，请用最新的消息。",
        "I don't recognize this button; please use the latest message.",
    ),
    "dc_guild_only": ("请在服务器的频道里用。", "Please use this in a server channel."),
    "dc_dm_closed": (
        "{mention} 私信发不过去：请点牌桌上的【我的牌】看牌、出牌。",
        "{mention} I can't DM you: press My hand on the table to see and play your cards.",
    ),
    "dc_ping": ("{mention} {text}", "{mention} {text}"),
    "dc_result": ("第 {hand_no} 局结束。", "Hand {hand_no} is over."),
    "dc_stats_title": ("**本服战绩**", "**Server standings**"),
    "dc_stats_line": (
        "{i}. {name} · {points:+d} 分 · {hands} 局 · 头科 {firsts} · 大落 {lasts}",
        "{i}. {name} · {points:+d} pts · {hands} hands · 1st {firsts} · last {lasts}",
    ),
    "dc_no_stats": ("还没有打完的局。", "No finished hands yet."),
    "dc_rules": (
        "六人两队（一三五对二四六），四副牌 216 张。一手牌只能一种点数，可贴 2、挂王；"
        "张数相同、更大才能管。够级牌只有对头能接，别人可以烧。先走完的是头科，最后的是大落。",
        "Six seats in two teams (1-3-5 v 2-4-6), four decks, 216 cards. A play is one rank, "
        "with 2s and jokers added; answer with as many cards and higher. Only the opposite "
        "answers a gouji play; others may burn it. First out is 头科, last is 大落.",
    ),
    "dc_rules_preset": ("玩法：{preset}", "Preset: {preset}"),
    "dc_rules_changes": ("改动：{changes}", "Changes: {changes}"),
    "dc_as_preset": ("按预设", "as the preset"),
    "dc_settings_title": (
        "**本服设置**（改动从下一局起生效）",
        "**Server settings** (changes apply from the next hand)",
    ),
    "dc_settings_general": (
        "每步 {turn} · 每场 {hands} 局 · 目标分 {target} · 语言 {language} · 电脑补位 {ai}",
        "Turn {turn} · {hands} hands a match · target {target} · language {language} · AI {ai}",
    ),
    "dc_pick_preset": ("选玩法…", "Pick a preset…"),
    "dc_pick_setting": ("改一项设置…", "Change a setting…"),
    "dc_pick_value": ("{name} 设为…", "Set {name} to…"),
    "dc_btn_reset": ("恢复预设", "Reset to preset"),
    "dc_on": ("开", "on"),
    "dc_off": ("关", "off"),
    "dc_no_limit": ("不限", "none"),
    "dc_seconds": ("{n} 秒", "{n} s"),
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
