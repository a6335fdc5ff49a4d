"""The web table's settings, read once at start: where it listens, where it is announced,
and the secret its links are signed with. A setting it cannot start with is one line for
the operator (``StartupError``), like the bots' own."""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from bot.service import StartupError

from .auth import SPECTATOR, Seat, sign_seat

URL_ENV = "GOUJI_WEB_URL"
PORT_ENV = "GOUJI_WEB_PORT"
HOST_ENV = "GOUJI_WEB_HOST"
SECRET_ENV = "GOUJI_WEB_SECRET"
DEFAULT_PORT = 8088
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
PERSONAL_LINK_SECONDS = 12 * 3600  # a Discord seat link lasts a match
SPECTATOR_LINK_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class WebConfig:
    base_url: str  # the public base, no trailing slash (https, or http on loopback)
    host: str
    port: int
    secret: bytes  # signs seat links and the seat tokens Telegram pages trade initData for
    telegram_token: str | None = None

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> WebConfig | None:
        """None when ``GOUJI_WEB_URL`` is unset (no web table: nothing changes)."""
        env = os.environ if env is None else env
        url = (env.get(URL_ENV) or "").strip().rstrip("/")
        if not url:
            return None
        check_url(url)
        raw_port = env.get(PORT_ENV) or str(DEFAULT_PORT)
        if not raw_port.isdigit() or not 0 <= int(raw_port) <= 65535:
            raise StartupError(f"{PORT_ENV} must be a port number, not {raw_port!r}")
        tg = env.get("GOUJI_TELEGRAM_TOKEN") or None
        return WebConfig(
            url,
            env.get(HOST_ENV) or "0.0.0.0",
            int(raw_port),
            secret_of(env.get(SECRET_ENV), tg, env.get("GOUJI_DISCORD_TOKEN")),
            tg,
        )

    def app_url(self, table: str) -> str:
        """The page of a table; a Telegram client appends ``#tgWebAppData=…``."""
        return f"{self.base_url}/app?t={quote(table, safe='')}"

    def seat_url(self, table: str, user_id: str, now: float | None = None) -> str:
        """A personal signed link (Discord): this user's seat at this table."""
        ttl = SPECTATOR_LINK_SECONDS if user_id == SPECTATOR else PERSONAL_LINK_SECONDS
        # Whole hours: the link (and the message holding it) stays the same for an hour.
        now = time.time() if now is None else now
        expires = (int(now + ttl) // 3600 + 1) * 3600
        token = sign_seat(self.secret, Seat(table, user_id, expires))
        return f"{self.app_url(table)}&s={token}"

    def spectator_url(self, table: str, now: float | None = None) -> str:
        return self.seat_url(table, SPECTATOR, now)

    def replay_url(self, table: str, number: int, now: float | None = None) -> str:
        """A finished hand of the table's group, stepped trick by trick in the page."""
        now = time.time() if now is None else now
        expires = (int(now + SPECTATOR_LINK_SECONDS) // 3600 + 1) * 3600
        token = sign_seat(self.secret, Seat(replay_scope(table, number), SPECTATOR, expires))
        return f"{self.base_url}/replay?t={quote(table, safe='')}&n={number}&s={token}"


def replay_scope(table: str, number: int) -> str:
    """What a replay link's signature covers: one finished hand, not the live table."""
    return f"replay:{table}:{number}"


def check_url(url: str) -> None:
    """Telegram opens Mini Apps over https only; plain http is for a loopback test."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme == "https" and host:
        return
    if parts.scheme == "http" and host in LOOPBACK:
        return
    raise StartupError(
        f"{URL_ENV} must be an https:// URL (http only on 127.0.0.1/localhost), not {url!r}"
    )


def secret_of(secret: str | None, *tokens: str | None) -> bytes:
    """``GOUJI_WEB_SECRET``, else one drawn from the bot tokens: every worker of a cluster
    has the same tokens, so any worker checks any other's links."""
    if secret:
        return secret.encode()
    material = "\n".join(tok for tok in tokens if tok)
    return hmac.new(b"gouji-web-links", material.encode(), hashlib.sha256).digest()
