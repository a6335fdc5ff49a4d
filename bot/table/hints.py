"""💡 Hints: the expert's choice for a player's current decision, told to that player only.

A group switch (``hints``, off by default, fixed off in 比赛) lets a seated player ask.
The expert decides from the seat's own view (``decide`` hands it ``masked_state``), so a
hint knows nothing the player could not see. The search takes up to the expert's second,
in a worker thread (its playouts in the search processes), off the event loop.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from ..ai.base import decide, options
from ..ai.expert import ExpertPolicy
from ..engine.actions import Action, ActionKind
from ..engine.state import HandState
from ..i18n import t
from ..i18n.catalogue import Lang
from ..records.teacher import action_text
from .record import Table

# The actions a hint may name without cards, by their text key.
_NAMED = {
    ActionKind.REVOLT: "review_act_revolt",
    ActionKind.DECLARE_POINT: "review_act_declare_point",
    ActionKind.WAIVE: "review_act_waive",
    ActionKind.HUI: "review_act_hui",
    ActionKind.CHONGDIAN: "review_act_chongdian",
}


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's choice (None: decline what is offered), or why there is none."""

    action: Action | None = None
    refusal: str | None = None  # a text key: hints off, nothing to decide
    burn: bool = False  # the choice was about a burn window

    def text(self, lang: Lang) -> str:
        if self.refusal is not None:
            return t(self.refusal, lang)
        a = self.action
        if a is None:
            what = t("review_no_burn" if self.burn else "review_decline", lang)
        elif a.kind in _NAMED:
            what = t(_NAMED[a.kind], lang)
        else:
            what = action_text(a, lang)
        return t("teach_hint", lang, action=what)


def hint_for(state: HandState, seat: int, seed: int) -> Hint:
    """The expert's choice for ``seat`` now (pure CPU work: run it off the loop)."""
    legal = options(state, seat)
    if not legal:
        return Hint(refusal="teach_hint_wait")
    rng = random.Random(f"hint:{seed}:{state.step}:{seat}")
    choice = decide(state, seat, ExpertPolicy(state.rules), rng)
    return Hint(choice, burn=any(a.kind is ActionKind.BURN for a in legal))


async def table_hint(table: Table | None, user_id: str) -> Hint:
    """A seated player's hint at this table, if the group allows hints."""
    if table is None or table.run.state is None:
        return Hint(refusal="teach_hint_wait")
    if not table.settings.hints_on:
        return Hint(refusal="teach_hint_off")
    seat = table.seat_of(user_id)
    if seat is None:
        return Hint(refusal="teach_hint_wait")
    return await asyncio.to_thread(hint_for, table.run.state, seat, table.hand_seed)
