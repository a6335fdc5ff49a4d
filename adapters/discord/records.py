"""``/gouji replay``, ``/gouji history``, ``/gouji why``, the replay stepper's ◀ ▶, and
``/gouji review`` with the 📝 button on a hand's result (``gj:r:…:v<hand>``): the asker's
own review, in an ephemeral answer only they see.

The records desk (``bot.records.desk``) answers; this module lays the answers out: the
summary with the record file attached, then one message with the table image at a frame
and ◀ ▶ buttons that edit that same message (the button's own interaction response, so
no extra channel message is spent). Buttons are ``gj:r:`` custom ids (see custom_ids).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import t
from bot.i18n.catalogue import Lang
from bot.records.desk import Opened, RecordDesk, Refused, StepSession
from bot.records.summary import frame_caption
from bot.table import ChatRef, TableManager

from ..drawing import Drawer
from ..frontends import DISCORD
from . import images
from .custom_ids import Cid, Ref
from .items import button
from .views import add_link

log = logging.getLogger(__name__)

REPLAY_FILE = "replay.png"
CONTENT_MAX = 2000  # Discord's message length limit


def replay_cid(ref: Ref, number: int, shown: int, to: int) -> str:
    return Cid("r", ref, f"{number}.{shown}.{to}").encode()


def parse_op(op: str) -> tuple[int, int, int] | None:
    parts = op.split(".")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 9 for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def review_view(ref: Ref, number: int, lang: Lang) -> discord.ui.View:
    """📝 under a hand's result: whoever played the hand gets their own review."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(Cid("r", ref, f"v{number}").encode(), t("dc_btn_review", lang)))
    return view


