"""Finished hands as records: the stored form, the RULES §15 scenario export, the
trick-by-trick step-through, and the answers to "why" from the engine's own codes.

Pure: no I/O. The store keeps the JSON form; adapters render what these functions return.
"""

from .export import ExportError, hand_scenario, match_scenario
from .record import RECORD_FORMAT, HandRecord, record_json
from .steps import Frame, frames

__all__ = [
    "RECORD_FORMAT",
    "ExportError",
    "Frame",
    "HandRecord",
    "frames",
    "hand_scenario",
    "match_scenario",
    "record_json",
]
