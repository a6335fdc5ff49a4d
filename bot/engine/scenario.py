"""The scenario-file schema (RULES.md §15): raw JSON in, typed frozen records out.

Every scenario is checked here before the engine sees it. A file that breaks the schema
raises ``ScenarioError`` naming the field (``tributes[1].count``, ``next_hands[0].hands``)
and nothing is replayed. The line between the schema and the engine: the schema checks
*types and shapes* (a seat is an integer, ``pre`` is a boolean, a tribute names two seats
of 1..6 and a positive count); whether an action is *legal* — a seat 7 that plays, an
unknown ``do``, a card string with a bad character — stays the engine's refusal of that
one action (``bad_seat``, ``unknown_action``, ``bad_notation``), and the replay goes on.

Hand-written rather than JSON Schema: the engine is standard-library only; JSON Schema's
``integer`` accepts ``1.0`` (draft 4 on), which is exactly the float seat this must refuse;
the switch names and values come from ``rules`` at run time; and card notation needs the
engine's own parser. Each check is one small function so the messages stay one line; their
texts are in the catalogue (bot.i18n, context ``scenario``, keyed by ``Problem``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..i18n.catalogue import Lang
from .cards import parse
from .errors import ErrorCode, GoujiError, RulesError
from .rules import PRESET_NAMES, Rules, allowed_values, make_rules, switch_names
from .state import SEATS, Tribute, tribute_kind_of

TRIBUTE_KINDS = ("men", "burn", "point", "luo", "sweep", "mingdian", "yudian")
MAX_TRIBUTE = 16  # the largest stake (预点 4, doubled 8) with room; a bound, not a rule
MAX_ACTIONS = 100_000  # a file, not a hand: far above any real hand
MAX_CARDS = 216  # no deck check in scenarios, but no hand holds more than the whole deck
DOC_KEYS = frozenset({"rule", "why", "expect", "note", "description"})
TOP_KEYS = frozenset(
    {"preset", "switches", "hands", "leader", "actions", "tributes", "buy_three", "pre_points"}
    | {"next_hands"}
)
HAND_KEYS = frozenset({"hands", "actions", "leader", "buy_three"})
ACTION_KEYS = frozenset({"seat", "do", "cards", "target", "pre", "ranks", "declared"})
BURN_WINDOW = "burn_window"


class Problem(StrEnum):
    """What is wrong with a field; the text is in bot.i18n (``scenario_<value>``)."""

    NOT_UTF8 = "not_utf8"
    NOT_JSON = "not_json"
    TOO_DEEP = "too_deep"
    NOT_OBJECT = "not_object"
    NOT_LIST = "not_list"
    NOT_STRING = "not_string"
    NOT_BOOL = "not_bool"
    NOT_SEAT = "not_seat"
    NOT_COUNT = "not_count"
    NOT_INT = "not_int"
    MISSING = "missing"
    UNKNOWN_KEY = "unknown_key"
    SIX_HANDS = "six_hands"
    BAD_CARDS = "bad_cards"
    TOO_MANY_CARDS = "too_many_cards"
    BAD_KIND = "bad_kind"
    SAME_SEAT = "same_seat"
    DUPLICATE = "duplicate"
    EMPTY = "empty"
    TOO_MANY = "too_many"
    NO_SEAT_HERE = "no_seat_here"
    BAD_PRESET = "bad_preset"
    UNKNOWN_SWITCH = "unknown_switch"
    BAD_SWITCH = "bad_switch"
    LEADER_DIFFERS = "leader_differs"
    HAND_NOT_OVER = "hand_not_over"


class ScenarioError(GoujiError):
    """A scenario file that breaks the schema: ``field`` names where, ``problem`` what."""

    def __init__(self, field: str, problem: Problem, **params: Any) -> None:
        super().__init__(ErrorCode.BAD_SCENARIO, field=field, problem=problem.value, **params)
        self.field = field
        self.problem = problem

    def details(self) -> dict[str, Any]:
        """The parameters of the problem's text (bot.i18n, context ``scenario``)."""
        return {k: v for k, v in self.params.items() if k not in ("field", "problem")}

    def text(self, lang: Lang = "zh") -> str:
        """One line: the field and what is wrong with it, in ``lang``."""
        from ..i18n import error_text
        from ..i18n.catalogue import text

        detail = text(self.problem.value, lang, "scenario", self.details())
        return error_text("bad_scenario_field", {"field": self.field, "detail": detail}, lang)


