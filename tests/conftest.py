"""Suite-wide settings: a missing text or a template that does not format fails the test."""

from bot.i18n import set_strict

set_strict(True)
