"""The Telegram bot: a python-telegram-bot Application around the shared TableManager.

``start()`` returns once the bot is receiving updates (long polling, or a webhook when a
URL is given), so Telegram and Discord can share one event loop; ``stop()`` undoes it.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from urllib.parse import urlparse

from telegram import BotCommand
from telegram.ext import AIORateLimiter, Application, BaseRateLimiter
from telegram.request import BaseRequest

from bot.frontend import FrontEnd
from bot.i18n import t
from bot.service import StartupError
from bot.table import Clock, SystemClock, TableManager

from ..drawing import Drawer
from ..frontends import TELEGRAM
from ..pacing import GlobalRate
from .book import MessageBook
from .context import Context
from .group import GroupCommands
from .handlers import GROUP_COMMANDS, Router
from .ids import TableIds
from .private import PrivateChat
from .publisher import Publisher
from .records import RecordChat
from .request import AiohttpRequest
from .sender import GROUP_TABLE_INTERVAL, Sender
from .sendlog import TableMetaMemory
from .settings_menu import SettingsMenu
from .views import PillowRenderer, Renderer
from .webhook import Webhook

log = logging.getLogger(__name__)

MENU = GROUP_COMMANDS  # the command menu lists every group command, in this order
ALLOWED_UPDATES = ["message", "callback_query"]
# Bot API calls a second for the whole bot (Telegram's bulk limit is about 30): PTB's
# limiter in each process, and on several workers the bucket their chat calls share.
DEFAULT_CALLS_PER_SECOND = 30.0
# Calls the bucket several workers share lets go at once (then one a 1/rate slot): a
# play's own calls — the table edit and the players' hand messages, up to seven — leave
# together, as PTB's limiter lets one process send them (its bucket holds a whole
# second's calls). With one, a turn's next keyboard waited a slot behind each earlier
# edit (issue #38). At most rate + burst calls in any second (38 of the default 30).
SHARED_BURST = 8.0
TELEGRAM_RATE_ENV = "GOUJI_TELEGRAM_CALLS_PER_SECOND"


class _NoRetryNoise(logging.Filter):
    """AIORateLimiter logs every 429 with a traceback when it is not to retry; the Sender
    handles (and logs) each one itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Rate limit hit after maximum of 0 retries")


logging.getLogger("telegram.ext.AIORateLimiter").addFilter(_NoRetryNoise())
# httpx logs each request URL at INFO, and the URL holds the bot token.
logging.getLogger("httpx").setLevel(logging.WARNING)


def api_urls(api_url: str) -> tuple[str, str]:
    """base_url and base_file_url for a self-hosted Bot API server (``http://host:8081``)."""
    root = api_url.rstrip("/")
    root = root.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


def telegram_rate(raw: str | None) -> float:
    """Bot API calls a second for the whole bot (``GOUJI_TELEGRAM_CALLS_PER_SECOND``):
    PTB's limiter in each process; several workers share it through the database."""
    if raw is None or not raw.strip():
        return DEFAULT_CALLS_PER_SECOND
    try:
        rate = float(raw)
    except ValueError:
        rate = 0.0
    if not 1 <= rate <= 1000:  # below one call a second PTB's limiter cannot send at all
        raise StartupError(
            f"{TELEGRAM_RATE_ENV} must be a number of calls a second from 1 to 1000, not {raw!r}"
        )
    return rate


def _transports() -> tuple[AiohttpRequest, AiohttpRequest]:
    """Bot API calls, and long polling: it holds its connection for up to a minute, so
    it has a pool of its own."""
    return AiohttpRequest(), AiohttpRequest(1)


def _application(
    token: str,
    api_url: str | None,
    request: BaseRequest | None,
    rate_limiter: BaseRateLimiter | None,  # type: ignore[type-arg]
    calls_per_second: float,
) -> tuple[Application, tuple[AiohttpRequest, ...]]:  # type: ignore[type-arg]
    """PTB's application, and the transports it was given that are ours to close (a test
    brings its own request, which PTB closes)."""
    # The library keeps the bot-wide limit (``calls_per_second``). The per-group limit is
    # the Sender's, which counts only real sends and edits (an admin check is not a
    # message) and never sleeps inside a call. max_retries=0: a 429 comes back to the
    # Sender, which pauses just that chat on its own clock.
    limiter = rate_limiter or AIORateLimiter(
        overall_max_rate=calls_per_second, group_max_rate=0, max_retries=0
    )
    builder = Application.builder().token(token).rate_limiter(limiter)
    if api_url:
        base, files = api_urls(api_url)
        builder = builder.base_url(base).base_file_url(files)
    own: tuple[AiohttpRequest, ...] = ()
    if request is None:
        own = calls, polling = _transports()
        builder = builder.request(calls).get_updates_request(polling)
    else:
        builder = builder.request(request).get_updates_request(request)
    # A webhook's updates do not pass through PTB's queue: ``Webhook`` handles each in its
    # request's own task (one update waiting for its table holds up no other chat's).
    return builder.build(), own


def _router(ctx: Context, publisher: Publisher) -> Router:
    menu = SettingsMenu(ctx)
    private = PrivateChat(ctx, publisher)
    return Router(ctx, GroupCommands(ctx, publisher, menu), private, menu, RecordChat(ctx))


