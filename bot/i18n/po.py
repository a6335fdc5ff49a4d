"""A reader for gettext ``.po`` catalogues, standard library only.

The catalogues are edited and checked with Babel (``pybabel``), the standard tool; this
reader exists so that the runtime, and the replay referee on a bare Python, need no
third-party package to show a message. It understands the subset of the PO format Babel
writes: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` / ``msgstr[N]``, continued
string lines, flags (``#,``) and comments; obsolete entries (``#~``) are skipped.
``tests/i18n`` cross-checks it against Babel's own reader on every shipped catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


class PoSyntaxError(ValueError):
    """A line of a catalogue that is not valid PO; the message names the line."""


@dataclass(frozen=True, slots=True)
class PoEntry:
    context: str | None
    msgid: str
    msgid_plural: str | None
    # One string, or one per plural form (msgstr[0], msgstr[1], ...).
    strings: tuple[str, ...]
    flags: frozenset[str] = field(default_factory=frozenset)
    lineno: int = 0


def _unquote(text: str, lineno: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoSyntaxError(f"line {lineno}: expected a quoted string, got {text!r}")
    out: list[str] = []
    body = text[1:-1]
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise PoSyntaxError(f"line {lineno}: bad escape in {text!r}")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
            continue
        if ch == '"':
            raise PoSyntaxError(f"line {lineno}: unescaped quote in {text!r}")
        out.append(ch)
        i += 1
    return "".join(out)


class _Builder:
    """Collects the fields of the entry being read."""

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}
        self.flags: set[str] = set()
        self.current: str | None = None
        self.lineno = 0

    def start(self, name: str, value: str, lineno: int) -> None:
        if name in self.fields:
            raise PoSyntaxError(f"line {lineno}: {name} given twice in one entry")
        if not self.fields:
            self.lineno = lineno
        self.fields[name] = [value]
        self.current = name

    def build(self) -> PoEntry | None:
        if not self.fields:
            return None
        if "msgid" not in self.fields:
            raise PoSyntaxError(f"line {self.lineno}: entry without msgid")
        joined = {k: "".join(v) for k, v in self.fields.items()}
        if "msgid_plural" in joined:
            forms = sorted(k for k in joined if k.startswith("msgstr["))
            strings = tuple(joined[f"msgstr[{i}]"] for i in range(len(forms)))
            if not strings or any(k != f"msgstr[{i}]" for i, k in enumerate(forms)):
                raise PoSyntaxError(f"line {self.lineno}: plural entry without msgstr[0..n]")
        else:
            if "msgstr" not in joined:
                raise PoSyntaxError(f"line {self.lineno}: entry without msgstr")
            strings = (joined["msgstr"],)
        return PoEntry(
            context=joined.get("msgctxt"),
            msgid=joined["msgid"],
            msgid_plural=joined.get("msgid_plural"),
            strings=strings,
            flags=frozenset(self.flags),
            lineno=self.lineno,
        )


def read_po(text: str) -> list[PoEntry]:
    """Every entry of a catalogue, the header (``msgid ""``) included, in file order."""
    entries: list[PoEntry] = []
    entry = _Builder()
    keywords = ("msgctxt", "msgid_plural", "msgid", "msgstr")

    def finish() -> None:
        nonlocal entry
        built = entry.build()
        if built is not None:
            entries.append(built)
        entry = _Builder()

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if entry.current is not None and entry.current.startswith("msgstr"):
                finish()  # a comment after a complete entry starts the next one
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue  # translator, extracted and reference comments; obsolete #~ entries
        if line.startswith('"'):
            if entry.current is None:
                raise PoSyntaxError(f"line {lineno}: string continuation outside an entry")
            entry.fields[entry.current].append(_unquote(line, lineno))
            continue
        name, _, rest = line.partition(" ")
        base = name.split("[", 1)[0]
        if base not in keywords:
            raise PoSyntaxError(f"line {lineno}: unknown keyword {name!r}")
        if name in ("msgctxt", "msgid") and (entry.current or "").startswith("msgstr"):
            finish()
        entry.start(name, _unquote(rest, lineno), lineno)
    finish()
    return entries


def header(entries: list[PoEntry]) -> dict[str, str]:
    """The catalogue's metadata (``Language``, ``Plural-Forms``...), from its header entry."""
    for e in entries:
        if e.msgid == "" and e.context is None:
            pairs = (line.partition(":") for line in e.strings[0].splitlines() if ":" in line)
            return {k.strip(): v.strip() for k, _, v in pairs}
    return {}
