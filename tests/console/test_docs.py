"""The docs a newcomer reads say what the code does (issue 36, item 19): every rule section
the code cites is in docs/rules.md, every chat command and setting variable is listed."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.telegram.handlers import GROUP_COMMANDS

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "adapters", "render")


def _code() -> str:
    return "\n".join(
        p.read_text(encoding="utf-8") for d in SHIPPED for p in sorted((ROOT / d).rglob("*.py"))
    )


def _doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_every_cited_rule_section_is_in_docs_rules() -> None:
    cited = {int(n) for n in re.findall(r"§(\d+)", _code())}
    assert cited, "the code cites no section: this test would check nothing"
    rules = _doc("docs/rules.md")
    present = {int(n) for n in re.findall(r"^## §(\d+)\.", rules, re.MULTILINE)}
    assert cited <= present, sorted(cited - present)
    assert "shared/RULES.md" not in rules  # not in the repository: a reader cannot open it
    assert "](docs/rules.md)" in _doc("README.md") and "[`RULES.md`]" not in _doc("README.md")


def test_the_chat_docs_list_every_command() -> None:
    telegram = _doc("docs/telegram.md")
    missing = [c for c in GROUP_COMMANDS if f"`/{c}" not in telegram]
    assert not missing, missing
    cog = (ROOT / "adapters/discord/cog.py").read_text(encoding="utf-8")
    names = re.findall(r'app_commands\.command\(name=L\("(\w+)"\)', cog)
    assert {"history", "replay", "why"} <= set(names)
    discord = _doc("docs/discord.md")
    aliases = {"new": "new", "start": "start"}
    missing = [n for n in names if f"`/gouji {aliases.get(n, n)}" not in discord]
    assert not missing, missing


def test_the_docs_list_every_variable() -> None:
    read = set(re.findall(r'"(GOUJI_[A-Z_]+)"', _code())) - {"GOUJI_STRICT_TEXTS"}
    readme = _doc("README.md")
    assert not [v for v in read if v not in readme]
    telegram, discord = _doc("docs/telegram.md"), _doc("docs/discord.md")
    for name in (
        "GOUJI_TELEGRAM_WEBHOOK_SECRET",
        "GOUJI_DATABASE_URL",
        "HTTPS_PROXY",
        "GOUJI_TELEGRAM_CALLS_PER_SECOND",
        *(v for v in read if v.startswith("GOUJI_TELEGRAM_")),
    ):
        assert name in telegram, name
    for name in ("GOUJI_DATABASE_URL", *(v for v in read if v.startswith("GOUJI_DISCORD_"))):
        assert name in discord, name


def test_export_says_how_to_find_a_group_key() -> None:
    records = _doc("docs/records.md")
    for platform in ("tg:", "dc:", "console:local"):
        assert platform in records
    assert "Copy Server ID" in records
