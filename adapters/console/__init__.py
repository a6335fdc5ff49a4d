"""Play 够级 in a terminal: you in seat 1 against five AI seats, or watch six AI seats."""

from .app import ConsoleTable, watch

__all__ = ["ConsoleTable", "watch"]
