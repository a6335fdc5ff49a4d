"""The /settings menu: preset, every rule switch, timer, match length, language.

Each change goes to the manager as a ChangeSettings command; the manager validates it.
Only admins may use the menu (each press is checked), and its edits count against the
group's message budget like everything else the bot sends there.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ChatType

from bot.ai.levels import LEVELS
from bot.engine.errors import GoujiError
from bot.engine.rules import PRESET_NAMES, switch_names
from bot.i18n import preset_name, t
from bot.i18n.catalogue import Lang
from bot.present.labels import allowed_label, setting_label, value_label
from bot.present.schema import SettingValue, schema, spec_of
from bot.table import Actor, ChangeSettings, ChatRef, GroupSettings, Reply
from bot.table.describe import reply_text
from bot.table.settings import RESET

from ..frontends import TELEGRAM
from .callback import SettingsPress, encode
from .context import Context, actor_of, chat_of, user_lang
from .info import changes_text, rules_text

log = logging.getLogger(__name__)

PER_PAGE = 8
# A settings menu in an admin's private chat: which group it sets is kept this long (in
# the store, so any worker answers its buttons); after that its presses are "out of date".
PRIVATE_MENU = "tg_private_menu"
PRIVATE_MENU_TTL = 24 * 3600.0
NUMBER_OPS = {"T": "turn_seconds", "M": "match_hands", "G": "target_score"}
Screen = tuple[str, InlineKeyboardMarkup | None]


def menu_values(name: str) -> tuple[SettingValue, ...]:
    spec = schema().get(name)
    return spec.menu_values if spec is not None else ()


def _b(text: str, op: str, *args: object) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        text, callback_data=encode(SettingsPress(op, tuple(map(str, args))))
    )


def _value(name: str, shown: str, lang: Lang, op: str, *args: object) -> InlineKeyboardButton:
    """A home-screen button "setting: value" that opens (or flips) that setting."""
    return _b(t("tg_set_value", lang, name=t("set_" + name, lang), v=shown), op, *args)


def _mark(text: str, current: bool) -> str:
    return f"✓ {text}" if current else text


class SettingsMenu:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # -- screens ---------------------------------------------------------------------------
    def home(self, s: GroupSettings) -> Screen:
        lang = s.lang
        text = t(
            "tg_settings_title",
            lang,
            preset=preset_name(s.preset, lang),
            changes=changes_text(s, lang),
        )
        seconds = (
            t("tg_seconds", lang, n=s.turn_seconds) if s.turn_seconds else t("tg_no_limit", lang)
        )
        hands = str(s.match_hands) if s.match_hands else t("tg_no_limit", lang)
        target = str(s.target_score) if s.target_score else t("tg_no_limit", lang)
        next_level = LEVELS[(LEVELS.index(s.ai_level) + 1) % len(LEVELS)]
        rows = [
            [_b(t("tg_set_preset", lang, v=preset_name(s.preset, lang)), "P")],
            [_b(t("tg_set_switches", lang), "L", 0)],
            [_value("turn_seconds", seconds, lang, "T"), _value("match_hands", hands, lang, "M")],
            [
                _value("target_score", target, lang, "G"),
                _value(
                    "ai_fill",
                    value_label("ai_fill", s.ai_fill, lang),
                    lang,
                    "a",
                    0 if s.ai_fill else 1,
                ),
            ],
            [
                _value("ai_level", t("ai_level_" + s.ai_level, lang), lang, "A", next_level),
                _value(
                    "hints", value_label("hints", s.hints_on, lang), lang, "i", int(not s.hints)
                ),
            ],
            [
                _b(t("tg_set_lang", lang), "l", "en" if lang == "zh" else "zh"),
                _b(t("tg_set_done", lang), "x"),
            ],
        ]
        return text, InlineKeyboardMarkup(rows)

    def presets(self, s: GroupSettings) -> Screen:
        lang = s.lang
        rows = [[_b(_mark(preset_name(p, lang), p == s.preset), "p", p)] for p in PRESET_NAMES]
        rows.append([_b(t("tg_btn_back", lang), "h")])
        return t("tg_set_preset", lang, v=preset_name(s.preset, lang)), InlineKeyboardMarkup(rows)

    def switches(self, s: GroupSettings, page: int) -> Screen:
        lang = s.lang
        rules = s.rules()
        names = switch_names()
        pages = max(1, -(-len(names) // PER_PAGE))
        page = min(max(page, 0), pages - 1)
        rows = []
        for name in names[page * PER_PAGE : (page + 1) * PER_PAGE]:
            label = t(
                "tg_set_value",
                lang,
                name=setting_label(name, lang),
                v=value_label(name, getattr(rules, name), lang),
            )
            rows.append([_b(label, "w", name)])
        nav = []
        if page > 0:
            nav.append(_b(t("tg_set_prev", lang), "L", page - 1))
        if page + 1 < pages:
            nav.append(_b(t("tg_set_next", lang), "L", page + 1))
        rows.append(nav)
        rows.append([_b(t("tg_set_reset", lang), "r"), _b(t("tg_btn_back", lang), "h")])
        head = f"{t('tg_set_switches', lang)} {page + 1}/{pages}"
        return head, InlineKeyboardMarkup([r for r in rows if r])

    def switch(self, s: GroupSettings, name: str) -> Screen:
        lang = s.lang
        current = getattr(s.rules(), name)
        label = setting_label(name, lang)
        text = t("tg_set_value", lang, name=label, v=value_label(name, current, lang))
        values = menu_values(name)
        page = switch_names().index(name) // PER_PAGE
        back = [_b(t("tg_btn_back", lang), "L", page)]
        if not values:
            allowed = allowed_label(spec_of(name), lang)
            text += "\n" + t("tg_set_freeform", lang, name=name, allowed=allowed)
            return text, InlineKeyboardMarkup([back])
        buttons = [
            _b(_mark(value_label(name, v, lang), v == current), "v", name, i)
            for i, v in enumerate(values)
        ]
        rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
        return text, InlineKeyboardMarkup([*rows, back])

    def numbers(self, s: GroupSettings, op: str) -> Screen:
        lang = s.lang
        field = NUMBER_OPS.get(op, "target_score")
        values = menu_values(field)
        current = s.value(field)
        setter = op.lower()
        buttons = []
        for v in values:
            if not v:
                label = t("tg_no_limit", lang)
            elif field == "turn_seconds":
                label = t("tg_seconds", lang, n=v)
            else:
                label = str(v)
            buttons.append(_b(_mark(label, v == current), setter, v))
        rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
        rows.append([_b(t("tg_btn_back", lang), "h")])
        return t("set_" + field, lang), InlineKeyboardMarkup(rows)

    # -- entry points ----------------------------------------------------------------------
    async def open(self, chat: ChatRef, reply_to: int) -> None:
        settings = await self.ctx.manager.group_settings(chat)
        text, markup = self.home(settings)
        self.ctx.say(chat, text, reply_to=reply_to, markup=markup)

    async def open_private(self, chat: ChatRef, user_id: int) -> None:
        """The menu for ``chat``'s settings, in the admin's private chat."""
        settings = await self.ctx.manager.group_settings(chat)
        text, markup = self.home(settings)
        title = self.ctx.group_titles.get(int(chat.chat_id))
        if title:
            text = f"{title}\n{text}"
        ctx = self.ctx

        async def job() -> bool:
            msg = await ctx.api.send_message(user_id, text, reply_markup=markup)
            key = _private_menu_key(user_id, msg.message_id)
            value = {"chat": chat.key}
            await ctx.manager.interactions.keep(key, PRIVATE_MENU, value, PRIVATE_MENU_TTL)
            return True

        ctx.sender.post(user_id, job)

    async def set_by_text(self, chat: ChatRef, actor: Actor, name: str, raw: str) -> Reply:
        """``/settings NAME VALUE``: the value is read by the setting's own schema entry."""
        name = name.strip().lower()
        try:
            value: SettingValue = True if name == RESET else spec_of(name).parse(raw)
        except GoujiError as err:
            return Reply.no(err.code, **err.params)
        return await self.ctx.manager.handle(
            ChangeSettings(chat=chat, actor=actor, changes={name: value})
        )

    async def press(self, query: CallbackQuery, press: SettingsPress) -> None:
        message = query.message
        if message is None:
            await query.answer()
            return
        if message.chat.type == ChatType.PRIVATE:
            # A menu sent to an admin's private chat: which group it sets was kept when
            # it was sent, for a day (any worker reads it).
            key = _private_menu_key(message.chat.id, message.message_id)
            kept = await self.ctx.manager.interactions.get(key, PRIVATE_MENU)
            raw = None if kept is None else kept.value.get("chat")
            if not isinstance(raw, str):
                await query.answer(t("stale", user_lang(query.from_user)))
                return
            chat = ChatRef.from_key(raw)
        else:
            chat = chat_of(message)  # type: ignore[arg-type]
        lang = await self.ctx.lang(chat)
        if not await self.ctx.is_admin(int(chat.chat_id), query.from_user.id):
            await query.answer(t("not_admin", lang), show_alert=True)
            return
        changes = self._changes(press)
        if changes is None:
            await query.answer(t("tg_bad_button", lang))
            return
        answer = ""
        if changes:
            actor = actor_of(query.from_user, True)
            reply = await self.ctx.manager.handle(
                ChangeSettings(chat=chat, actor=actor, changes=changes)
            )
            answer = reply_text(reply, lang)
        settings = await self.ctx.manager.group_settings(chat)
        await query.answer(answer)
        self._show(message.chat.id, message.message_id, self._screen(settings, press))

    def _changes(self, press: SettingsPress) -> dict[str, SettingValue] | None:
        """The settings a press changes ({} for navigation); None for a payload that names
        no real switch or value."""
        op, args = press.op, press.args
        if op in ("h", "P", "L", "T", "M", "G", "x"):
            if op == "L" and not args[0].isdigit():
                return None
            return {}
        if op == "w":
            return {} if args[0] in switch_names() else None
        if op == "p":
            return {"preset": args[0]} if args[0] in PRESET_NAMES else None
        if op == "v":
            name, idx = args
            values = menu_values(name) if name in switch_names() else ()
            if not idx.isdigit() or int(idx) >= len(values):
                return None
            return {name: values[int(idx)]}
        if op in ("t", "m", "g"):
            field = NUMBER_OPS[op.upper()]
            wanted = args[0]
            found = [v for v in menu_values(field) if str(v) == wanted]
            return {field: found[0]} if found else None
        if op == "l":
            return {"lang": args[0]} if args[0] in ("zh", "en") else None
        if op in ("a", "i"):  # the on/off table settings: AI fill, 💡 hints
            name = "ai_fill" if op == "a" else "hints"
            return {name: args[0] == "1"} if args[0] in ("0", "1") else None
        if op == "A":
            return {"ai_level": args[0]} if args[0] in LEVELS else None
        if op == "r":
            return {RESET: True}
        return None

    def _screen(self, s: GroupSettings, press: SettingsPress) -> Screen:
        op, args = press.op, press.args
        if op == "x":
            return rules_text(s, s.lang), None
        if op in ("P", "p"):
            return self.presets(s) if op == "P" else self.home(s)
        if op == "L":
            return self.switches(s, int(args[0]))
        if op in ("w", "v"):
            return self.switch(s, args[0])
        if op in ("T", "M", "G"):
            return self.numbers(s, op)
        if op == "r":
            return self.switches(s, 0)
        return self.home(s)

    def _show(self, chat_id: int, message_id: int, screen: Screen) -> None:
        # Rapid presses on one menu collapse into a single edit showing the last screen.
        self.ctx.edit(chat_id, message_id, *screen)


def _private_menu_key(user_id: int, message_id: int) -> str:
    return f"{TELEGRAM.key_prefix}menu:{user_id}:{message_id}"
