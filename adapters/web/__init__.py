"""The table in the browser: a Telegram Mini App and a web view for Discord (docs/web.md)."""

from . import catalogue as _catalogue  # noqa: F401  (registers the "web" text domain)
from .app import WebServer
from .config import WebConfig

__all__ = ["WebConfig", "WebServer"]
