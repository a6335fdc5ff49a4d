"""Button payloads and the play picker, without Telegram."""

from __future__ import annotations

import pytest

from adapters.telegram.callback import (
    MAX_BYTES,
    ActPress,
    BadPayload,
    GroupPress,
    SettingsPress,
    decode,
    encode,
)
from adapters.telegram.ids import short_id
from adapters.telegram.views import cards_text
from bot.engine.cards import parse
from bot.engine.rules import switch_names

TID = short_id("tg:-1001234567890:123456", 2**47)


@pytest.mark.parametrize(
    "press",
    [
        GroupPress(TID, "j"),
        GroupPress(TID, "c", 6),
        ActPress(TID, 0, "r", ("p",)),
        ActPress(TID, 10**9, "g", ("b", "15", "16", "16", "4", "4")),
        ActPress(TID, 36**5, "z", ("p", "14", "36", "3")),
        ActPress(TID, 77, "R", ("6", "SSSSBBBB22223333")),
        ActPress(TID, 77, "R", ("2", "")),
        ActPress(TID, 5, "x"),
        SettingsPress("v", ("small_joker_beaten_by", "1")),
        SettingsPress("p", ("qingdao",)),
    ],
)
def test_round_trip_within_64_bytes(press: GroupPress | ActPress | SettingsPress) -> None:
    data = encode(press)
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == press


def test_every_settings_payload_fits() -> None:
    for name in switch_names():
        assert len(encode(SettingsPress("v", (name, "9"))).encode()) <= MAX_BYTES


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "x" * 65,
        "q:abc",
        f"g:{TID}",
        f"g:{TID}:c",
        f"g:{TID}:c:7",
        f"g:{TID}:j:1",
        "g:NOTATID1:j",
        f"a:{TID}:1:g:p.3.1.0.0",
        f"a:{TID}:1:g:p.3.1.0.0.0.0",
        f"a:{TID}:1:zz",
        f"a:{TID}:-1:x",
        f"a:{TID}:1:x:",
        f"a:{TID}:1:R:7.3",
        f"a:{TID}:1:Q:2.",
        f"a:{TID}:1:R:2.XYZ",
        "s:v:name",
        "s:p:Bad Preset",
        "s:zz",
    ],
)
def test_malformed_payloads_are_refused(data: str | None) -> None:
    with pytest.raises(BadPayload):
        decode(data)


def test_cards_text_reads_well() -> None:
    assert cards_text(parse("TTTTT22S"), "zh") == "10×5 22 小王"
    assert cards_text(parse("888B"), "en") == "888 BJ"
    assert cards_text(parse("3B"), "zh", high_first=True) == "大王 3"
