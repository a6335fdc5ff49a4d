"""The text catalogue: complete in both languages, consistent, and loud when misused."""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import adapters.console
import adapters.discord
import adapters.telegram
import adapters.web  # noqa: F401  (registers the front ends' domains)
from bot.i18n import MissingText, TextFormatError, error_text, set_strict, t
from bot.i18n.catalogue import (
    LANGS,
    PLURAL_RULES,
    SHARED_DOMAIN,
    domains,
    entries,
    metadata,
    po_text,
    text,
)
from bot.i18n.po import PoEntry, PoSyntaxError, read_po

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = sorted(domains())


def _names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _all(domain: str, lang: str) -> dict[tuple[str | None, str], PoEntry]:
    return dict(entries(domain, lang))


def test_every_front_end_registers_its_domain() -> None:
    assert set(DOMAINS) == {SHARED_DOMAIN, "telegram", "discord", "console", "web"}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_key_exists_in_both_languages(domain: str) -> None:
    zh, en = (set(_all(domain, lang)) for lang in LANGS)
    assert zh - en == set(), "missing in English"
    assert en - zh == set(), "missing in Chinese"
    assert zh, "empty catalogue"


@pytest.mark.parametrize("domain", DOMAINS)
def test_both_languages_have_the_same_placeholders(domain: str) -> None:
    zh, en = (_all(domain, lang) for lang in LANGS)
    for key, entry in zh.items():
        names = {frozenset(_names(s)) for s in (*entry.strings, *en[key].strings)}
        assert len(names) == 1, (key, entry.strings, en[key].strings)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_match_the_header(domain: str, lang: str) -> None:
    header = metadata(domain, lang)
    assert header["Language"] == lang
    n = int(re.search(r"nplurals=(\d+)", header["Plural-Forms"]).group(1))  # type: ignore[union-attr]
    assert max(PLURAL_RULES[lang](k) for k in range(200)) == n - 1
    for key, entry in _all(domain, lang).items():
        assert not entry.flags & {"fuzzy"}, key
        if entry.msgid_plural is not None:
            assert len(entry.strings) == n, key
            assert "count" in _names(entry.strings[0]), key


def test_no_key_is_defined_twice_across_domains() -> None:
    seen: dict[tuple[str | None, str], str] = {}
    for domain in DOMAINS:
        for key in _all(domain, "zh"):
            assert key not in seen, (key, seen.get(key), domain)
            seen[key] = domain


def test_shared_catalogue_has_no_platform_prefixed_keys() -> None:
    keys = [k for _, k in _all(SHARED_DOMAIN, "zh")]
    assert not [k for k in keys if k.startswith(("tg_", "dc_", "console_"))]


def test_second_person_english_is_grammatical() -> None:
    for domain in DOMAINS:
        for key, entry in _all(domain, "en").items():
            for s in entry.strings:
                assert "You's" not in s and "(s)" not in s, (key, s)
                # "You declares", "You pays": a third-person verb after "You".
                bad = re.findall(r"\bYou (\w+[^s]s)\b", s)
                assert not bad, (key, s)


def test_texts_format_with_their_own_placeholders() -> None:
    for domain in DOMAINS:
        for lang in LANGS:
            for (context, key), entry in _all(domain, lang).items():
                params: dict[str, object] = {n: 1 for s in entry.strings for n in _names(s)}
                params["count"] = 2
                text(key, lang, context, params)  # strict: raises on a bad template


CALL = re.compile(r"""\b(?:t|error_text|label)\(\s*["']([a-z0-9_]+)["']\s*[,)]""")


def _source_keys() -> Iterator[tuple[Path, str]]:
    for top in ("bot", "adapters", "render"):
        for path in (ROOT / top).rglob("*.py"):
            for key in CALL.findall(path.read_text(encoding="utf-8")):
                yield path, key


def test_every_literal_key_in_the_code_exists() -> None:
    keys = {k for d in DOMAINS for _, k in _all(d, "zh")}
    missing = {(p.relative_to(ROOT).as_posix(), k) for p, k in _source_keys() if k not in keys}
    assert not missing


