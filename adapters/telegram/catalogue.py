"""This front end's own texts, in the shared catalogue format.

``locale/<lang>/LC_MESSAGES/telegram.po`` beside this module holds what only the telegram front end
shows; everything shared lives in ``bot/i18n/locale``. Registering the domain lets
``bot.i18n.t`` find these keys without ``bot/`` importing an adapter.
"""

from bot.i18n import register_domain

DOMAIN = "telegram"

register_domain(DOMAIN, __package__ or __name__.rpartition(".")[0])
