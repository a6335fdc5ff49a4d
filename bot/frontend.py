"""The front-end registry: what bot/ needs to know of a platform, declared by its adapter.

bot/ names no platform. Each chat front end declares a :class:`FrontEnd` (in
``adapters/frontends.py``) and registers it: its name for the operator's lines, the
variable holding its token, the prefix of its table keys, how to read its start-up errors,
whether it takes ``--shards``, and whether its forums' topics share their group's budget
(then they share a lease: ``bot.store.leases``). The command line, the service and the
store read the registry instead of testing for a platform.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from .store import share_group_budget


class StartFailure(Enum):
    """What a platform's own start-up error means (the rest is read generically)."""

    REJECTED_TOKEN = "rejected_token"
    UNREACHABLE = "unreachable"


def _unknown(_: BaseException) -> StartFailure | None:
    return None


@dataclass(frozen=True, slots=True)
class FrontEnd:
    name: str  # in the operator's one-line errors ("Telegram")
    token_env: str  # the environment variable whose value starts its bot
    platform: str  # a ChatRef's platform: every table key starts with it and ":" ("tg")
    # How a group key reads, for ``gouji export --group`` ("tg:<chat id>").
    group_key_help: str
    # Its library's exceptions read as a StartFailure (None: read generically).
    classify: Callable[[BaseException], StartFailure | None] = _unknown
    shards: bool = False  # ``--shards K/N`` splits this front end's bot over workers
    # ``<prefix><group>:<topic>`` keys spend their group's rate budget: one lease.
    topics_share_budget: bool = False

    @property
    def key_prefix(self) -> str:
        return f"{self.platform}:"

    def owns(self, table_key: str) -> bool:
        """Whether a table (or chat, or group) key is this front end's: the one place an
        adapter reads a key's platform."""
        return table_key.startswith(self.key_prefix)


_REGISTRY: dict[str, FrontEnd] = {}


class RegistryError(ValueError):
    """Two front ends with one key prefix or one token variable."""


def register(front: FrontEnd) -> FrontEnd:
    """Add a front end (again: nothing changes); returns it, for a module-level
    ``TELEGRAM = register(FrontEnd(...))``."""
    known = _REGISTRY.get(front.key_prefix)
    if known == front:
        return front
    if known is not None or any(f.token_env == front.token_env for f in _REGISTRY.values()):
        raise RegistryError(f"{front.name}: its key prefix or token variable is taken")
    _REGISTRY[front.key_prefix] = front
    if front.topics_share_budget:
        share_group_budget(front.key_prefix)
    return front


def registered() -> tuple[FrontEnd, ...]:
    return tuple(_REGISTRY.values())


def front_end_of(table_key: str) -> FrontEnd | None:
    """The front end whose table ``table_key`` is (None: the terminal's, a test's …)."""
    return next((f for f in _REGISTRY.values() if f.owns(table_key)), None)


def with_token(environ: Mapping[str, str]) -> tuple[FrontEnd, ...]:
    """The registered front ends whose token is set."""
    return tuple(f for f in _REGISTRY.values() if environ.get(f.token_env))


def tokens_wanted() -> str:
    """``"A or B"``: the token variables, for "none is set"."""
    return " or ".join(f.token_env for f in _REGISTRY.values()) or "chat bot token"
