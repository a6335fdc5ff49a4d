"""Who is asking: Telegram's signed ``initData`` and our own signed links.

Two kinds of credential reach the page. A Telegram Mini App opens with ``initData``, a
query string the Telegram client signed with a key only Telegram and this bot know
(HMAC-SHA256 keyed with ``HMAC-SHA256("WebAppData", bot token)``, the documented
algorithm: https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).
Everything else is one of our links: a seat token signed with ``GOUJI_WEB_SECRET`` over
the table, the user (empty for a spectator) and an expiry. A Telegram page trades its
``initData`` for such a token once, so one check serves the live stream and every action.
Pure functions; the clock is a parameter.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

# How long Telegram's initData is honoured after the client signed it (it is signed
# when the Mini App opens; a page left open renews nothing, its seat token carries on).
INIT_DATA_MAX_AGE = 24 * 3600.0
SPECTATOR = ""  # the user of a spectator token


class AuthError(Exception):
    """A credential that does not hold (forged, expired, another bot's, another table's)."""


@dataclass(frozen=True, slots=True)
class TelegramUser:
    user_id: str
    name: str
    lang: str
    auth_date: int


def _init_data_hash(pairs: list[tuple[str, str]], bot_token: str) -> str:
    check = "\n".join(f"{k}={v}" for k, v in sorted(pairs) if k != "hash")
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """initData as the Telegram client makes it (tests and the benchmark open pages so)."""
    from urllib.parse import urlencode

    pairs = sorted(fields.items())
    return urlencode([*pairs, ("hash", _init_data_hash(pairs, bot_token))])


def check_init_data(
    init_data: str, bot_token: str, now: float, max_age: float = INIT_DATA_MAX_AGE
) -> TelegramUser:
    """The user a Telegram Mini App was opened by, or ``AuthError``."""
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as err:
        raise AuthError("malformed initData") from err
    given = dict(pairs).get("hash", "")
    # Bytes, not str: compare_digest raises TypeError on a non-ASCII str (a forged hash).
    if len(pairs) != len(dict(pairs)) or not hmac.compare_digest(
        given.encode(), _init_data_hash(pairs, bot_token).encode()
    ):
        raise AuthError("initData signature does not match")
    fields = dict(pairs)
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
        user_id = str(int(user["id"]))
    except (ValueError, TypeError, KeyError) as err:
        raise AuthError("initData without a user") from err
    if not now - max_age <= auth_date <= now + 60:
        raise AuthError("initData expired")
    name = str(user.get("first_name") or user.get("username") or user_id)[:64]
    return TelegramUser(user_id, name, str(user.get("language_code") or ""), auth_date)


@dataclass(frozen=True, slots=True)
class Seat:
    """What a seat token grants: this table, seen as this user (SPECTATOR: public only)."""

    table: str
    user_id: str
    expires: int

    @property
    def spectator(self) -> bool:
        return self.user_id == SPECTATOR


def _token_sig(secret: bytes, table: str, user_id: str, expires: int) -> str:
    msg = f"{table}\n{user_id}\n{expires}".encode()
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()[:40]


def sign_seat(secret: bytes, seat: Seat) -> str:
    """The token of a seat link: ``<user>.<expiry>.<signature>`` (the table is in the URL)."""
    sig = _token_sig(secret, seat.table, seat.user_id, seat.expires)
    return f"{seat.user_id}.{seat.expires}.{sig}"


def _digits(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is true, and ``int("²")`` fails."""
    return text.isascii() and text.isdigit()


def check_seat(secret: bytes, table: str, token: str, now: float) -> Seat:
    """The seat a token grants at ``table``, or ``AuthError`` (forged, expired, foreign)."""
    user_id, _, rest = token.partition(".")
    expiry, _, sig = rest.partition(".")
    if not _digits(expiry) or len(expiry) > 12 or (user_id and not _digits(user_id)):
        raise AuthError("malformed token")
    expires = int(expiry)
    if not hmac.compare_digest(sig.encode(), _token_sig(secret, table, user_id, expires).encode()):
        raise AuthError("token signature does not match")
    if expires < now:
        raise AuthError("token expired")
    return Seat(table, user_id, expires)
