"""What a finished hand passes to the next hand of the same match (RULES.md §10, §13).

A match is a run of hands at one table. Between two hands it carries: the tributes the
last hand owes (given from the next deal), who leads next (switch ``next_leader``), each
seat's 点 streak (switch ``point_streak``) and the running team totals. After a voided hand
the same leader deals again and the same tributes are owed. ``carry_over`` is pure, so the
referee and the table manager compute the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import next_leader
from .state import NO_STREAKS, HandState, Tribute, team_key


@dataclass(frozen=True, slots=True)
class MatchCarry:
    """The state of a match between two hands."""

    leader: int | None = None  # leads the next hand; None: drawn from the first deal's seed
    owed: tuple[Tribute, ...] = ()  # tributes the next deal gives
    streaks: tuple[int, ...] = NO_STREAKS  # 点 streaks per seat, as new_hand takes them
    scores: tuple[int, int] = (0, 0)  # running totals of team 1-3-5 and team 2-4-6
    hands: int = 0  # hands finished (a voided hand does not count)
    deals: int = 0  # hands dealt, voided ones included

    def scores_json(self) -> dict[str, int]:
        return {"135": self.scores[0], "246": self.scores[1]}


def carry_over(carry: MatchCarry, finished: HandState) -> MatchCarry:
    """The match after ``finished`` (which must be over or voided)."""
    res = finished.result
    if res is None:
        raise ValueError("carry_over needs a finished hand")
    if res.voided:
        # A voided hand neither extends nor breaks a 点 streak (RULES §10).
        streaks = carry.streaks
        # Redeal: the voided deal never counted. The same leader, the same tributes owed
        # (given again from the new cards), no score (docs/rules.md).
        return MatchCarry(
            finished.leader, carry.owed, streaks, carry.scores, carry.hands, carry.deals + 1
        )
    # The engine counts the streaks as it judges the hand (``HandResult.streaks``).
    scores = (carry.scores[0] + res.team_scores[0], carry.scores[1] + res.team_scores[1])
    return MatchCarry(
        leader=next_leader(finished),
        owed=res.tributes if finished.rules.tribute else (),
        streaks=res.streaks,
        scores=scores,
        hands=carry.hands + 1,
        deals=carry.deals + 1,
    )


def team_total(carry: MatchCarry, seat: int) -> int:
    """The running total of the seat's team."""
    return carry.scores[0] if team_key(seat) == "135" else carry.scores[1]
