"""Chinese and English texts. Pure standard library so the replay referee can use it."""

from .texts import LANGS, count_text, error_text, place_name, preset_name, t, tribute_kind

__all__ = ["LANGS", "count_text", "error_text", "place_name", "preset_name", "t", "tribute_kind"]
