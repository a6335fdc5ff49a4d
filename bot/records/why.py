"""Answers to "why" about a recorded hand, from the engine's own codes and events, each
with the RULES.md section it comes from: why a trick ended, why a seat owes a tribute, and
why an action would be (or was) refused."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, ActionKind
from ..engine.cards import parse
from ..engine.errors import IllegalAction
from ..engine.game import apply
from ..engine.state import HandState, Tribute, opp
from ..i18n import error_text, place_name, t, tribute_kind
from ..i18n.catalogue import Lang
from .replay import Replayed
from .steps import Frame, FrameKind
from .summary import event_line, given_tributes, seat_label

# The RULES.md section each refusal code comes from (docs/engine-contract.md lists them).
SECTIONS: dict[str, str] = {
    "hand_over": "§9",
    "unknown_action": "§15",
    "bad_seat": "§1",
    "bad_target": "§12",
    "wrong_phase": "§10",
    "seat_out": "§9",
    "bad_notation": "§3",
    "empty_play": "§4",
    "mixed_ranks": "§4",
    "no_tie_qian": "§4",
    "threes_alone": "§11",
    "fours_alone": "§11",
    "cards_not_in_hand": "§4",
    "passed_this_trick": "§7",
    "gouji_opposite_only": "§7",
    "not_your_turn": "§7",
    "lead_cannot_pass": "§7",
    "three_must_be_last": "§11",
    "fours_after_kaidian": "§11",
    "must_lead_fours": "§11",
    "needs_joker_while_burning": "§8",
    "size_mismatch": "§5",
    "too_weak": "§5",
    "burn_not_allowed": "§8",
    "burn_formula": "§8",
    "burn_needs_kaidian": "§8",
    "burn_superseded": "§8",
    "rang_not_allowed": "§7",
    "revolt_not_allowed": "§10",
    "declare_not_allowed": "§10",
    "waive_not_allowed": "§10",
    "hui_not_allowed": "§10",
    "chongdian_not_allowed": "§10",
    "chongdian_needs_pure": "§10",
    "count_refused": "§12",
    "return_not_owed": "§10",
    "return_count": "§10",
}
TRIBUTE_REASONS = {
    "men": "why_tribute_men",
    "burn": "why_tribute_burn",
    "point": "why_tribute_point",
    "sweep": "why_tribute_sweep",
    "mingdian": "why_tribute_bet",
    "yudian": "why_tribute_bet",
}


def section_of(code: str) -> str:
    return SECTIONS.get(code, "§7")


def refusal_text(
    code: str, params: dict[str, object], step: int, seat: int, action: str,
    names: Sequence[str], lang: Lang = "zh",
) -> str:  # fmt: skip
    message = error_text(code, dict(params), lang)
    return t(
        "why_refused",
        lang,
        i=step,
        name=seat_label(names, seat),
        action=action,
        message=message,
        section=section_of(code),
    )


def why_play(
    state: HandState, seat: int, kind: ActionKind, cards: str, step: int,
    names: Sequence[str], lang: Lang = "zh",
) -> str:  # fmt: skip
    """Would ``seat`` have been allowed to play (or burn) ``cards`` in ``state``? The
    engine's own answer: its refusal code, or that the action is legal."""
    label = f"{'烧' if kind is ActionKind.BURN and lang == 'zh' else ''}{cards}".strip()
    if kind is ActionKind.BURN and lang != "zh":
        label = f"burn {cards}"
    try:
        action = Action(kind, parse(cards))
        probe = state
        if (
            kind is ActionKind.PLAY
            and state.to_act != seat
            and state.is_active(seat)
            and seat not in state.locked
            and state.top_seat is not None
            and not state.top_gouji
        ):
            # Asked about a seat whose turn it was not: judge the cards as if it were, so
            # the answer is about the cards (too weak, wrong size…), not just the order.
            probe = state._replace(to_act=seat)
        apply(probe, seat, action)
    except IllegalAction as err:
        return refusal_text(err.code.value, err.params, step, seat, label, names, lang)
    return t("why_played", lang, i=step, name=seat_label(names, seat), action=label, detail="")


def _trick_reason(frame: Frame, played: Replayed) -> str:
    """Which rule closed the trick (RULES §7, §10 够死级)."""
    before = frame.state
    if before.lead_pending:
        return "why_trick_gousi"
    step = frame.step
    closing = played.actions[step] if step < len(played.actions) else {}
    top = before.top_seat
    if (
        top is not None
        and closing.get("do") == "pass"
        and closing.get("seat") == opp(top)
        and before.rules.opposite_final_say
    ):
        return "why_trick_opposite"
    return "why_trick_all_passed"


def why_trick(frame: Frame, played: Replayed, names: Sequence[str], lang: Lang = "zh") -> str:
    reason = _trick_reason(frame, played)
    section = "§10" if reason == "why_trick_gousi" else "§7"
    head = t(
        "why_trick",
        lang,
        n=frame.trick,
        name=seat_label(names, frame.winner or 0),
        cards=frame.cards,
        reason=t(reason, lang),
        section=section,
    )
    return "\n".join([head, *_event_lines(frame, names, lang)])


def _event_lines(frame: Frame, names: Sequence[str], lang: Lang) -> list[str]:
    lines = [x for x in (event_line(e, names, lang) for e in frame.events) if x]
    if not lines:
        return []
    return [t("why_events", lang, events=" · ".join(lines))]


def tribute_reason(tr: Tribute, final: HandState | None, names: Sequence[str], lang: Lang) -> str:
    """``final`` is the hand that owes the tribute (None when it is not known)."""
    giver = seat_label(names, tr.giver)
    if tr.kind == "luo" and (final is None or final.result is None):
        return t("why_tribute_luo_plain", lang, giver=giver)
    if (
        tr.kind == "luo"
        and final is not None
        and final.result is not None
        and tr.giver in final.result.places
    ):
        place = place_name(final.result.place_of(tr.giver), lang)
        return t("why_tribute_luo", lang, giver=giver, place=place)
    return t(TRIBUTE_REASONS.get(tr.kind, "why_tribute_luo"), lang, giver=giver, place="")


def why_tributes(
    tributes: Sequence[Tribute], final: HandState | None, names: Sequence[str], lang: Lang = "zh"
) -> list[str]:
    """One line per tribute: who owes whom how many, and why (RULES §10)."""
    if not tributes:
        return [t("why_no_tributes", lang)]
    return [
        t(
            "why_tribute",
            lang,
            giver=seat_label(names, tr.giver),
            receiver=seat_label(names, tr.receiver),
            count=tr.count,
            kind=tribute_kind(tr.kind, lang),
            reason=tribute_reason(tr, final, names, lang),
            section="§10",
        )
        for tr in tributes
    ]


def why_frame(
    frame: Frame, played: Replayed, names: Sequence[str], lang: Lang = "zh",
    previous: HandState | None = None,
) -> str:  # fmt: skip
    """Explain a step-through frame: a trick's end, the tributes given at the start (judged
    on the hand that owed them, when known), or the tributes the hand owes the next one."""
    if frame.kind is FrameKind.TRICK:
        return why_trick(frame, played, names, lang)
    if frame.kind is FrameKind.START:
        given = [Tribute(g.giver, g.receiver, g.count, g.kind) for g in given_tributes(played)]
        lines = [t("rec_tributes", lang)] if given else []
        lines += why_tributes(given, previous, names, lang)
        return "\n".join([*lines, *_event_lines(frame, names, lang)])
    final = played.final
    owed = final.result.tributes if final.result is not None else ()
    return "\n".join([t("rec_owes_next", lang), *why_tributes(owed, final, names, lang)])
