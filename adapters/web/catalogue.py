"""This front end's own texts, in the shared catalogue format.

``locale/<lang>/LC_MESSAGES/web.po`` beside this module holds what only the web page
shows (its labels, statuses and refusals); the page gets them as JSON
(``GET /api/texts``), so the browser and the chats read one catalogue.
"""

from bot.i18n import register_domain

DOMAIN = "web"

register_domain(DOMAIN, __package__ or __name__.rpartition(".")[0])
