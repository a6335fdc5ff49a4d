"""PTB's transport to the Bot API over aiohttp (already installed: discord.py runs on it).

Why not PTB's default (httpx): under load a worker makes dozens of Bot API calls a
second, and httpcore's connection pool checks every pooled connection on every request
(a readability poll per idle connection), so with PTB's pool of 256 connections
10-15 % of a busy worker's time went into picking a connection; with a small pool the
callback answers queued behind keyboard edits instead. aiohttp's connector hands out a
kept-alive connection in constant time. The shape follows ptbcontrib's
``AiohttpRequest``: PTB's parameters go as a form (multipart when there are files).
"""

from __future__ import annotations

import asyncio
import ssl

import aiohttp
import certifi
from aiohttp.helpers import get_env_proxy_for_url
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

CONNECTIONS = 64  # per worker; more calls wait for a free one (``WAIT_FOR_CONNECTION``)
WAIT_FOR_CONNECTION = 30.0  # seconds: a queued keyboard edit is late, not lost
READ = 10.0  # seconds for an ordinary call's answer
MEDIA = 30.0  # seconds for a call that uploads a picture

_Proxy = tuple[URL | None, aiohttp.BasicAuth | None]  # a proxy and its credentials, or none


class AiohttpRequest(BaseRequest):
    """A ``BaseRequest`` on one ``aiohttp.ClientSession``, made on first use inside the
    running event loop (PTB builds its requests before the loop runs)."""

    __slots__ = ("_connections", "_proxies", "_session")

    def __init__(self, connections: int = CONNECTIONS) -> None:
        self._connections = connections
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[URL, _Proxy] = {}

    @property
    def read_timeout(self) -> float | None:
        return READ

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            # Certificates from certifi, as PTB's httpx had them: a slim container may have
            # no system store at all.
            tls = ssl.create_default_context(cafile=certifi.where())
            connector = aiohttp.TCPConnector(limit=self._connections, ssl=tls)
            # No ``trust_env``: with it aiohttp reads the environment and ~/.netrc again on
            # every call, each in a thread of its own (two thread hand-offs a call: 10 % of
            # a busy worker's samples). The proxy is looked up once per origin instead.
            self._session = aiohttp.ClientSession(connector=connector)

    async def _proxy(self, url: str) -> _Proxy:
        """HTTP(S)_PROXY and NO_PROXY from the environment, as PTB's httpx honoured them
        (where Telegram is blocked, a proxy is how a bot reaches it at all): looked up the
        first time an origin is called (the Bot API has one), kept for the process."""
        origin = URL(url).origin()
        found = self._proxies.get(origin)
        if found is None:
            found = await asyncio.to_thread(_env_proxy, origin)
            self._proxies[origin] = found
        return found

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        write_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        connect_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        pool_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        await self.initialize()
        assert self._session is not None
        files = request_data is not None and request_data.contains_files
        proxy, proxy_auth = await self._proxy(url)
        timeout = aiohttp.ClientTimeout(
            total=(MEDIA if files else _seconds(read_timeout, READ)) + WAIT_FOR_CONNECTION,
            connect=_seconds(pool_timeout, WAIT_FOR_CONNECTION),
            sock_read=MEDIA if files else _seconds(read_timeout, READ),
        )
        try:
            async with self._session.request(
                method,
                url,
                data=_form(request_data),
                headers={"User-Agent": self.USER_AGENT},
                timeout=timeout,
                proxy=proxy,
                proxy_auth=proxy_auth,
            ) as response:
                return response.status, await response.read()
        except TimeoutError as err:
            raise TimedOut(f"Bot API call timed out: {err!r}") from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err


def _env_proxy(origin: URL) -> _Proxy:
    """The environment's proxy for ``origin`` (credentials from the URL or ~/.netrc), or
    none: no proxy set, or the host is in NO_PROXY."""
    try:
        return get_env_proxy_for_url(origin)
    except LookupError:
        return (None, None)


def _seconds(value: float | object | None, default: float) -> float:
    """PTB passes ``DEFAULT_NONE`` (use ours), None (no limit: ours too — a call with no
    limit at all could hold a connection forever) or a number."""
    return value if isinstance(value, int | float) else default


def _form(data: RequestData | None) -> aiohttp.FormData | None:
    if data is None:
        return None
    form = aiohttp.FormData(data.json_parameters)
    for name, (filename, content, content_type) in data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=content_type)
    return form