def stepper_view(ref: Ref, number: int, index: int, last: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if index > 0:
        view.add_item(button(replay_cid(ref, number, index, index - 1), "◀"))
    label = f"{index}/{last}"
    item = button(replay_cid(ref, number, index, index), label)
    item.item.disabled = True  # type: ignore[attr-defined]
    view.add_item(item)
    if index < last:
        view.add_item(button(replay_cid(ref, number, index, index + 1), "▶"))
    return view


def stepper_text(opened: Opened, index: int, lang: Lang) -> str:
    caption = frame_caption(opened.frames[index], opened.record.names, lang)
    return f"#{opened.number} · {caption}\n`/gouji why {opened.number} {index}`"[:CONTENT_MAX]


class DiscordRecords:
    def __init__(self, manager: TableManager, draw: Drawer) -> None:
        self.desk = RecordDesk(manager)
        self.manager = manager
        self.draw = draw
        # The web table's page of a finished hand (adapters/web), when GOUJI_WEB_URL is set.
        self.replay_link: Callable[[str, int], str] | None = None

    async def _say(self, interaction: discord.Interaction[Any], text: str, public: bool) -> None:
        text = text[:CONTENT_MAX]
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=not public)
        else:
            await interaction.response.send_message(text, ephemeral=not public)

    async def history(self, interaction: discord.Interaction[Any], chat: ChatRef) -> None:
        lang = (await self.manager.group_settings(chat)).lang
        await self._say(interaction, await self.desk.history(chat, lang), public=True)

    async def replay(
        self, interaction: discord.Interaction[Any], chat: ChatRef, number: int | None
    ) -> None:
        lang = (await self.manager.group_settings(chat)).lang
        opened = await self.desk.open(chat, number)
        if isinstance(opened, Refused):
            await self._say(interaction, opened.text(lang), public=False)
            return
        await interaction.response.defer(thinking=True)
        summary = opened.summary(lang)
        record = images.as_file(opened.file_bytes(), opened.file_name())
        if self.replay_link is not None:  # the hand in the web table, every hand face up
            link = self.replay_link(chat.key, opened.number)
            view = add_link(discord.ui.View(), t("dc_btn_web_replay", lang), link)
            await interaction.followup.send(summary[:CONTENT_MAX], file=record, view=view)
        else:
            await interaction.followup.send(summary[:CONTENT_MAX], file=record)
        png = await images.frame_png(self.draw, opened, 0, lang)
        ref = Ref.from_chat(chat)
        msg = await interaction.followup.send(
            stepper_text(opened, 0, lang),
            file=images.as_file(png, REPLAY_FILE),
            view=stepper_view(ref, opened.number, 0, opened.last),
            wait=True,
        )
        owner = str(interaction.user.id)
        await self.desk.remember(
            f"{DISCORD.key_prefix}{msg.id}",
            StepSession(chat.group_key, opened.number, 0, owner, lang),
        )

    async def press(self, interaction: discord.Interaction[Any], cid: Cid) -> bool:
        if cid.op[:1] == "v":  # 📝 under a hand's result
            digits = cid.op[1:]
            if not digits.isdigit() or len(digits) > 9:
                return False
            await self.review(interaction, cid.ref.chat, int(digits))
            return True
        parsed = parse_op(cid.op)
        message = interaction.message
        if parsed is None or message is None:
            return False
        number, shown, to = parsed
        key = f"{DISCORD.key_prefix}{message.id}"
        session = await self.desk.session(key)
        chat = cid.ref.chat
        lang = (
            session.lang if session is not None else (await self.manager.group_settings(chat)).lang
        )
        if to == shown:
            await interaction.response.defer()
            return True
        moved = (
            Refused("rec_stale")
            if session is not None and session.number != number
            else await self.desk.step(key, str(interaction.user.id), shown, to)
        )
        if isinstance(moved, Refused):
            await interaction.response.send_message(moved.text(lang), ephemeral=True)
            return True
        opened = await self.desk.open(chat, moved.number)
        if isinstance(opened, Refused):
            await interaction.response.send_message(opened.text(lang), ephemeral=True)
            return True
        png = await images.frame_png(self.draw, opened, moved.index, lang)
        await interaction.response.edit_message(
            content=stepper_text(opened, moved.index, lang),
            attachments=[images.as_file(png, REPLAY_FILE)],
            view=stepper_view(cid.ref, opened.number, moved.index, opened.last),
        )
        return True

    async def why(
        self,
        interaction: discord.Interaction[Any],
        chat: ChatRef,
        number: int,
        step: int,
        seat: int | None,
        cards: str | None,
    ) -> None:
        lang = (await self.manager.group_settings(chat)).lang
        burn = bool(cards) and cards.strip().lower().startswith(("burn", "烧"))  # type: ignore[union-attr]
        cleaned = cards.split()[-1].upper() if cards else None
        if (seat is None) != (cleaned is None):
            await self._say(interaction, t("why_usage", lang), public=False)
            return
        answer = await self.desk.why(chat, number, step, lang, seat, cleaned, burn)
        await self._say(interaction, answer, public=True)

    # -- /gouji review and 📝 ------------------------------------------------------------
    async def review(
        self, interaction: discord.Interaction[Any], chat: ChatRef, number: int | None
    ) -> None:
        """The asker's three costliest decisions in the hand, ephemeral: "正在分析…" at once
        when the review is not at hand, the review when it is done (off the event loop)."""
        lang = (await self.manager.group_settings(chat)).lang
        opened = await self.desk.open(chat, number)
        if isinstance(opened, Refused):
            await self._say(interaction, opened.text(lang), public=False)
            return
        seat = self.desk.review_seat(opened, str(interaction.user.id))
        if isinstance(seat, Refused):
            await self._say(interaction, seat.text(lang), public=False)
            return
        if not self.desk.review_ready(chat, opened, seat):
            await self._say(interaction, t("review_busy", lang, number=opened.number), False)
        try:
            text = await self.desk.review(chat, opened, seat, lang)
        except Exception:  # a bug must not leave the asker waiting in silence
            log.exception("review of hand %s failed", opened.number)
            text = t("review_failed", lang)
        await self._say(interaction, text, public=False)
