"""The records desk: what chat front ends ask about finished hands. It uses the manager's
public queries only (``recent_hands``, ``hands_from``, ``current``) and returns ready texts,
frames and the record file; the adapters lay them out (an image, buttons, an attachment).

Privacy: a hand is only shown once it is over. A hand still in play has no record yet, and
asking for it (the next number, or a table message of a hand in play) is refused.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..ai.review import Review, ReviewConfig, review_async
from ..engine.actions import ActionKind
from ..engine.state import HandState
from ..i18n import t
from ..i18n.catalogue import Lang
from ..table import ChatRef, TableManager, TableStatus
from .export import hand_scenario
from .record import HandRecord
from .replay import RecordCode, RecordError, Replayed, replay
from .steps import Frame, frames
from .summary import history_text, summary_text
from .teacher import review_text
from .why import why_frame, why_play

HISTORY_SIZE = 10
CACHE_SIZE = 32  # opened records kept for the ◀ ▶ presses that follow
# A stepper message's state is kept this long (in the store: any worker answers its
# buttons); a press after that is answered "out of date".
SESSION_TTL = 24 * 3600.0
STEPPER = "stepper"
# The review's budget (``bot.ai.review``): 15-18 s of CPU for a whole 36-card hand.
REVIEW_CONFIG = ReviewConfig()
REVIEW_CACHE = 64  # reviews kept: a second /review of the same seat answers at once


@dataclass(frozen=True, slots=True)
class Refused:
    """A polite refusal: a text key and its parameters."""

    key: str
    params: tuple[tuple[str, object], ...] = ()

    def text(self, lang: Lang) -> str:
        return t(self.key, lang, **dict(self.params))


@dataclass(frozen=True, slots=True)
class Opened:
    """A finished hand ready to show: its summary, its frames and its record file."""

    record: HandRecord
    played: Replayed
    frames: tuple[Frame, ...]
    previous: HandState | None  # the hand before it in the match (judges its tributes)

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def summary(self, lang: Lang) -> str:
        return summary_text(self.record, self.played, lang)

    def file_name(self) -> str:
        return f"gouji-{self.number}.json"

    def file_bytes(self) -> bytes:
        text = json.dumps(hand_scenario(self.record), ensure_ascii=False, indent=1)
        return (text + "\n").encode("utf-8")

    def why(self, index: int, lang: Lang) -> str:
        return why_frame(self.frames[index], self.played, self.record.names, lang, self.previous)


@dataclass
class StepSession:
    """One stepper message: which hand, which frame it shows, who opened it."""

    group: str
    number: int
    index: int
    owner: str
    lang: Lang


@dataclass
class RecordDesk:
    manager: TableManager
    _cache: OrderedDict[tuple[str, int], Opened] = field(default_factory=OrderedDict)
    review_config: ReviewConfig = field(default_factory=lambda: REVIEW_CONFIG)
    _reviews: OrderedDict[tuple[str, int, int], Review] = field(default_factory=OrderedDict)

    # -- queries ------------------------------------------------------------------------
    async def history(self, chat: ChatRef, lang: Lang) -> str:
        return history_text(await self.manager.recent_hands(chat.group_key, HISTORY_SIZE), lang)

    async def in_play(self, chat: ChatRef) -> bool:
        """Whether a hand is being played at this chat (its cards are not to be shown)."""
        snap = await self.manager.current(chat)
        return snap is not None and snap.status is TableStatus.PLAYING

    async def open(self, chat: ChatRef, number: int | None) -> Opened | Refused:
        """The hand ``number`` of the chat's group (None: the latest), or why not."""
        manager = self.manager
        if number is None:
            rows = await manager.recent_hands(chat.group_key, 1)
            if not rows:
                return Refused("rec_in_play" if await self.in_play(chat) else "rec_no_hands")
            number = rows[0][0]
        if number < 1:
            return Refused("rec_no_such_hand", (("number", number),))
        cached = self._cache.get((chat.group_key, number))
        if cached is not None:
            self._cache.move_to_end((chat.group_key, number))
            return cached
        rows = await manager.hands_from(chat.group_key, max(1, number - 1), 2)
        found = {n: raw for n, raw in rows}
        if number not in found:
            # The hand being played now would be the next number: it has no record yet.
            total = max(found, default=0)
            in_play = number == total + 1 and await self.in_play(chat)
            return Refused("rec_in_play" if in_play else "rec_no_such_hand", (("number", number),))
        try:
            rec = HandRecord.from_json(found[number], number)
            played = replay(rec)
            previous = self._previous(found.get(number - 1), number - 1, rec)
        except RecordError as err:
            key = "rec_incomplete" if err.code is RecordCode.INCOMPLETE else "rec_broken"
            return Refused(key, (("number", number),))
        except (KeyError, ValueError, TypeError):
            return Refused("rec_broken", (("number", number),))
        opened = Opened(rec, played, tuple(frames(played)), previous)
        self._cache[(chat.group_key, number)] = opened
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return opened

    @staticmethod
    def _previous(raw: object, number: int, rec: HandRecord) -> HandState | None:
        if not isinstance(raw, dict):
            return None
        try:
            prev = HandRecord.from_json(raw, number)
            if prev.match_id != rec.match_id or prev.deal_no + 1 != rec.deal_no:
                return None
            return replay(prev).final
        except (RecordError, KeyError, ValueError, TypeError):
            return None

    async def why(
        self,
        chat: ChatRef,
        number: int,
        index: int,
        lang: Lang,
        seat: int | None = None,
        cards: str | None = None,
        burn: bool = False,
    ) -> str:
        """Explain frame ``index`` of hand ``number``; with a seat and cards, whether that
        seat could have played (or burned) them at that frame."""
        opened = await self.open(chat, number)
        if isinstance(opened, Refused):
            return opened.text(lang)
        if not 0 <= index <= opened.last:
            return t("rec_bad_step", lang, last=opened.last)
        if seat is not None and cards:
            kind = ActionKind.BURN if burn else ActionKind.PLAY
            frame = opened.frames[index]
            names = opened.record.names
            return why_play(frame.state, seat, kind, cards, index, names, lang)
        return opened.why(index, lang)

    # -- /review -----------------------------------------------------------------------
    @staticmethod
    def review_seat(opened: Opened, user_id: str) -> int | Refused:
        """The asker's own seat in the hand: a review is of one's own decisions only."""
        seat = opened.record.seat_of(user_id)
        if seat is not None:
            return seat
        key = "review_not_yours" if opened.record.users else "review_no_seats"
        return Refused(key, (("number", opened.number),))

    def review_ready(self, chat: ChatRef, opened: Opened, seat: int) -> bool:
        """Whether the review is at hand (else it takes a while: say "正在分析…" first)."""
        return (chat.group_key, opened.number, seat) in self._reviews

    async def review(self, chat: ChatRef, opened: Opened, seat: int, lang: Lang) -> str:
        """The seat's three costliest decisions, as text for that player only. The
        playouts run in a worker thread, off the event loop."""
        key = (chat.group_key, opened.number, seat)
        got = self._reviews.get(key)
        if got is None:
            got = await review_async(opened.played, seat, self.review_config)
            self._reviews[key] = got
            while len(self._reviews) > REVIEW_CACHE:
                self._reviews.popitem(last=False)
        return review_text(got, opened.number, opened.record.names, lang)

    # -- stepper sessions ---------------------------------------------------------------
    async def remember(self, message: str, session: StepSession) -> None:
        """Bind a posted stepper message (a platform-specific id) to its session."""
        value = {
            "group": session.group,
            "number": session.number,
            "owner": session.owner,
            "lang": session.lang,
        }
        await self.manager.interactions.keep(message, STEPPER, value, SESSION_TTL)
        if session.index:
            await self.manager.interactions.move(message, 0, session.index)

    async def session(self, message: str) -> StepSession | None:
        kept = await self.manager.interactions.get(message, STEPPER)
        if kept is None:
            return None
        v = kept.value
        try:
            lang: Lang = "en" if v["lang"] == "en" else "zh"
            return StepSession(str(v["group"]), int(v["number"]), kept.step, str(v["owner"]), lang)
        except (KeyError, TypeError, ValueError):
            return None  # written by another version: out of date

    async def step(self, message: str, user: str, shown: int, to: int) -> StepSession | Refused:
        """A ◀ ▶ press on ``message`` by ``user``, made while it showed frame ``shown``.

        Refused when the message is unknown or expired or already moved on (stale) or
        when someone other than its opener presses (foreign); otherwise the session moves
        to ``to`` — once, whichever worker the press reached (a compare-and-set)."""
        s = await self.session(message)
        if s is None or s.index != shown:
            return Refused("rec_stale")
        if s.owner != user:
            return Refused("rec_not_yours")
        cached = self._cache.get((s.group, s.number))
        last = cached.last if cached is not None else None
        if to < 0 or (last is not None and to > last):
            return Refused("rec_stale")
        if not await self.manager.interactions.move(message, shown, to):
            return Refused("rec_stale")
        s.index = to
        return s


def parse_why_args(args: Sequence[str]) -> tuple[int, int, int | None, str | None, bool] | None:
    """``N STEP [SEAT CARDS|SEAT burn CARDS]`` → (number, step, seat, cards, burn)."""
    if len(args) not in (2, 4, 5) or not all(a.isdigit() for a in args[:2]):
        return None
    number, step = int(args[0]), int(args[1])
    if len(args) == 2:
        return number, step, None, None, False
    if not args[2].isdigit() or not 1 <= int(args[2]) <= 6:
        return None
    burn = len(args) == 5
    if burn and args[3].lower() not in ("burn", "烧"):
        return None
    return number, step, int(args[2]), args[-1].upper(), burn