def test_missing_key_fails_loudly_in_strict_mode() -> None:
    with pytest.raises(MissingText):
        t("no_such_key_anywhere", "en")
    with pytest.raises(MissingText):
        error_text("no_such_code", {}, "zh")


def test_format_error_fails_loudly_in_strict_mode() -> None:
    with pytest.raises(TextFormatError):
        t("joined", "en")  # needs {seat}
    with pytest.raises(TextFormatError):
        t("bots_added", "en")  # plural: needs an int count


def test_outside_strict_mode_errors_are_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    set_strict(False)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.i18n.catalogue"):
            assert t("no_such_key_anywhere", "en") == "no_such_key_anywhere"
            assert t("joined", "en") == "You sit in seat {seat}."
    finally:
        set_strict(True)
    assert len(caplog.records) == 2


def test_plurals_and_languages() -> None:
    assert t("bots_added", "en", count=1) == "Added 1 AI seat."
    assert t("bots_added", "en", count=3) == "Added 3 AI seats."
    assert t("bots_added", "zh", count=3) == "加了 3 个电脑。"
    assert t("joined", "en-GB", seat=2) == "You sit in seat 2."
    assert t("not_your_turn") == error_text("not_your_turn")  # t falls back to error codes


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGS)
def test_stdlib_reader_agrees_with_babel(domain: str, lang: str) -> None:
    pofile = pytest.importorskip("babel.messages.pofile")
    from io import BytesIO

    catalog = pofile.read_po(BytesIO(po_text(domain, lang).encode()), abort_invalid=True)
    babel = {}
    for m in catalog:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        strings = tuple(m.string) if isinstance(m.string, tuple) else (m.string,)
        babel[(m.context, key)] = strings
    ours = {k: e.strings for k, e in _all(domain, lang).items()}
    assert ours == babel


def test_po_reader_rejects_malformed_input() -> None:
    for bad in (
        'msgid "a"\n',  # no msgstr
        'msgid "a"\nmsgstr "b\n',  # unterminated
        'msgid "a"\nmsgstr "\\q"\n',  # bad escape
        'msgfoo "a"\n',
        '"orphan"\n',
    ):
        with pytest.raises(PoSyntaxError):
            read_po(bad)
    (entry,) = read_po('msgctxt "c"\nmsgid ""\n"k"\nmsgstr "a\\n"\n"b \\"q\\""\n')
    assert (entry.context, entry.msgid, entry.strings) == ("c", "k", ('a\nb "q"',))


# Telegram's commands and words in a shared text: what Discord must say in its own words.
TELEGRAM_WORDS = re.compile(
    r"本群|this group|(?<!gouji )/(replay|why|join|addbot|removebot|count|settings|begin|"
    r"leave|help|stats|score)\b|/gouji(?! [a-z])"
)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_shared_text_naming_telegrams_words_has_a_discord_wording(lang: str) -> None:
    """Shown on Discord (bot.i18n.use_wording("dc")), a shared text that names Telegram's
    commands or "本群" must have Discord's own wording (``dc_<key>``), itself free of them."""
    shared = _all("gouji", lang)
    discord = {key: e for (ctx, key), e in _all("discord", lang).items() if ctx is None}
    missing = []
    for (ctx, key), entry in shared.items():
        if not key or ctx not in (None, "error") or key.startswith(("rp_", "cmd_")):
            continue  # the terminal's replay prompt and Telegram's command menu are not Discord's
        if any(TELEGRAM_WORDS.search(s) for s in entry.strings):
            own = discord.get(f"dc_{key}")
            if own is None or any(TELEGRAM_WORDS.search(s) for s in own.strings):
                missing.append(key)
    assert not missing, missing


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_discords_own_texts_name_discords_commands(lang: str) -> None:
    wrong = [
        key
        for (ctx, key), entry in _all("discord", lang).items()
        if key and ctx is None and any(TELEGRAM_WORDS.search(s) for s in entry.strings)
    ]
    assert not wrong, wrong
