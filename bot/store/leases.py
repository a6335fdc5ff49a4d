"""Which chats share a lease: one sender at a time per lease, one lease per rate limit.

A chat has its own lease unless its front end declared that its key prefix names forums
whose topics spend their group's budget (``share_group_budget``): then a key
``<prefix><group>:<topic>`` falls under the lease ``<prefix><group>:``. The rule is the
front end's (bot/ names no platform: see ``bot.frontend``); the keys stored are unchanged.
``lease_key`` and ``lease_sql`` are the same rule in Python and in SQL.
"""

from __future__ import annotations

import re

from .backend import Dialect

# A prefix goes into SQL text as a LIKE pattern: letters and a colon only (no quote, no
# wildcard), so it can be neither an injection nor a pattern that matches more.
_PREFIX = re.compile(r"[a-z]+:")
_GROUPED: list[str] = []  # in registration order (the SQL CASE tries them in turn)


class LeasePrefixError(ValueError):
    """A prefix that is not lowercase letters and a colon (``"tg:"``)."""


def share_group_budget(prefix: str) -> None:
    """Keys ``<prefix><group>:<topic>`` share the lease of ``<prefix><group>:``.
    Registering a prefix twice changes nothing."""
    if not _PREFIX.fullmatch(prefix):
        raise LeasePrefixError(f"lease prefix {prefix!r} is not lowercase letters and ':'")
    if prefix not in _GROUPED:
        _GROUPED.append(prefix)


def grouped_prefixes() -> tuple[str, ...]:
    return tuple(_GROUPED)


def lease_key(chat_key: str) -> str:
    """The key of the lease that covers a chat (itself, or its forum group's)."""
    for prefix in _GROUPED:
        rest = chat_key[len(prefix) :]
        if chat_key.startswith(prefix) and ":" in rest:
            return prefix + rest.partition(":")[0] + ":"
    return chat_key


def lease_sql(column: str, dialect: Dialect) -> str:
    """``lease_key`` of a chat key column, in SQL both back ends run (only the name of
    the function that finds a character differs)."""
    find = "strpos" if dialect is Dialect.POSTGRES else "instr"
    cases = [
        f"WHEN {column} LIKE '{prefix}%:%' THEN substr({column}, 1, "
        f"{len(prefix)} + {find}(substr({column}, {len(prefix) + 1}), ':'))"
        for prefix in _GROUPED
    ]
    if not cases:
        return column
    return f"CASE {' '.join(cases)} ELSE {column} END"
