"""What every concern's queries share: the open transaction, the crash tests' fault
hook and the JSON columns."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .backend import Tx

# Called with the name of each point inside a step's transaction (tests kill the process
# there to prove a crash loses nothing).
FaultHook = Callable[[str], None]


def loads(raw: str) -> Any:
    return json.loads(raw)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class TxQueries:
    """Queries run inside one open transaction (each concern's class adds its own)."""

    def __init__(self, tx: Tx, fault: FaultHook | None = None) -> None:
        self.tx = tx
        self._fault = fault

    def fault(self, point: str) -> None:
        if self._fault is not None:
            self._fault(point)
