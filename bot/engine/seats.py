"""Seats around the table: the opposite, the next seat either way, the teams (RULES §1).

A module of their own so that a build that compiles the engine's internals (setup.py)
compiles these too: the transitions and the playouts ask them millions of times, and a
call from compiled code into a Python function costs more than the function does.
``bot.engine.state`` re-exports them.
"""

from __future__ import annotations


def opp(seat: int) -> int:
    """对门: the seat opposite (n+3 mod 6)."""
    return (seat + 2) % 6 + 1


def down(seat: int) -> int:
    """下家: the next seat counter-clockwise."""
    return seat % 6 + 1


def up(seat: int) -> int:
    return (seat - 2) % 6 + 1


def same_team(a: int, b: int) -> bool:
    return a % 2 == b % 2
