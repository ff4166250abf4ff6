"""Clocks, `/away` and `/games mine` through Discord (issue 27 §1-§3): the time left in the
handover post and the panel, answers only the caller sees, a link to the table's last post,
and `/games mine` and `/away` in a direct message with the bot."""

from __future__ import annotations

from tests.discord.test_play import GAME, position

HOUR = 3600.0


async def clocked_game(harness, emu):
    alice, bob = emu.users[1001], emu.users[1002]
    await harness.do(alice, "game new", {"game": GAME, "options": "clock=3d"})
    await harness.do(bob, "game join")
    await harness.do(alice, "game start", {"fixed": True})
    return alice, bob


def dm_channel(emu, user) -> int:
    """The user's direct-message channel with the bot (as Discord opens it)."""
    cid = 500_000 + user.id
    emu.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user.payload()], "last_message_id": None}
    return cid


async def test_1_the_handover_post_and_the_panel_show_the_time_left(text_harness, emu):
    harness = text_harness
    alice, _ = await clocked_game(harness, emu)
    start = emu.public_messages(1)[-1]
    assert "⏳ " in start["text"] and ", 3d left" in start["text"], start["text"]
    harness.clock.advance(5 * HOUR)
    panel = await harness.press_turn(alice, start)  # "Take your turn": the panel, to the caller alone
    assert panel.ephemeral and "⏳ 2d 19h left on your clock." in emu.original(panel)["text"]


async def test_3_games_mine_answers_the_caller_alone_with_a_link_to_the_last_post(text_harness, emu):
    harness = text_harness
    alice, bob = await clocked_game(harness, emu)
    last = emu.public_messages(1)[-1]
    table, *_ = await position(harness)
    public = len(emu.public_messages(1))
    harness.clock.advance(2 * HOUR)
    mine = await harness.do(alice, "games mine")
    text = emu.reply_text(mine)
    assert mine.ephemeral and len(emu.public_messages(1)) == public
    assert "**Your turn at 1 table**" in text and "waiting 2 hours" in text and "⏳ 2d 22h left" in text
    assert f"[last post](https://discord.com/channels/{emu.guild_id}/1/{last['id']})" in text
    assert (await harness.storage.posts([table.id])) == {table.id: int(last["id"])}
    assert "It is nowhere your turn." in emu.reply_text(await harness.do(bob, "games mine"))


async def test_2_3_away_and_games_mine_work_in_a_direct_message(text_harness, emu):
    harness = text_harness
    alice, _ = await clocked_game(harness, emu)
    dm = dm_channel(emu, alice)
    away = await harness.do(alice, "away", {"time": "2d", "note": "holiday"}, channel=dm)
    assert "You are away until" in emu.reply_text(away) and "(holiday)" in emu.reply_text(away)
    status = await harness.do(emu.users[1002], "game status")
    assert "Away (their clocks stand still): Alice until" in emu.reply_text(status)
    harness.clock.advance(HOUR)
    mine = await harness.do(alice, "games mine", channel=dm)
    text = emu.reply_text(mine)
    assert "**Your turn at 1 table**" in text and "⏳ 3d left" in text  # away: the clock stood still
    assert "<#1>" in text  # where the table is, from the direct message
