"""Chinese and English texts. Pure standard library so the replay referee can use it."""

from .texts import LANGS, error_text, t

__all__ = ["LANGS", "error_text", "t"]
