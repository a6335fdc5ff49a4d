"""Interactions in, table-manager commands out, and the answer back to the one who asked.

Every interaction is acknowledged (deferred) before anything slow — the manager, the
store, rendering — because Discord drops an interaction not answered within 3 seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.engine.rules import PRESET_NAMES
from bot.i18n import has_text, preset_name, t, use_wording
from bot.i18n.catalogue import Lang
from bot.present.controls import Control, Op
from bot.present.stats import leaderboard_lines
from bot.table import (
    Actor,
    AddBots,
    AskCount,
    ChangeSettings,
    ChatRef,
    Command,
    FrontText,
    Join,
    Leave,
    NextHand,
    OpenTable,
    Reply,
    ReplyCode,
    Start,
    TableManager,
)
from bot.table.describe import reply_text

from ..press import Pressed, Redraw, Verdict, seat_view
from ..press import press as judge
from .buttons import control_of
from .custom_ids import PATTERN, SEAT_KINDS, SETTINGS_KINDS, Cid, Ref
from .images import HAND_FILE, as_file
from .menus import MORE
from .records import DiscordRecords
from .sender import Sender
from .settings_view import (
    changes_text,
    decode_value,
    editable,
    settings_content,
    settings_view,
)
from .views import Pick, nav_of, pick_from, private_view

log = logging.getLogger(__name__)

MakeCommand = Callable[[ChatRef, Actor], Command]
QUIET_REPLIES = frozenset({ReplyCode.OK})
SEAT_VALUES = frozenset("123456")


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return interaction.guild_id is not None and (perms.manage_guild or perms.administrator)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    return Actor(str(user.id), user.display_name, is_admin=is_admin(interaction))


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef | None:
    """Settings and stats belong to the server; the table to the channel or thread."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return Ref(interaction.guild_id, interaction.channel_id).chat


