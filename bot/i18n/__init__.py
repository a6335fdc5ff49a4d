"""Chinese and English texts from gettext catalogues. Standard library only, so the replay
referee can use it on a bare Python."""

from .catalogue import MissingText, TextFormatError, register_domain, set_strict
from .texts import (
    LANGS,
    bonus_kind,
    count_text,
    error_text,
    has_text,
    image_label,
    place_name,
    preset_name,
    t,
    tribute_kind,
    use_wording,
    wording,
)

__all__ = [
    "LANGS",
    "MissingText",
    "TextFormatError",
    "bonus_kind",
    "count_text",
    "error_text",
    "has_text",
    "image_label",
    "place_name",
    "preset_name",
    "register_domain",
    "set_strict",
    "t",
    "tribute_kind",
    "use_wording",
    "wording",
]
