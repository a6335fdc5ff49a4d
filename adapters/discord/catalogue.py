"""This front end's own texts, in the shared catalogue format.

``locale/<lang>/LC_MESSAGES/discord.po`` beside this module holds what only the discord front end
shows; everything shared lives in ``bot/i18n/locale``. Registering the domain lets
``bot.i18n.t`` find these keys without ``bot/`` importing an adapter.
"""

from bot.i18n import register_domain

DOMAIN = "discord"

register_domain(DOMAIN, __package__ or __name__.rpartition(".")[0])
