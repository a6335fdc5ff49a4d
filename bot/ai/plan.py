"""A hand plan for leads: which sets come back (回牌) and how many turns the hand needs.

The lecture's 出回牌: a set nobody can beat any more takes the lead back, so a hand whose
sure winners cover all but one of its other sets runs out. The 2s and jokers count here
too: attached to a set they can make it a sure winner (挂花, 贴钱), one more 回牌.
The plan is a greedy split, enough for a hand of at most a few dozen cards: every rank
group is one set, the sets nobody can beat are winners, and the spare 2s and jokers go,
cheapest first, onto the highest of the other sets that they turn into winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import I_BIG, I_SMALL, I_TWO
from ..engine.plays import Play
from ..engine.rules import Rules
from .hand import RANK_SLOTS, plain_only_slots
from .tracking import Seen

# Attachments tried per set, cheapest first: (2s, small jokers, big jokers).
_ATTACH = ((1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 2, 0), (1, 0, 1), (0, 1, 1))


@dataclass(frozen=True, slots=True)
class HandPlan:
    winners: tuple[Play, ...]  # plain whole sets nobody can beat
    made: tuple[Play, ...]  # other sets that 2s and jokers make unbeatable (when it matters)
    losers: tuple[Play, ...]  # the rest, lowest first

    @property
    def turns(self) -> int:
        """Leads the hand still needs to win: each 回牌 takes the lead back for a loser."""
        return max(1, len(self.losers) - len(self.winners) - len(self.made))

    def runs_out(self) -> bool:
        """Whether the sets that come back cover all but the last of the others."""
        return len(self.losers) <= len(self.winners) + len(self.made) + 1


def plan_hand(hand: Sequence[int], rules: Rules, seen: Seen) -> HandPlan:
    """The greedy plan of ``hand`` (see the module docstring)."""
    plain = plain_only_slots(rules)
    winners: list[Play] = []
    losers: list[Play] = []
    for i in range(RANK_SLOTS):
        if hand[i]:
            p = Play(i + 3, hand[i])
            (losers if seen.beatable(p) else winners).append(p)
    spare = [hand[I_TWO], hand[I_SMALL], hand[I_BIG]]
    if len(losers) - len(winners) - 1 > sum(spare):
        # Each spare card makes at most one more 回牌: the hand cannot run out, so the
        # (dearer) search for attachments is skipped and ``made`` stays empty.
        return HandPlan(tuple(winners), (), tuple(losers))
    made: list[Play] = []
    kept: list[Play] = []
    for p in reversed(losers):  # the highest sets need the least help
        boosted = None
        if p.base - 3 not in plain:
            for t, s, b in _ATTACH:
                if t > spare[0] or s > spare[1] or b > spare[2]:
                    continue
                q = Play(p.base, p.n, t, s, b)
                if not seen.beatable(q):
                    boosted = q
                    break
        if boosted is None:
            kept.append(p)
            continue
        spare[0] -= boosted.twos
        spare[1] -= boosted.small
        spare[2] -= boosted.big
        made.append(boosted)
    return HandPlan(tuple(winners), tuple(made), tuple(reversed(kept)))
