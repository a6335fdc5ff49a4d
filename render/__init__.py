"""Card, hand, table and result images (Pillow), drawn in code with a shipped CJK font."""

from .hand import render_hand
from .result import render_result, result_png
from .style import to_png
from .table import render_table

__all__ = ["render_hand", "render_result", "render_table", "result_png", "to_png"]
