"""How many taps each legal play costs on the private keyboard, for random real states."""

from __future__ import annotations

import statistics
from collections import deque

import pytest

from adapters.telegram.callback import ActPress, decode
from adapters.telegram.keyboards import action_keyboard
from adapters.telegram.presses import control_of
from bot.engine.actions import Action, ActionKind
from bot.engine.rules import PRESET_NAMES
from bot.table import PrivateSnapshot, TableSnapshot

from ..table.test_playmenu import states

CARD_KINDS = frozenset({ActionKind.PLAY, ActionKind.BURN})


def taps_to(priv: PrivateSnapshot, snap: TableSnapshot) -> dict[Action, int]:
    """The fewest taps from the first screen to each action (breadth first)."""
    found: dict[Action, int] = {}
    seen: set[str] = set()
    todo: deque[tuple[ActPress | None, int]] = deque([(None, 0)])
    while todo:
        screen, depth = todo.popleft()
        for row in action_keyboard(
            priv, "abcdefgh", "zh", snap, None if screen is None else control_of(screen)
        ).inline_keyboard:
            for button in row:
                data = button.callback_data
                assert isinstance(data, str)
                if data in seen:
                    continue
                seen.add(data)
                press = decode(data)
                assert isinstance(press, ActPress)
                control = control_of(press)
                action = control.action if control is not None else None
                if action is not None:
                    found.setdefault(action, depth + 1)
                elif press.op in ("r", "b", "z"):
                    todo.append((press, depth + 1))
    return found


@pytest.mark.parametrize(("seed", "preset"), [(s, PRESET_NAMES[s % 5]) for s in range(1, 5)])
async def test_every_play_is_reachable_in_few_taps(seed: int, preset: str) -> None:
    per_state = []
    for priv, snap in await states(seed, preset):
        if len(priv.legal) > 400:
            continue  # a huge lead: slow to walk; paging is covered by the unit tests
        taps = taps_to(priv, snap)
        wanted = [a for a in priv.legal if a.kind in CARD_KINDS]
        assert all(a in taps for a in wanted), "every legal play is offered"
        assert all(taps[a] <= 3 for a in wanted)  # rank, then (size, then) the play
        for s in priv.menu.suggestions:
            assert taps[s.action] == 1  # suggested plays are one tap on the first row
        if ActionKind.PASS in {a.kind for a in priv.legal}:
            assert taps[Action(ActionKind.PASS)] == 1
        per_state.append(statistics.median(taps[a] for a in wanted))
    assert per_state
    # Even a play picked at random (not what the bot suggests) is two taps, typically.
    assert statistics.median(per_state) <= 2
