"""Play 够级 in a terminal: you in seat 1 against five AI seats, or watch six AI seats."""

from . import catalogue as catalogue  # registers this front end's texts first
from .app import ConsoleTable
from .run import play, watch

__all__ = ["ConsoleTable", "play", "watch"]