class TelegramBot:
    front_end: FrontEnd = TELEGRAM

    def __init__(
        self,
        manager: TableManager,
        token: str,
        api_url: str | None = None,
        webhook_url: str | None = None,
        webhook_port: int = 8443,
        *,
        request: BaseRequest | None = None,
        rate_limiter: BaseRateLimiter | None = None,  # type: ignore[type-arg]
        renderer: Renderer | None = None,
        drawer: Drawer | None = None,
        clock: Clock | None = None,
        run_sender: bool = True,
        listen: str = "0.0.0.0",
        webhook_secret: str | None = None,
        calls_per_second: float = DEFAULT_CALLS_PER_SECOND,
    ) -> None:
        self.manager = manager
        self.webhook_url = webhook_url
        self.webhook_port = webhook_port
        # Workers behind one webhook URL share its secret; one worker alone may draw its own.
        self.webhook_secret = webhook_secret or secrets.token_urlsafe(32)
        self.listen = listen
        self.webhook: Webhook | None = None  # serving (``_start_webhook``)
        self.run_sender = run_sender
        self.app, self._transports = _application(
            token, api_url, request, rate_limiter, calls_per_second
        )
        clock = clock or manager.clock
        # The budget keeps call times across a restart in wall-clock seconds (tests: fake).
        wall = time.time if isinstance(clock, SystemClock) else clock.now
        memory = TableMetaMemory(manager)  # the budget's window and a 429's pause
        self.sender = Sender(clock, memory=memory, pauses=memory, wall=wall)
        self.ctx = Context(
            manager=manager,
            sender=self.sender,
            ids=TableIds(manager),
            book=MessageBook(manager),
            renderer=renderer or PillowRenderer(),
            draw=drawer or Drawer(),
            clock=clock,
            table_interval=GROUP_TABLE_INTERVAL,
        )
        self.publisher = Publisher(self.ctx)
        self.router = _router(self.ctx, self.publisher)
        self.records = self.router.records
        self._own_drawer = drawer is None
        self._initialized = False
        self._connect(manager)

    def share_rate(self, rate: GlobalRate) -> None:
        """Ask ``rate`` before each call to a chat: on several workers a bucket in the
        database (bot.cluster.ratebucket), so their calls together keep Telegram's
        bot-wide limit however many workers there are."""
        self.sender.rules.rate = rate

    def link_web(self, table: Callable[[str], str], replay: Callable[[str, int], str]) -> None:
        """Link the web table (adapters/web): the hand message opens a table's page as a
        Mini App (``table``: its URL), /replay links the finished hand (``replay``)."""
        self.ctx.web_app = table
        self.ctx.web_replay = replay

    def _connect(self, manager: TableManager) -> None:
        """Updates in (the router's handlers), outputs out (the manager's events)."""
        self.router.register(self.app)
        manager.subscribe(self.publisher.on_out, TELEGRAM, hands=True)
        manager.subscribe_replies(self.ctx.relayed)
        manager.subscribe_recalls(self.sender.recall_chat)

    async def initialize(self) -> None:
        """Connect (getMe); enough to process updates by hand."""
        if self._initialized:
            return
        try:
            await self.app.initialize()
        except BaseException:
            # PTB opened its transports before getMe failed and will not close them (its
            # bot never counted as initialised): close them here, or each leaks a session.
            for transport in self._transports:
                await transport.shutdown()
            raise
        self.ctx.bot = self.app.bot
        self._initialized = True

    async def start(self) -> None:
        await self.initialize()
        self.ctx.draw.start()  # the drawing process loads while the bot connects
        await self.set_commands()
        await self.app.start()
        if self.webhook_url:
            await self._start_webhook(self.webhook_url)
        else:
            updater = self.app.updater
            assert updater is not None
            await updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        if self.run_sender:
            self.sender.start()
        log.info("telegram bot @%s is up", self.app.bot.username)

    async def _start_webhook(self, url: str) -> None:
        """Serve the webhook (``Webhook``: answered once the update's step committed),
        then tell Telegram where it is — every worker registers the same URL and secret."""
        path = urlparse(url).path
        webhook = Webhook(self.app, path, self.webhook_secret, self.listen, self.webhook_port)
        await webhook.start()
        self.webhook = webhook
        await self.app.bot.set_webhook(
            url=url, allowed_updates=ALLOWED_UPDATES, secret_token=self.webhook_secret
        )

    async def stop(self) -> None:
        if self.webhook is not None:  # no new updates; those being handled finish first
            await self.webhook.stop()
            self.webhook = None
        await self.sender.stop()
        # A drawer it was given is shared (adapters/main.py: with the Discord bot) and ends
        # with the process; one it made itself it closes.
        if self._own_drawer:
            self.ctx.draw.close()
        updater = self.app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.app.running:
            await self.app.stop()
        if self._initialized:
            await self.app.shutdown()
            self._initialized = False

    async def set_commands(self) -> None:
        """The command menu: Chinese by default, English for English-language clients."""
        bot = self.app.bot
        zh = [BotCommand(name, t(f"cmd_{name}", "zh")) for name in MENU]
        en = [BotCommand(name, t(f"cmd_{name}", "en")) for name in MENU]
        await bot.set_my_commands(zh)
        await bot.set_my_commands(zh, language_code="zh")
        await bot.set_my_commands(en, language_code="en")

    async def pump(self) -> float | None:
        """Send whatever is due now (tests drive this with a fake clock)."""
        return await self.sender.pump()
