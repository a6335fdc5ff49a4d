"""A restart mid-hand: new manager and app on the same SQLite file resume the same messages."""

from __future__ import annotations

from pathlib import Path

from adapters.telegram.sendlog import TableMetaMemory
from bot.i18n import t
from bot.table import TableStatus

from .harness import GROUP_ID, USERS, Driver, Harness, op_of


async def test_restart_mid_hand_resumes_the_table(tmp_path: Path) -> None:
    h = await Harness(tmp_path, seed=12).open()
    wang, li, alice = USERS[:3]
    for u in (wang, li, alice):
        h.fake.opened.add(u["id"])
    await h.say(wang, "/gouji")
    await h.say(li, "/join")
    await h.say(alice, "/join")
    await h.say(wang, "/addbot 3")
    await h.say(wang, "/begin")
    await h.drain()
    humans = [wang, li, alice]

    # Hand 1 to its end, then the next hand from the button: with this seed (picked for it:
    # the AI seats' play decides the places) a human seat receives a 落贡 card and owes one
    # back, which it returns by picking it on its keyboard.
    await Driver(h, humans).play_hand()
    await h.drain()
    next_hand = h.table_message().button(lambda t_, d: d.endswith(":n"))
    await h.press(li, h.table_message(), next_hand)
    driver = Driver(h, humans)
    for _ in range(15):
        await driver.step()
        await h.tick(1.0)
    await h.drain()
    table_id = h.table_message().message_id
    hand_ids = {u["id"]: h.hand_message(u).message_id for u in humans}
    version = h.manager.tables[h.key].version
    log_len = len(h.manager.tables[h.key].log)
    calls_before = len(h.fake.calls)

    assert driver.returns == 1, "seat 3 returned its tribute through the buttons"
    await h.restart()
    table = h.manager.tables[h.key]
    assert table.status is TableStatus.PLAYING
    assert table.version == version and len(table.log) == log_len

    # The same messages are edited: no new table or hand message after the restart.
    driver = Driver(h, humans)
    await driver.play_hand()
    await h.drain()
    after = h.fake.calls[calls_before:]
    posted = [c for c in after if c.method == "sendPhoto"]
    assert not [c for c in posted if "table.png" in c.upload_names()]
    assert not [c for c in posted if "hand.png" in c.upload_names()]
    assert h.table_message().message_id == table_id
    assert {u["id"]: h.hand_message(u).message_id for u in humans} == hand_ids
    assert [c for c in after if c.chat_id == GROUP_ID and "result.png" in c.upload_names()]
    assert not h.errors, h.errors
    assert h.manager.tables[h.key].status in (TableStatus.BETWEEN, TableStatus.FINISHED)
    await h.close()


async def restarted_mid_turn(tmp_path: Path) -> tuple[Harness, dict[str, object]]:
    """老王 and 小李 with four AI seats, someone's turn, then a play from the keyboard."""
    h = await Harness(tmp_path, seed=12).open()
    wang, li = USERS[:2]
    h.fake.opened.update({wang["id"], li["id"]})
    await h.say(wang, "/gouji")
    await h.say(li, "/join")
    await h.say(wang, "/addbot 4")
    await h.say(wang, "/begin")
    await h.drain()
    driver = Driver(h, [wang, li])
    for _ in range(40):
        for u in (wang, li):
            priv = h.manager.private_snapshot(h.key, str(u["id"]))
            if priv is not None and priv.role == "turn":
                return h, u
        await driver.step()
        await h.tick(3.5)
    raise AssertionError("no human turn came")


async def test_a_double_tap_right_after_a_restart_is_already_played(tmp_path: Path) -> None:
    h, who = await restarted_mid_turn(tmp_path)
    msg = h.hand_message(who)  # type: ignore[arg-type]
    play = next(d for t_, d in msg.buttons() if t_.startswith("⚡") or op_of(d) == "x")
    answer = await h.press(who, msg, play)  # type: ignore[arg-type]
    assert answer.get("text") != t("stale"), answer
    version = h.manager.tables[h.key].version
    await h.restart()
    # The same button again, from the keyboard the phone still shows.
    again = await h.press(who, msg, play)  # type: ignore[arg-type]
    assert again["text"] == t("already_played")
    assert h.manager.tables[h.key].version == version
    assert not h.errors, h.errors
    await h.close()


async def test_my_cards_after_a_restart_posts_the_hand_again(tmp_path: Path) -> None:
    h, _ = await restarted_mid_turn(tmp_path)
    li = USERS[1]
    first = h.hand_message(li)
    await h.restart()
    mine = h.table_message().button(lambda t_, d: d.endswith(":h"))
    answer = await h.press(li, h.table_message(), mine)
    # The bot wrote to 小李 before the restart: the hand comes again, not a start link.
    assert "url" not in answer and answer["text"] == t("tg_hand_sent"), answer
    await h.drain()
    assert h.hand_message(li).message_id > first.message_id
    # Someone whose private chat fails is still sent to the bot's start link.
    h.fake.opened.discard(li["id"])
    await h.press(li, h.table_message(), mine)
    await h.drain()
    await h.restart()
    answer = await h.press(li, h.table_message(), mine)
    assert "start=h_" in answer.get("url", ""), answer
    assert not h.errors, h.errors
    await h.close()


async def test_the_group_budget_history_survives_a_restart(tmp_path: Path) -> None:
    """The calls made in the group before a restart — and which of them were table edits —
    are what the new process's sender starts from (docs/telegram.md, 'the group budget'):
    a restart does not reset the pacing, nor slow table edits as if all calls were posts."""
    h, _ = await restarted_mid_turn(tmp_path)
    await h.drain()
    memory = TableMetaMemory(h.manager)
    sent, edits = list(memory.load(GROUP_ID)), list(memory.load_edits(GROUP_ID))
    assert edits, "the table's edits in the last minute were recorded"
    assert set(edits) <= set(sent)
    await h.restart()
    memory = TableMetaMemory(h.manager)
    assert list(memory.load(GROUP_ID)) == sent
    assert list(memory.load_edits(GROUP_ID)) == edits
    assert not h.errors, h.errors
    await h.close()