def custom_id_of(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", ""))


def discord_reply_text(reply: Reply, lang: Lang) -> str:
    """The manager's reply, in the Discord wording where the generic one names other commands."""
    own = f"dc_{reply.key}"
    if has_text(own, lang):
        reply = Reply(reply.ok, FrontText(own), reply.params)
    return reply_text(reply, lang)


def _is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


class Controller:
    def __init__(self, manager: TableManager, sender: Sender) -> None:
        self.manager = manager
        self.sender = sender
        self.records = DiscordRecords(manager, sender.draw)

    # -- helpers -----------------------------------------------------------------------
    async def lang(self, chat: ChatRef | None) -> Lang:
        if chat is None:
            return "zh"
        return (await self.manager.group_settings(chat)).lang

    async def say(
        self, interaction: discord.Interaction[Any], text: str, ephemeral: bool = True
    ) -> None:
        """Answer the interaction, or follow up if it was already acknowledged."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)

    async def say_reply(
        self, interaction: discord.Interaction[Any], reply: Reply, lang: Lang, extra: str = ""
    ) -> None:
        text = discord_reply_text(reply, lang)
        await self.say(interaction, f"{text}\n{extra}" if extra else text)

    async def refuse_unknown(self, interaction: discord.Interaction[Any], kind: str) -> None:
        custom_id = custom_id_of(interaction)
        # The id itself may carry cards: log its shape only.
        log.warning(
            "unrecognized component (%s, %d characters, prefix %r)",
            kind,
            len(custom_id),
            custom_id[:4],
        )
        lang = await self.lang(chat_of(interaction))
        await self.say(interaction, t("dc_unknown_button", lang))

    # -- slash commands ---------------------------------------------------------------------
    async def command(
        self, interaction: discord.Interaction[Any], make: MakeCommand, repost: bool = False
    ) -> None:
        chat = chat_of(interaction)
        if chat is None:
            await self.say(interaction, t("dc_guild_only", "zh"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._run(interaction, chat, make, repost)

    async def _run(
        self,
        interaction: discord.Interaction[Any],
        chat: ChatRef,
        make: MakeCommand,
        repost: bool = False,
    ) -> None:
        if repost:
            self.sender.repost(chat.key)
        reply = await self.manager.handle(make(chat, actor_of(interaction)))
        lang = await self.lang(chat)
        if reply.ok and reply.key == ReplyCode.JOINED:
            await self.say_reply(interaction, reply, lang, t("dc_dm_hint", lang))
        elif not reply.ok or reply.key not in QUIET_REPLIES:
            await self.say_reply(interaction, reply, lang)

    async def show_hand(self, interaction: discord.Interaction[Any], chat: ChatRef) -> None:
        """The private view as an ephemeral message: for closed DMs, or just to look."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = str(interaction.user.id)
        priv = self.manager.private_snapshot(chat.key, user)
        if priv is None:
            await interaction.followup.send(t("dc_no_hand", await self.lang(chat)), ephemeral=True)
            return
        await self._draw_private(interaction, chat, Pick())
        self.sender.remember_ephemeral(chat.key, user, interaction)

    async def _draw_private(
        self, interaction: discord.Interaction[Any], chat: ChatRef, pick: Pick
    ) -> bool:
        priv = self.manager.private_snapshot(chat.key, str(interaction.user.id))
        if priv is None:
            return False
        content, data, view = await self.sender.render_private(priv, pick)
        await interaction.edit_original_response(
            content=content, attachments=[as_file(data, HAND_FILE)], view=view
        )
        return True

    async def settings_panel(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None:
            await self.say(interaction, t("dc_guild_only", "zh"))
            return
        lang = await self.lang(chat)
        if not is_admin(interaction):
            await self.say(interaction, t("dc_need_manage", lang))
            return
        settings = await self.manager.group_settings(chat)
        await interaction.response.send_message(
            settings_content(settings, lang),
            view=settings_view(settings, Ref.from_chat(chat), lang),
            ephemeral=True,
        )

    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None:
            await self.say(interaction, t("dc_guild_only", "zh"))
            return
        settings = await self.manager.group_settings(chat)
        lang = settings.lang
        lines = [
            t("dc_rules_preset", lang, preset=preset_name(settings.preset, lang)),
            t("dc_rules_changes", lang, changes=changes_text(settings, lang)),
            t("dc_rules", lang),
        ]
        await self.say(interaction, "\n".join(lines))

    async def score(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None:
            await self.say(interaction, t("dc_guild_only", "zh"))
            return
        lang = await self.lang(chat)
        snap = self.manager.snapshot(chat.key)
        if snap is None:
            await self.say(interaction, t("no_table", lang))
            return
        a, b = snap.totals
        await self.say(
            interaction, t("dc_hand_line", lang, hand_no=snap.hand_no, a=a, b=b), ephemeral=False
        )

    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None:
            await self.say(interaction, t("dc_guild_only", "zh"))
            return
        await interaction.response.defer(thinking=True)
        lang = await self.lang(chat)
        rows = await self.manager.leaderboard(chat.group_key)
        if not rows:
            await interaction.followup.send(t("dc_no_stats", lang))
            return
        lines = [t("dc_stats_title", lang), *leaderboard_lines(rows, lang)]
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    # -- components ---------------------------------------------------------------------------
    async def check(self, interaction: discord.Interaction[Any], cid: Cid | None) -> bool:
        """Only a seat's player may use its private controls; only admins the settings.
        (First of a component's work in its task: from here on it speaks Discord's words.)"""
        use_wording("dc")
        if cid is None:
            return True
        if cid.kind in SEAT_KINDS:
            priv = await seat_view(
                self.manager, cid.ref.chat, str(interaction.user.id), cid.version
            )
            if priv is None or priv.seat != cid.seat:
                await self.say(interaction, t("dc_not_yours", await self.lang(cid.ref.chat)))
                return False
        if cid.kind in SETTINGS_KINDS and not is_admin(interaction):
            await self.say(interaction, t("dc_need_manage", await self.lang(cid.ref.chat)))
            return False
        return True

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: Cid | None, values: Sequence[str]
    ) -> None:
        try:
            await self._component(interaction, cid, values)
        except Exception as err:
            await self.on_error(interaction, err)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """A bug or an outage must still leave the player with an answer."""
        log.error("interaction failed: %s", type(error).__name__, exc_info=error)
        try:
            await self.say(interaction, t("dc_error", await self.lang(chat_of(interaction))))
        except discord.HTTPException:
            log.warning("could not tell the player about the failure")

    async def _component(
        self, interaction: discord.Interaction[Any], cid: Cid | None, values: Sequence[str]
    ) -> None:
        if cid is None:
            await self.refuse_unknown(interaction, "malformed")
            return
        handled = False
        if cid.kind == "t":
            handled = await self._table_button(interaction, cid)
        elif cid.kind == "q":
            handled = await self._table_menu(interaction, cid, values)
        elif cid.kind == "a":
            handled = await self._seat_button(interaction, cid)
        elif cid.kind == "m":
            handled = await self._seat_menu(interaction, cid, values)
        elif cid.kind in SETTINGS_KINDS:
            handled = await self._settings(interaction, cid, values)
        elif cid.kind == "r":
            handled = await self.records.press(interaction, cid)
        if not handled:
            await self.refuse_unknown(interaction, f"op of {cid.kind}")

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Components none of our items claimed (foreign or mangled ids) get a polite no."""
        use_wording("dc")
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction)
        if PATTERN.fullmatch(custom_id) is None and not interaction.response.is_done():
            await self.refuse_unknown(interaction, "foreign")

    async def _table_button(self, interaction: discord.Interaction[Any], cid: Cid) -> bool:
        chat = cid.ref.chat
        commands: dict[str, MakeCommand] = {
            "join": lambda c, a: Join(chat=c, actor=a),
            "leave": lambda c, a: Leave(chat=c, actor=a),
            "bot": lambda c, a: AddBots(chat=c, actor=a, count=1),
            "start": lambda c, a: Start(chat=c, actor=a),
            "next": lambda c, a: NextHand(chat=c, actor=a),
            "new": lambda c, a: OpenTable(chat=c, actor=a),
        }
        if cid.op == "hand":
            await self.show_hand(interaction, chat)
            return True
        make = commands.get(cid.op)
        if make is None:
            return False
        await interaction.response.defer()
        await self._run(interaction, chat, make, repost=cid.op == "new")
        return True

    async def _table_menu(
        self, interaction: discord.Interaction[Any], cid: Cid, values: Sequence[str]
    ) -> bool:
        if cid.op != "count" or len(values) != 1 or values[0] not in SEAT_VALUES:
            return False
        target = int(values[0])
        await interaction.response.defer()
        await self._run(
            interaction, cid.ref.chat, lambda c, a: AskCount(chat=c, actor=a, target=target)
        )
        return True

    async def _seat_button(self, interaction: discord.Interaction[Any], cid: Cid) -> bool:
        control = control_of(cid.op)
        if control is None:
            return False
        if control.op is Op.HINT:  # 💡: the expert's choice now, for the presser's eyes only
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
            self._remember(interaction, cid)
        await self._press(interaction, cid, control, Pick())
        return True

    async def _seat_menu(
        self, interaction: discord.Interaction[Any], cid: Cid, values: Sequence[str]
    ) -> bool:
        pick = pick_from(cid.op, values[0]) if len(values) == 1 else None
        if pick is None:
            return False
        await interaction.response.defer()
        self._remember(interaction, cid)
        await self._press(interaction, cid, nav_of(pick), pick)
        return True

    def _remember(self, interaction: discord.Interaction[Any], cid: Cid) -> None:
        if _is_ephemeral(interaction):
            self.sender.remember_ephemeral(cid.ref.key, str(interaction.user.id), interaction)

    async def _press(
        self, interaction: discord.Interaction[Any], cid: Cid, control: Control, pick: Pick
    ) -> None:
        """The one press protocol (adapters/press.py), then its answer in Discord's words
        and the controls redrawn as it says."""
        chat = cid.ref.chat
        actor = actor_of(interaction)
        pressed = await judge(self.manager, chat, actor, control, cid.version or 0)
        lang = await self.lang(chat)
        if pressed.verdict is Verdict.NO_HAND:
            await self.say(interaction, t("dc_no_hand", lang))
        elif pressed.verdict is Verdict.HINT and pressed.hint is not None:
            await interaction.followup.send(pressed.hint.text(lang), ephemeral=True)
        elif pressed.verdict is Verdict.NAVIGATE:
            await self._draw_private(interaction, chat, pick)
        elif pressed.redraw is Redraw.SWAP:
            await self._swap_controls(interaction, pressed)
        elif pressed.redraw is Redraw.REFRESH:
            await self._draw_private(interaction, chat, Pick())
        reply = pressed.reply
        if reply is not None and (not reply.ok or reply.key not in QUIET_REPLIES):
            await self.say_reply(interaction, reply, lang)

    async def _swap_controls(self, interaction: discord.Interaction[Any], pressed: Pressed) -> None:
        """The action went through: its controls give way at once to the new state's (the
        new picture follows when drawn), so nothing stale stays pressable."""
        priv, controls = pressed.priv, pressed.controls
        view = None
        if priv is not None and controls is not None:
            view = private_view(priv, Ref.from_key(priv.key), Pick(), controls)
            view = self.sender.with_seat_link(view, priv)
        try:
            await interaction.edit_original_response(view=view)
        except discord.HTTPException:
            log.debug("the played controls were already replaced")

    async def _settings(
        self, interaction: discord.Interaction[Any], cid: Cid, values: Sequence[str]
    ) -> bool:
        chat = cid.ref.chat
        value = values[0] if len(values) == 1 else ""
        changes: dict[str, Any] | None = None
        editing: str | None = None
        page = 0
        op, _, arg = cid.op.partition(".")
        if cid.kind == "e" and cid.op == "reset":
            changes = {"reset": True}
        elif cid.kind != "s":
            return False
        elif op == "preset" and value in PRESET_NAMES:
            changes = {"preset": value}
        elif op == "pick" and value.startswith(MORE) and value[1:].isdigit():
            page = int(value[1:])
        elif op == "pick" and value in editable():
            editing = value
        elif op == "val" and arg in editable():
            decoded = decode_value(arg, value)
            if decoded is None:
                return False
            changes, editing = {arg: decoded}, arg
        else:
            return False
        await interaction.response.defer()
        reply: Reply | None = None
        if changes is not None:
            reply = await self.manager.handle(
                ChangeSettings(chat=chat, actor=actor_of(interaction), changes=changes)
            )
        settings = await self.manager.group_settings(chat)
        lang = settings.lang
        await interaction.edit_original_response(
            content=settings_content(settings, lang),
            view=settings_view(settings, cid.ref, lang, editing, page),
        )
        if reply is not None and not reply.ok:
            await self.say_reply(interaction, reply, lang)
        return True
