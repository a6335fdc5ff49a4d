"""The text catalogue: gettext ``.po`` files, one per language and domain, read at run time.

The shared domain ``gouji`` (``bot/i18n/locale``) holds every text more than one front end
shows: refusals by error code (context ``error``), replies and notices (no context), the
words drawn on images (context ``image``), preset, place and tribute names. A front end
keeps its own texts in its own domain (``adapters/telegram/locale/.../telegram.po``) and
registers it with :func:`register_domain`, so ``bot/`` never imports an adapter.

Keys are neutral identifiers (``msgid "joined"``), not source sentences: Chinese is the
first language and English is a translation like any other, so neither language is the
key. Plural entries (``msgid_plural``) pick their form by the ``count`` parameter.

A missing key or a template that does not format raises in strict mode (the test suite
turns it on; so does ``GOUJI_STRICT_TEXTS=1``). Outside it the error is logged and the
key (or the unformatted template) is shown, so a typo never takes a table down.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeAlias, TypeGuard

from .po import PoEntry, header, read_po

log = logging.getLogger(__name__)

# The catalogue's languages: Chinese first, English a translation like any other.
Lang: TypeAlias = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
SHARED_DOMAIN = "gouji"
# The plural rule of each language, as the catalogues' Plural-Forms headers state it.
PLURAL_RULES: dict[Lang, Callable[[int], int]] = {
    "zh": lambda n: 0,
    "en": lambda n: 0 if n == 1 else 1,
}

Key = tuple[str | None, str]  # (msgctxt, msgid)


class MissingText(KeyError):
    """A key that no registered catalogue has, in the language asked for."""


class TextFormatError(ValueError):
    """A template whose placeholders the given parameters do not fill."""


_domains: dict[str, str] = {SHARED_DOMAIN: "bot.i18n"}  # domain -> package holding locale/
_strict = os.environ.get("GOUJI_STRICT_TEXTS", "") not in ("", "0")


def set_strict(on: bool) -> None:
    """Raise on a missing key or a format error instead of logging it (tests do this)."""
    global _strict
    _strict = on


def register_domain(domain: str, package: str) -> None:
    """Make ``package``'s ``locale/<lang>/LC_MESSAGES/<domain>.po`` searchable by key."""
    if _domains.get(domain, package) != package:
        raise ValueError(f"text domain {domain!r} is already registered")
    _domains[domain] = package


def domains() -> dict[str, str]:
    return dict(_domains)


def norm_lang(lang: str) -> Lang:
    """Catalogue language for a settings/locale value: English for any ``en*``, else Chinese."""
    return "en" if lang.lower().startswith("en") else "zh"


def is_lang(value: object) -> TypeGuard[Lang]:
    """Whether ``value`` is one of the catalogue's languages exactly (a stored setting)."""
    return value in LANGS


def po_text(domain: str, lang: Lang) -> str:
    package = _domains[domain]
    path = resources.files(package) / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    return path.read_text(encoding="utf-8")


@cache
def entries(domain: str, lang: Lang) -> Mapping[Key, PoEntry]:
    """The translated entries of one catalogue (header and fuzzy entries left out)."""
    out: dict[Key, PoEntry] = {}
    for e in read_po(po_text(domain, lang)):
        if e.msgid == "" or "fuzzy" in e.flags:
            continue
        out[(e.context, e.msgid)] = e
    return out


@cache
def metadata(domain: str, lang: Lang) -> Mapping[str, str]:
    return header(read_po(po_text(domain, lang)))


def find(key: str, lang: Lang, context: str | None = None) -> PoEntry | None:
    """The entry for ``key``: the shared catalogue first, then the registered front ends."""
    lang = norm_lang(lang)
    for domain in list(_domains):
        entry = entries(domain, lang).get((context, key))
        if entry is not None:
            return entry
    return None


def _fail(error: Exception) -> None:
    if _strict:
        raise error
    log.error("%s", error)


def text(key: str, lang: Lang, context: str | None = None, params: Mapping[str, Any] = {}) -> str:
    """The text for ``key`` in ``lang`` with ``params`` filled in."""
    lang = norm_lang(lang)
    entry = find(key, lang, context)
    if entry is None:
        where = f"{context}:{key}" if context else key
        _fail(MissingText(f"no text {where!r} in {lang}"))
        return key
    template = entry.strings[0]
    if entry.msgid_plural is not None:
        count = params.get("count")
        if not isinstance(count, int):
            _fail(TextFormatError(f"text {key!r} is plural and needs an int 'count'"))
        else:
            form = PLURAL_RULES[lang](count)
            template = entry.strings[min(form, len(entry.strings) - 1)]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError) as err:
        _fail(
            TextFormatError(f"text {key!r} ({lang}) does not format with {dict(params)}: {err!r}")
        )
        return template