# ---------------------------------------------------------------------------------------
# Typed records
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Declared:
    seat: int
    cards: str


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One scenario action, type-checked; legality is the engine's business."""

    do: str
    seat: int | None = None  # None only for burn_window
    cards: str | None = None
    target: int | None = None
    pre: bool = False
    ranks: str | None = None
    declared: tuple[Declared, ...] = ()

    def engine_json(self) -> dict[str, Any]:
        """The entry as ``Action.from_json`` reads it."""
        out: dict[str, Any] = {"do": self.do}
        if self.cards is not None:
            out["cards"] = self.cards
        if self.target is not None:
            out["target"] = self.target
        if self.pre:
            out["pre"] = True
        if self.ranks is not None:
            out["ranks"] = self.ranks
        return out


@dataclass(frozen=True, slots=True)
class HandSpec:
    hands: tuple[str, ...]
    actions: tuple[ActionSpec, ...]
    leader: int | None  # None: the rules decide (next_hands), 1 for the first hand
    buy_three: bool = False


@dataclass(frozen=True, slots=True)
class Scenario:
    rules: Rules
    first: HandSpec
    tributes: tuple[Tribute, ...] = ()
    pre_points: tuple[int, ...] = ()
    next_hands: tuple[HandSpec, ...] = ()


# ---------------------------------------------------------------------------------------
# Field checks
# ---------------------------------------------------------------------------------------
def brief(value: Any) -> str:
    """A short, one-line rendering of a bad value (never the whole of a huge input)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _obj(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(field, Problem.NOT_OBJECT, got=brief(value))
    return value


def _list(value: Any, field: str, hi: int = MAX_ACTIONS) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(field, Problem.NOT_LIST, got=brief(value))
    if len(value) > hi:
        raise ScenarioError(field, Problem.TOO_MANY, hi=hi)
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(field, Problem.NOT_STRING, got=brief(value))
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(field, Problem.NOT_BOOL, got=brief(value))
    return value


def _int(value: Any, field: str) -> int:
    """Any integer (range is the engine's check); never a bool or a float like 1.0."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(field, Problem.NOT_INT, got=brief(value))
    return value


def _seat(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in SEATS:
        raise ScenarioError(field, Problem.NOT_SEAT, got=brief(value))
    return value


def _count(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ScenarioError(field, Problem.NOT_COUNT, lo=lo, hi=hi, got=brief(value))
    return value


def _keys(obj: Mapping[str, Any], allowed: frozenset[str], field: str) -> None:
    for key in obj:
        if key not in allowed:
            where = f"{field}.{key}" if field else key
            raise ScenarioError(where, Problem.UNKNOWN_KEY, allowed=", ".join(sorted(allowed)))


def _hands(value: Any, field: str) -> tuple[str, ...]:
    if value is None:
        raise ScenarioError(field, Problem.MISSING)
    hands = _list(value, field)
    if len(hands) != 6:
        raise ScenarioError(field, Problem.SIX_HANDS, got=len(hands))
    out: list[str] = []
    for i, h in enumerate(hands):
        text = _str(h, f"{field}[{i}]")
        if len(text) > 4 * MAX_CARDS:  # never parse a huge string
            raise ScenarioError(f"{field}[{i}]", Problem.TOO_MANY_CARDS, hi=MAX_CARDS)
        try:
            counts = parse(text)
        except GoujiError as err:
            detail = ", ".join(f"{k}={v}" for k, v in sorted(err.params.items())) or err.code.value
            raise ScenarioError(f"{field}[{i}]", Problem.BAD_CARDS, detail=detail) from None
        if sum(counts) > MAX_CARDS:
            raise ScenarioError(f"{field}[{i}]", Problem.TOO_MANY_CARDS, hi=MAX_CARDS)
        out.append(text)
    return tuple(out)


def _action(value: Any, field: str) -> ActionSpec:
    obj = _obj(value, field)
    _keys(obj, ACTION_KEYS, field)
    if "do" not in obj:
        raise ScenarioError(f"{field}.do", Problem.MISSING)
    do = _str(obj["do"], f"{field}.do")
    seat: int | None = None
    declared: tuple[Declared, ...] = ()
    if do == BURN_WINDOW:
        if "seat" in obj:
            raise ScenarioError(f"{field}.seat", Problem.NO_SEAT_HERE)
        raw = _list(obj.get("declared"), f"{field}.declared", hi=6)
        if not raw:
            raise ScenarioError(f"{field}.declared", Problem.EMPTY)
        items: list[Declared] = []
        for j, d in enumerate(raw):
            where = f"{field}.declared[{j}]"
            dobj = _obj(d, where)
            _keys(dobj, frozenset({"seat", "cards"}), where)
            for key in ("seat", "cards"):
                if key not in dobj:
                    raise ScenarioError(f"{where}.{key}", Problem.MISSING)
            items.append(
                Declared(
                    _seat(dobj["seat"], f"{where}.seat"), _str(dobj["cards"], f"{where}.cards")
                )
            )
        declared = tuple(items)
    else:
        if "seat" not in obj:
            raise ScenarioError(f"{field}.seat", Problem.MISSING)
        seat = _int(obj["seat"], f"{field}.seat")
        if "declared" in obj:
            raise ScenarioError(
                f"{field}.declared",
                Problem.UNKNOWN_KEY,
                allowed=", ".join(sorted(ACTION_KEYS - {"declared"})),
            )
    return ActionSpec(
        do=do,
        seat=seat,
        cards=_str(obj["cards"], f"{field}.cards") if "cards" in obj else None,
        target=_int(obj["target"], f"{field}.target") if "target" in obj else None,
        pre=_bool(obj["pre"], f"{field}.pre") if "pre" in obj else False,
        ranks=_str(obj["ranks"], f"{field}.ranks") if "ranks" in obj else None,
        declared=declared,
    )


def _actions(value: Any, field: str) -> tuple[ActionSpec, ...]:
    if value is None:
        return ()
    return tuple(_action(a, f"{field}[{i}]") for i, a in enumerate(_list(value, field)))


def _tributes(value: Any, field: str) -> tuple[Tribute, ...]:
    out: list[Tribute] = []
    for i, t in enumerate(_list(value, field, hi=64)):
        where = f"{field}[{i}]"
        obj = _obj(t, where)
        _keys(obj, frozenset({"from", "to", "count", "kind"}), where)
        for key in ("from", "to", "count"):
            if key not in obj:
                raise ScenarioError(f"{where}.{key}", Problem.MISSING)
        giver = _seat(obj["from"], f"{where}.from")
        receiver = _seat(obj["to"], f"{where}.to")
        if giver == receiver:
            raise ScenarioError(where, Problem.SAME_SEAT)
        count = _count(obj["count"], f"{where}.count", 1, MAX_TRIBUTE)
        kind = _str(obj.get("kind", "luo"), f"{where}.kind")
        if kind not in TRIBUTE_KINDS:
            raise ScenarioError(
                f"{where}.kind", Problem.BAD_KIND, allowed=", ".join(TRIBUTE_KINDS), got=brief(kind)
            )
        out.append(Tribute(giver, receiver, count, tribute_kind_of(kind)))
    return tuple(out)


def _seats(value: Any, field: str) -> tuple[int, ...]:
    out: list[int] = []
    for i, s in enumerate(_list(value, field, hi=6)):
        seat = _seat(s, f"{field}[{i}]")
        if seat in out:
            raise ScenarioError(field, Problem.DUPLICATE, got=seat)
        out.append(seat)
    return tuple(out)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int) or value is None


def _rules(preset: Any, switches: Any) -> Rules:
    name = "dagang" if preset is None else _str(preset, "preset")
    if name not in PRESET_NAMES:
        raise ScenarioError(
            "preset", Problem.BAD_PRESET, got=brief(name), allowed=", ".join(PRESET_NAMES)
        )
    overrides = {} if switches is None else _obj(switches, "switches")
    for key, v in overrides.items():
        # A list-valued switch holds scalars of one type; anything else never reaches
        # make_rules (which sorts the members).
        if isinstance(v, dict) or (
            isinstance(v, list)
            and not (all(_scalar(x) for x in v) and len({type(x) for x in v}) <= 1)
        ):
            allowed = allowed_values(key) if key in switch_names() else ""
            raise ScenarioError(
                f"switches.{key}", Problem.BAD_SWITCH, got=brief(v), allowed=allowed
            )
    try:
        return make_rules(name, overrides)
    except RulesError as err:
        switch = err.params.get("switch")
        where = f"switches.{switch}" if switch else "switches"
        allowed = err.params.get("allowed", "")
        if err.code is ErrorCode.UNKNOWN_SWITCH:
            raise ScenarioError(where, Problem.UNKNOWN_SWITCH, allowed=allowed) from None
        got = brief(err.params.get("value"))
        raise ScenarioError(where, Problem.BAD_SWITCH, got=got, allowed=allowed) from None
    except (TypeError, ValueError):
        raise ScenarioError("switches", Problem.BAD_SWITCH, got="?", allowed="") from None


def _hand_spec(obj: Mapping[str, Any], field: str, first: bool) -> HandSpec:
    prefix = f"{field}." if field else ""
    leader: int | None = None
    if "leader" in obj:
        leader = _seat(obj["leader"], f"{prefix}leader")
    elif first:
        leader = 1
    return HandSpec(
        hands=_hands(obj.get("hands"), f"{prefix}hands"),
        actions=_actions(obj.get("actions"), f"{prefix}actions"),
        leader=leader,
        buy_three=_bool(obj["buy_three"], f"{prefix}buy_three") if "buy_three" in obj else False,
    )


def parse_scenario(raw: Any) -> Scenario:
    """Check a decoded scenario against the schema; raises ScenarioError naming the field."""
    top = _obj(raw, "(top level)")
    _keys(top, TOP_KEYS | DOC_KEYS, "")
    rules = _rules(top.get("preset"), top.get("switches"))
    first = _hand_spec(top, "", first=True)
    tributes = _tributes(top["tributes"], "tributes") if top.get("tributes") is not None else ()
    pre_points = _seats(top["pre_points"], "pre_points") if "pre_points" in top else ()
    later: list[HandSpec] = []
    if "next_hands" in top:
        for k, h in enumerate(_list(top["next_hands"], "next_hands", hi=1000)):
            where = f"next_hands[{k}]"
            obj = _obj(h, where)
            _keys(obj, HAND_KEYS, where)
            later.append(_hand_spec(obj, where, first=False))
    return Scenario(rules, first, tributes, pre_points, tuple(later))


def decode(data: bytes) -> Any:
    """Bytes of a scenario file to JSON values; raises ScenarioError for the file itself."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScenarioError("(file)", Problem.NOT_UTF8, at=err.start) from None
    try:
        return json.loads(text)
    except RecursionError:
        raise ScenarioError("(file)", Problem.TOO_DEEP) from None
    except json.JSONDecodeError as err:
        detail = f"line {err.lineno} column {err.colno}: {err.msg}"
        raise ScenarioError("(file)", Problem.NOT_JSON, detail=detail) from None


def hand_field(k: int, name: str) -> str:
    """The field path of a key of hand ``k`` (0 = the scenario's first hand)."""
    return name if k == 0 else f"next_hands[{k - 1}].{name}"


__all__ = [
    "ActionSpec",
    "Declared",
    "HandSpec",
    "Problem",
    "Scenario",
    "ScenarioError",
    "decode",
    "parse_scenario",
]
