"""A restart mid-hand: new manager and app on the same SQLite file resume the same messages."""

from __future__ import annotations

from pathlib import Path

from bot.table import TableStatus

from .harness import GROUP_ID, USERS, Driver, Harness


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
