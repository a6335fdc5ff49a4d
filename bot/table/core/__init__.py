"""The table manager's pure core: ``(Table, Command) -> (Table, [Output])``."""

from .context import Config, Env, FinishedHand, Step
from .step import resume, step, tick_table
from .views import human_options, note_views_shown, private_snapshot, table_snapshot

__all__ = [
    "Config",
    "Env",
    "FinishedHand",
    "Step",
    "human_options",
    "note_views_shown",
    "private_snapshot",
    "resume",
    "step",
    "table_snapshot",
    "tick_table",
]
