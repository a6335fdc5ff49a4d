"""Platform-neutral table records: chats, people, seats, group settings, commands."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..ai.levels import LevelName
from ..engine.errors import GoujiError
from ..engine.rules import PresetName, Rules, make_rules, upgrade_overrides
from ..i18n.catalogue import Lang
from ..present.schema import TABLE_SETTINGS, Scope, SettingValue, locked_off, spec_of

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ChatRef:
    """A group chat (and forum topic / thread where the platform has them)."""

    platform: str  # "tg", "dc", "console"
    chat_id: str
    thread_id: str | None = None

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}:{self.thread_id or ''}"

    @property
    def group_key(self) -> str:
        """Settings and stats belong to the group, across its topics."""
        return f"{self.platform}:{self.chat_id}"

    @staticmethod
    def from_key(key: str) -> ChatRef:
        platform, chat_id, thread = key.split(":", 2)
        return ChatRef(platform, chat_id, thread or None)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent a command."""

    user_id: str
    name: str
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class SeatInfo:
    user_id: str | None  # None for an AI seat
    name: str
    autoplay: bool = False  # 托管: the AI plays for this human

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def ai_plays(self) -> bool:
        return self.user_id is None or self.autoplay

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "autoplay": self.autoplay}

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> SeatInfo:
        return SeatInfo(obj.get("user_id"), str(obj["name"]), bool(obj.get("autoplay", False)))


@dataclass(frozen=True, slots=True)
class GroupSettings:
    preset: PresetName = "dagang"
    overrides: tuple[tuple[str, SettingValue], ...] = ()
    turn_seconds: int = 45  # 0 = no turn timer
    match_hands: int = 4  # 0 = no hand limit
    target_score: int = 0  # 0 = no target score
    lang: Lang = "zh"
    ai_fill: bool = True
    ai_level: LevelName = "normal"  # how the AI seats of this group play
    hints: bool = False  # 💡: a player may ask for the expert's choice (never in 比赛)

    @property
    def hints_on(self) -> bool:
        return self.hints and not locked_off("hints", self.preset)

    def rules(self) -> Rules:
        return make_rules(self.preset, dict(self.overrides))

    def value(self, name: str) -> SettingValue:
        """The current value of any setting in the schema (table setting or rule switch)."""
        if spec_of(name).scope is Scope.TABLE:
            value: SettingValue = getattr(self, name)
        else:
            value = getattr(self.rules(), name)
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "overrides": {k: list(v) if isinstance(v, tuple) else v for k, v in self.overrides},
            "turn_seconds": self.turn_seconds,
            "match_hands": self.match_hands,
            "target_score": self.target_score,
            "lang": self.lang,
            "ai_fill": self.ai_fill,
            "ai_level": self.ai_level,
            "hints": self.hints,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> GroupSettings:
        """Stored settings, each value checked against the schema: one that no longer fits
        (a switch renamed or narrowed since) falls back to its default instead of failing."""
        values: dict[str, SettingValue] = {}
        for name in TABLE_SETTINGS:
            if name in obj:
                try:
                    values[name] = spec_of(name).validate(obj[name])
                except GoujiError:
                    log.warning("stored setting %s dropped: %r", name, obj[name])
        overrides: dict[str, SettingValue] = {}
        raw = obj.get("overrides") or {}
        # Settings stored before rules v2 may use a removed switch form (the boolean
        # tribute_return): migrate it rather than drop the group's choice.
        raw = upgrade_overrides(raw) if isinstance(raw, Mapping) else {}
        for name, value in raw.items():
            try:
                spec = spec_of(name)
                overrides[name] = spec.validate(tuple(value) if isinstance(value, list) else value)
            except GoujiError:
                log.warning("stored switch %s dropped", name)
        settings = GroupSettings(**values)  # type: ignore[arg-type]
        try:
            return replace(settings, overrides=_kept(settings.preset, overrides))
        except GoujiError:
            return settings


def _kept(
    preset: PresetName, overrides: dict[str, SettingValue]
) -> tuple[tuple[str, SettingValue], ...]:
    make_rules(preset, overrides)  # the combination must still make rules
    return tuple(sorted(overrides.items()))


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN = "between"  # a hand has ended, the match goes on
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    hand_no: int = 0
    totals: tuple[int, int] = (0, 0)
    history: tuple[dict[str, Any], ...] = ()  # per hand: places, scores (JSON as stored)
