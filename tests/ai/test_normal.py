"""The ``normal`` level: the habits issue 11 lists, card tracking, 让, 明点, team play."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai import NormalPolicy, decide, options, policy_for
from bot.ai.deal import hand_sizes
from bot.ai.normal import DEFAULT_NORMAL
from bot.ai.plan import plan_hand
from bot.ai.tracking import Seen, est_count, lead_streak
from bot.engine import Action, ActionKind, fmt, make_rules
from bot.engine.plays import Play
from bot.engine.state import HandState
from bot.engine.views import seat_view

from .helpers import act, play, table

FILL = "3456789TJQK"  # eleven cards: more than 报户 tells (不够报)


def normal_choice(state: HandState, seat: int) -> Action | None:
    return decide(state, seat, NormalPolicy(state.rules), random.Random(1))


def _cards(action: Action | None) -> str:
    assert action is not None and action.cards is not None
    return fmt(action.cards)


# -- the habits of issue 11: a fixed state, the bad move must not be chosen ------------------
def test_answers_the_opposites_gouji_play_when_it_holds_an_answer() -> None:
    # Seat 1 plays AAA; seat 4, its opposite, holds 22S: passing lets the 够级牌 live.
    state = play(table(["AAA" + FILL, FILL, FILL, "35556677TJJKAA22S", FILL, FILL]), 1, "AAA")
    assert state.to_act == 4 and state.top_gouji
    choice = normal_choice(state, 4)
    assert choice is not None and choice.kind is ActionKind.PLAY
    assert "2" in _cards(choice) or "S" in _cards(choice)


def test_lets_a_gouji_play_made_with_a_two_live_rather_than_spend_22S() -> None:
    # The same hand against AA2 (a 够级牌 only thanks to its 2, so not pure): the challenger
    # spent a 2 on it, and two 2s and a joker are worth more early than this trick.
    state = play(table(["AA2" + FILL, FILL, FILL, "35556677TJJKAA22S", FILL, FILL]), 1, "AA2")
    assert state.to_act == 4 and state.top_gouji
    choice = normal_choice(state, 4)
    assert choice is not None and choice.kind is ActionKind.PASS


def test_keeps_a_lone_joker_against_an_ordinary_single() -> None:
    # Seat 1 (an opponent, 9 cards left after its lead) leads a T; seat 2 holds one big joker.
    state = play(table(["T345678999", "35566777777B", FILL, FILL, FILL, FILL]), 1, "T")
    assert state.to_act == 2
    choice = normal_choice(state, 2)
    assert choice is not None and not (choice.kind is ActionKind.PLAY and _cards(choice) == "B")


def test_does_not_spend_a_high_gouji_set_to_keep_low_sets_whole() -> None:
    state = play(
        table(["666" + FILL, "3333355677TTTTJJJJKKKBBB", FILL, FILL, FILL, FILL]), 1, "666"
    )
    choice = normal_choice(state, 2)
    assert choice is not None
    assert not (choice.kind is ActionKind.PLAY and _cards(choice) == "KKK")


def test_does_not_attach_a_two_early() -> None:
    state = play(table(["88" + FILL, "335558889TTTTQKKKKAAAA2", FILL, FILL, FILL, FILL]), 1, "88")
    choice = normal_choice(state, 2)
    assert choice is not None
    # The bad move is 92. Early in the hand (打后半场) a split pair of 10s on the upstream
    # seat's 88 is not worth it either, so passing is sound; if it answers, it is with TT.
    assert choice.kind is ActionKind.PASS or _cards(choice) == "TT"
    late = play(table(["88" + FILL, "5889TTQKK2", FILL, FILL, FILL, FILL]), 1, "88")
    assert _cards(normal_choice(late, 2)) == "TT"  # a short hand answers, and keeps its 2


# -- card tracking ---------------------------------------------------------------------------
def test_seen_counts_what_is_neither_played_nor_held() -> None:
    state = play(table(["BB" + FILL, "2SS" + FILL, FILL, FILL, FILL, FILL]), 1, "BB")
    seen = Seen.of(seat_view(state, 2))
    assert seen.bigs == 2  # 4 big jokers in the deck, 2 played
    assert seen.smalls == 2  # 4 small jokers, 2 in seat 2's own hand
    assert seen.twos == 15
    # Two big jokers are out: a pair of small jokers can still be beaten; BB cannot.
    assert seen.beatable(Play(0, 0, 0, 2, 0))
    assert not seen.beatable(Play(0, 0, 0, 0, 3))


def test_hand_sizes_sum_to_the_unseen_cards() -> None:
    state, _ = __import__("bot.engine", fromlist=["new_hand"]).new_hand(make_rules("dagang"), 3)
    view = seat_view(state, 2)
    sizes = hand_sizes(view)
    assert sizes[1] == 36
    assert sum(sizes) - 36 == sum(Seen.of(view).outstanding)


def test_leads_the_low_set_while_a_sure_winner_waits() -> None:
    # Every other A, 2 and joker is played: nothing outstanding beats AAA (a 回牌).
    state = table(["55AAA7", FILL, FILL, FILL, FILL, FILL])
    played = [0] * 15
    played[11], played[12], played[13], played[14] = 13, 16, 4, 4
    state = state._replace(played=tuple(played), started=True)  # past the 革命 window
    seen = Seen.of(seat_view(state, 1))
    assert not seen.beatable(Play(14, 3)) and seen.beatable(Play(5, 2))
    assert _cards(normal_choice(state, 1)) == "55"


def test_leads_a_set_its_jokers_make_a_sure_winner_over_the_lowest_set() -> None:
    # Two of the four big jokers are played; seat 1 holds the other two. QQ and KK alone
    # can be beaten (Ks and As are out), but a set carrying a big joker needs a big joker
    # to answer it: the plan makes KKB and QQB two 回牌, so the hand runs out with them.
    # The naive lowest set, QQ, would hand the lead to whoever beats it.
    state = table(["QQKKBB", FILL, FILL, FILL, FILL, FILL])
    played = [0] * 15
    played[14] = 2
    state = state._replace(played=tuple(played), started=True)  # past the 革命 window
    view = seat_view(state, 1)
    seen = Seen.of(view)
    assert seen.beatable(Play(12, 2)) and not seen.beatable(Play(13, 2, 0, 0, 1))
    plan = plan_hand(view.hand, state.rules, seen)
    assert plan.made == (Play(13, 2, 0, 0, 1), Play(12, 2, 0, 0, 1)) and not plan.losers
    assert _cards(normal_choice(state, 1)) == "KKB"
    # Without the jokers' help the same hand has no 回牌 and leads its lowest set.
    naive = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, plan=False))
    assert _cards(decide(state, 1, naive, random.Random(1))) == "QQ"


def test_plan_counts_plain_winners_and_leaves_losers_lowest_first() -> None:
    # Every other A, 2 and joker is played: AAA comes back; 55 and 77 do not, and there
    # are no 2s or jokers to help them.
    state = table(["5577AAA", FILL, FILL, FILL, FILL, FILL])
    played = [0] * 15
    played[11], played[12], played[13], played[14] = 13, 16, 4, 4
    state = state._replace(played=tuple(played), started=True)
    view = seat_view(state, 1)
    plan = plan_hand(view.hand, state.rules, Seen.of(view))
    assert plan.winners == (Play(14, 3),) and not plan.made
    assert plan.losers == (Play(5, 2), Play(7, 2))
    assert plan.runs_out() and plan.turns == 1
    assert _cards(normal_choice(state, 1)) == "55"


# -- the team --------------------------------------------------------------------------------
def test_never_beats_a_teammate_needlessly() -> None:
    state = play(table(["55KK", "3", "99AA", "4", "6", "7"]), 1, "55")
    state = act(state, 2, ActionKind.PASS)
    choice = normal_choice(state, 3)
    assert choice is not None and choice.kind is ActionKind.PASS


def test_feeds_a_short_teammate_a_set_of_its_size() -> None:
    # Seat 3 (teammate) shows 2 cards; the opponents hold more than 10.
    state = table(["S4477799", FILL, "JJ", FILL, FILL + "A", FILL])
    choice = normal_choice(state, 1)
    assert _cards(choice) in ("44", "99")


def test_rang_instead_of_a_dear_answer_to_the_opposites_play() -> None:
    # Seat 1 leads 55; seats 2 and 3 pass; seat 4, the opposite, would need its QQ.
    state = play(table(["55" + FILL, FILL, FILL, "QQ7" + FILL[:3], FILL, FILL]), 1, "55")
    state = act(state, 2, ActionKind.PASS)
    state = act(state, 3, ActionKind.PASS)
    assert any(a.kind is ActionKind.RANG for a in options(state, 4))
    choice = normal_choice(state, 4)
    assert choice is not None and choice.kind is ActionKind.RANG


def test_declares_mingdian_only_with_a_hand_that_stops_the_opposite() -> None:
    strong = table(["55", "BBSS2222AAKK", FILL, FILL, FILL, FILL], preset="qingdao")
    choice = normal_choice(strong, 2)
    assert choice is not None and choice.kind is ActionKind.DECLARE_POINT
    weak = table(["55", "BS22AAKK5", FILL, FILL, FILL, FILL], preset="qingdao")
    assert normal_choice(weak, 2) is None


# -- levels ----------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
def test_policy_for_every_level(level: str) -> None:
    policy = policy_for(level, make_rules("dagang"))
    state = table(["55S7", "66", "77", "88", "99", "TT"])
    choice = decide(state, 1, policy, random.Random(0))
    assert choice is not None and choice.kind is ActionKind.PLAY
    assert choice in options(state, 1)


def test_policy_for_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        policy_for("grandmaster", make_rules("dagang"))


# -- card memory: the public history (who played and who passed on what) --------------------
def test_counts_an_opponents_cards_from_its_plays_when_counts_are_hidden() -> None:
    from dataclasses import replace

    from bot.ai.normal import DEFAULT_NORMAL
    from bot.ai.tracking import est_count, played_by
    from bot.engine.state import PublicMove

    # 比赛 shows no counts (count_rule never); seat 1 has played 33 of its 36 cards.
    state = table(["T3", "35566777777BB", FILL, FILL, FILL, FILL], preset="match")
    state = state._replace(history=(PublicMove(1, Play(5, 33), None, None),))
    state = play(state, 1, "T")
    view = seat_view(state, 2)
    assert view.public.seats[0].count is None and view.public.seats[0].reported is None
    assert played_by(view)[0] == 34 and est_count(view, 1) == 2
    # About to go out: a big joker (one of two) stops it; without counting, it is kept.
    assert _cards(normal_choice(state, 2)) == "B"
    blind = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, count_cards=False))
    choice = decide(state, 2, blind, random.Random(1))
    assert choice is not None and choice.kind is not ActionKind.PLAY


def test_leads_a_set_the_downstream_seat_and_the_opposite_passed_on() -> None:
    from bot.ai.tracking import passed_on
    from bot.engine import Mark
    from bot.engine.state import PublicMove

    state = table(["668KKKK", FILL, FILL, FILL, FILL, FILL], preset="dagang")
    state = state._replace(started=True)
    assert _cards(normal_choice(state, 1)) == "66"  # no history: the pair goes first
    # Seat 3 (a teammate) led a 7: seat 2 (downstream) and seat 4 (opposite) passed on it.
    seven = Play(7, 1)
    moves = (
        PublicMove(3, seven, None, None),
        PublicMove(4, Mark.PASS, seven, 3),
        PublicMove(2, Mark.PASS, seven, 3),
    )
    state = state._replace(history=moves)
    view = seat_view(state, 1)
    assert passed_on(view, 2) == {1: 7} and passed_on(view, 4) == {1: 7}
    assert _cards(normal_choice(state, 1)) == "8"  # 出下家和对门不吃的牌


def test_answers_a_burning_opponent_to_release_the_burn() -> None:
    from dataclasses import replace

    from bot.ai.normal import DEFAULT_NORMAL

    # Seat 1 plays KKK; seat 2 burns it with AAA (two jokers, three ranks: it may burn).
    state = play(table(["KKK3", "AAASS55555566666", FILL, FILL, "BBS" + FILL, FILL]), 1, "KKK")
    state = act(state, 2, ActionKind.BURN, "AAA")
    assert state.burner == 2 and state.to_act == 5
    # Seat 5, the burner's opposite, spends BBS: a burn that runs out costs its team dear.
    assert _cards(normal_choice(state, 5)) == "SBB"
    calm = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, stop_burn=False))
    choice = decide(state, 5, calm, random.Random(1))
    assert choice is not None and choice.kind is ActionKind.PASS


# -- hooks that are off by default (they measured no gain) but work when weighted -----------
def test_caught_weight_keeps_a_strong_play_for_before_the_threes() -> None:
    from dataclasses import replace

    from bot.ai.normal import DEFAULT_NORMAL

    # 比赛 (憋三): answering 99 with QQ would leave a lone T before the 3s (likely 闷).
    state = play(table(["99" + FILL, "3TQQ", FILL, FILL, FILL, FILL], preset="match"), 1, "99")
    assert _cards(normal_choice(state, 2)) == "QQ"
    wary = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, caught=15.0))
    choice = decide(state, 2, wary, random.Random(1))
    assert choice is not None and choice.kind is not ActionKind.PLAY


def test_open_lead_weight_leads_a_set_that_opens_the_point() -> None:
    from dataclasses import replace

    from bot.ai.normal import DEFAULT_NORMAL

    state = table(["355QQQ", FILL, FILL, FILL, FILL, FILL], preset="qingdao")
    state = state._replace(started=True)
    assert _cards(normal_choice(state, 1)) == "55"
    opener = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, open_lead=10.0))
    assert _cards(decide(state, 1, opener, random.Random(1))) == "QQQ"


def test_keeps_its_last_joker_to_guard_the_play_before_its_threes() -> None:
    # 青岛 (憋三, and a caught seat ranks 大落 at once): seat 2 holds 3 7 B. Firing the B at
    # a short opponent's A leaves the lone 7 as its play before the 3 — beaten, it is 闷.
    fill = "33456789TJQK"
    state = play(table(["38QA", "37B", fill, fill, fill, fill], preset="qingdao"), 1, "A")
    assert state.to_act == 2
    choice = normal_choice(state, 2)
    assert choice is not None and not (choice.kind is ActionKind.PLAY and "B" in _cards(choice))


def test_answers_an_opponent_that_keeps_the_lead_trick_after_trick() -> None:
    from bot.engine.state import PublicMove

    # Seat 1 (upstream of seat 2) leads a 6; seat 2 holds 15 cards and its cheapest answer,
    # a T split from TT, is dear early against the upstream seat: it passes.
    hand = "33445TTQQKKAA55"
    fresh = play(table(["6" + FILL, hand, FILL, FILL, FILL, FILL]), 1, "6")
    assert normal_choice(fresh, 2) == Action(ActionKind.PASS)
    # Seat 1 led the two tricks before too (ten 4s, ten 5s) and nobody took the lead from
    # it: 15 cards left, it races out while the table passes. Seat 2 answers its third lead.
    state = table(["6" + FILL, hand, FILL, FILL, FILL, FILL])
    moves = (PublicMove(1, Play(4, 10), None, None), PublicMove(1, Play(5, 10), None, None))
    state = play(state._replace(history=moves), 1, "6")
    view = seat_view(state, 2)
    assert lead_streak(view) == (1, 3) and est_count(view, 1) == 15
    assert _cards(normal_choice(state, 2)) == "T"
    # Not while the runner still holds many cards (the run is no race yet), nor with the
    # hook off.
    early = NormalPolicy(None, replace(DEFAULT_NORMAL, run_short=14))
    assert decide(state, 2, early, random.Random(1)) == Action(ActionKind.PASS)
    off = NormalPolicy(None, replace(DEFAULT_NORMAL, run_bonus=0.0))
    assert decide(state, 2, off, random.Random(1)) == Action(ActionKind.PASS)


def test_the_strand_weight_keeps_a_card_besides_the_locked_fours_and_the_threes() -> None:
    # 青岛 (点四): seat 2 has not opened, so its 44 may not be played and is discarded at its
    # deadline. Answering the 8 with its 9 would leave 443: once the 4s go, a lone 3 never
    # wins a trick to be led, and the seat ranks 大落 (how many of qingdao's ties end). The
    # weight (off by default: it measured no gain) passes instead.
    hands = ["35566778889TTJJQQKK", "3449", "3567TJQKA", "345677889TJQKA", "3567TJQKA", "3567TJQKA"]
    state = play(table(hands, preset="qingdao"), 1, "8")
    assert any(a.kind is ActionKind.PLAY for a in options(state, 2))
    guard = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, strand=40.0))
    choice = decide(state, 2, guard, random.Random(1))
    assert choice is not None and choice.kind is not ActionKind.PLAY
    choice = decide(state, 2, NormalPolicy(state.rules), random.Random(1))
    assert choice is not None and choice.kind is ActionKind.PLAY and fmt(choice.cards or ()) == "9"
    # Where the 4s are free (比赛 has no 点四) the weight changes nothing.
    free = play(table(hands, preset="match"), 1, "8")
    choice = decide(
        free, 2, NormalPolicy(free.rules, replace(DEFAULT_NORMAL, strand=40.0)), random.Random(1)
    )
    assert choice is not None and choice.kind is ActionKind.PLAY and fmt(choice.cards or ()) == "9"


def test_keeps_its_last_two_to_guard_the_play_before_its_threes() -> None:
    # 憋三, no joker left: the lone 2 is what can still make the play before the 3s live
    # (9 with 2 is 99; 77 with 2 is 777). Spending it on an ordinary K leaves 3 77 9, whose
    # last play is easily beaten (被闷; in 青岛 that is 大落 at once). Most of qingdao's ties
    # were a 头科 and a caught 大落 on the same team.
    hands = [
        "35566778889TTJJQQKK",
        "32779",
        "3567TJQKA",
        "345677889TJQKA",
        "3567TJQKA",
        "3567TJQKA",
    ]
    for preset in ("qingdao", "match"):
        state = play(table(hands, preset=preset), 1, "K")
        choice = decide(state, 2, NormalPolicy(state.rules), random.Random(1))
        assert choice is not None and choice.kind is ActionKind.PASS
        old = NormalPolicy(state.rules, replace(DEFAULT_NORMAL, guard_twos=False))
        choice = decide(state, 2, old, random.Random(1))
        assert (
            choice is not None and choice.kind is ActionKind.PLAY and fmt(choice.cards or ()) == "2"
        )
