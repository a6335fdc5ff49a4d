"""The web table's credentials: Telegram's initData check and our signed seat links."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from adapters.web.auth import (
    AuthError,
    Seat,
    check_init_data,
    check_seat,
    sign_init_data,
    sign_seat,
)

TOKEN = "123456:TEST-token-not-real"
NOW = 1_800_000_000.0


def init_data(user_id: int = 101, auth_date: float = NOW, token: str = TOKEN) -> str:
    user = json.dumps({"id": user_id, "first_name": "老王", "language_code": "zh-hans"})
    return sign_init_data(
        {"auth_date": str(int(auth_date)), "user": user, "query_id": "AAE"}, token
    )


def test_documented_algorithm_by_hand() -> None:
    """The hash is HMAC-SHA256 of the sorted key=value lines (hash left out), keyed with
    HMAC-SHA256("WebAppData", bot token): computed here independently of the module."""
    fields = {
        "auth_date": str(int(NOW)),
        "user": '{"id":7,"first_name":"A"}',
        "chat_type": "sender",
    }
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    raw = urlencode([*fields.items(), ("hash", digest)])
    user = check_init_data(raw, TOKEN, NOW)
    assert (user.user_id, user.name) == ("7", "A")


def test_good_init_data() -> None:
    user = check_init_data(init_data(), TOKEN, NOW + 60)
    assert user.user_id == "101" and user.name == "老王" and user.lang == "zh-hans"


def test_tampered_init_data() -> None:
    pairs = dict(parse_qsl(init_data()))
    pairs["user"] = pairs["user"].replace("101", "102")  # someone else's seat
    with pytest.raises(AuthError):
        check_init_data(urlencode(pairs), TOKEN, NOW)


def test_expired_init_data() -> None:
    with pytest.raises(AuthError):
        check_init_data(init_data(auth_date=NOW - 2 * 24 * 3600), TOKEN, NOW)
    with pytest.raises(AuthError):  # from the future: a clock trick, not a client
        check_init_data(init_data(auth_date=NOW + 3600), TOKEN, NOW)


def test_other_bots_token() -> None:
    with pytest.raises(AuthError):
        check_init_data(init_data(token="654321:ANOTHER-bot"), TOKEN, NOW)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "hash=",
        "garbage",
        "user=%7B%7D&auth_date=1&hash=00",
        "a=1&a=2&hash=x",
        "auth_date=1&hash=%C3%A9",  # a non-ASCII hash: compare_digest on str would raise
    ],
)
def test_malformed_init_data(raw: str) -> None:
    with pytest.raises(AuthError):
        check_init_data(raw, TOKEN, NOW)


def test_seat_tokens() -> None:
    secret = b"s3cret"
    seat = Seat("dc:55:", "9001", int(NOW) + 3600)
    token = sign_seat(secret, seat)
    assert check_seat(secret, "dc:55:", token, NOW) == seat
    with pytest.raises(AuthError):  # another table's link
        check_seat(secret, "dc:56:", token, NOW)
    with pytest.raises(AuthError):  # expired
        check_seat(secret, "dc:55:", token, NOW + 7200)
    with pytest.raises(AuthError):  # another deployment's secret
        check_seat(b"other", "dc:55:", token, NOW)
    forged = token.replace("9001", "9002", 1)
    with pytest.raises(AuthError):  # someone else's seat
        check_seat(secret, "dc:55:", forged, NOW)
    spectator = sign_seat(secret, Seat("dc:55:", "", int(NOW) + 60))
    assert check_seat(secret, "dc:55:", spectator, NOW).spectator
    # Non-ASCII digits ("²".isdigit() is true) and signatures: refused, never a TypeError.
    for bad in ("", "x", "1.2", "1.x.y", "a.1.00", "1.²2.ab", "².1.ab", f"9001.{int(NOW) + 60}.é"):
        with pytest.raises(AuthError):
            check_seat(secret, "dc:55:", bad, NOW)
