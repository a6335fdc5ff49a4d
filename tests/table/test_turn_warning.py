"""The "快到时间了" warning counts from the turn's own timer (issue #37, item 3). A turn
the seat can only pass has a 12 s timer (``hands._turn``), not the table's 45 s; warned
``warn_before_seconds`` (10) before the table's timer would run out, it was warned 2 s
into the turn — with the turn itself. A turn is warned once, never in its first half."""

from __future__ import annotations

from bot.engine.actions import ActionKind
from bot.table import Act, PrivateNote, TableManager
from bot.table.core.timers import warn_at
from bot.table.outputs import Deadline, DeadlineKind
from bot.table.record import Table

from .conftest import CHAT, Recorder
from .test_play import ME, start_one_human, wait_for_my_turn


def warnings(rec: Recorder) -> int:
    return sum(isinstance(o, PrivateNote) and o.key == "turn_warning" for o in rec.outs)


async def _pass_only_turn(m: TableManager, clock) -> None:  # type: ignore[no-untyped-def]
    """Play the smallest card at each of my turns until one where I can only pass."""
    for _ in range(80):
        await wait_for_my_turn(m, clock)
        priv = m.private_snapshot(CHAT.key, ME.user_id)
        assert priv is not None
        plays = [a for a in priv.legal if a.kind is ActionKind.PLAY]
        if not plays:
            return
        action = min(plays, key=lambda a: sum(a.cards or ()))
        assert (await m.handle(Act(chat=CHAT, actor=ME, action=action, version=priv.version))).ok
    raise AssertionError("no pass-only turn came")


async def test_a_pass_only_turn_is_warned_by_its_own_timer(make_manager, clock) -> None:  # type: ignore[no-untyped-def]
    for seed in (24, 11, 5, 7):
        m, rec = make_manager(seed=seed)
        await start_one_human(m, turn_seconds=45, match_hands=3)
        try:
            await _pass_only_turn(m, clock)
        except AssertionError:
            continue
        d = m.tables[CHAT.key].run.deadline
        assert d is not None and d.at is not None
        assert d.at - clock.now() == 12  # the pass-only turn's own timer
        before = warnings(rec)
        clock.advance(5)
        await m.poll_timers()
        assert warnings(rec) == before  # 5 s in: not with the turn
        clock.advance(2)
        await m.poll_timers()
        assert warnings(rec) == before + 1  # 7 s in, 5 s left: warned once
        clock.advance(1)
        await m.poll_timers()
        assert warnings(rec) == before + 1
        return
    raise AssertionError("no seed gave a pass-only turn")


def _turn(seconds: float | None, table_seconds: int = 45) -> Table:
    t = Table(chat=CHAT, creator="u1", settings=None, match_seed=1)  # type: ignore[arg-type]
    t.turn_seconds = table_seconds
    t.run.deadline = Deadline(DeadlineKind.TURN, 100.0, 3, seconds)
    return t


def test_the_warning_rule() -> None:
    assert warn_at(_turn(45), 10) == 90  # 10 s before the end of a full turn
    assert warn_at(_turn(12), 10) == 94  # a 12 s turn: half way through, 6 s left
    assert warn_at(_turn(10), 10) is None  # no longer than the warning: none
    assert warn_at(_turn(None), 10) == 90  # kept before turns kept their length
    warned = _turn(45)
    warned.run.warned = True
    assert warn_at(warned, 10) is None  # once a turn
    burn = _turn(45)
    burn.run.deadline = Deadline(DeadlineKind.BURN, 100.0, 3, 3.0)
    assert warn_at(burn, 10) is None
