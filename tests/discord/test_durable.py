"""Announcements survive a restart: a public post or DM that fails during a command goes
into the outbox (Service.enqueue) and is delivered exactly once by the dispatcher of the
next process; the "since your last turn" summary is worked out from the stored log."""

from __future__ import annotations

import asyncio

import pytest

from tests.discord.emulator import components
from tests.discord.test_faults import first_legal, outbox_empty, posts
from tests.discord.test_play import open_game, turn_buttons

FAULTS = {
    "503": dict(status=503),
    "429-without-via": dict(status=429, via=False),
    "long-rate-limit": dict(status=429, retry_after=600),
    "network": dict(status=0),
}


def played(emu, name: str = "Alice", channel: int = 1) -> list[dict]:
    return [m for m in emu.public_messages(channel) if f"\n• {name}" in m["text"]]


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_failed_move_post_is_announced_once_after_a_restart(harness, emu, fault):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    emu.fail("POST", r"^/channels/1/messages$", times=10_000, **FAULTS[fault])
    inter = await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    assert "✅" in emu.reply_text(inter)  # the move is stored; the caller is told
    await emu.wait_for(lambda: any(r.status in (0, 429, 503) for r in posts(emu)))
    (held,) = await harness.service.pending_notices()  # the announcement is stored too
    assert held.board and held.reply.image is None and held.reply.mentions == [1002]
    assert not played(emu)
    await harness.restart()  # nothing of the first process survives but the database
    assert not harness.bot.courier.pending
    emu.faults.clear()
    await emu.wait_for(lambda: played(emu))
    await outbox_empty(harness)
    await harness.bot.dispatcher.drain()
    await harness.settle()
    (message,) = played(emu)  # exactly once
    assert message["pinged"] == {"users": [1002], "roles": [], "everyone": False}
    assert message["allowed_mentions"]["parse"] == [] and [int(u) for u in message["allowed_mentions"]["users"]] == [
        1002
    ]
    table = await harness.table()
    assert turn_buttons(message) == [f"ep:turn:{table.id}:{table.version}"]
    (picture,) = message["attachments"]  # the board, drawn again from the stored state
    board = await harness.service.render_board(table.id)
    assert picture["filename"] == board.filename  # (Discord clips the alt text; compare its start)
    assert len(picture["description"]) > 100 and board.alt.startswith(picture["description"][:1000])


async def test_a_held_post_of_a_game_that_moved_on_goes_late_without_pings(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    emu.fail("POST", r"^/channels/1/messages$", 503, times=10_000)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    await emu.wait_for(lambda: any(r.status == 503 for r in posts(emu)))
    await harness.bot.close()  # the bot goes down before it could deliver ...
    await harness.service.handle(1, 1002, "Bob", "play", await first_legal(harness, 1002))  # ... Bob plays on
    await harness.stop()
    await harness.start()
    emu.faults.clear()
    await emu.wait_for(lambda: played(emu))
    await outbox_empty(harness)
    (late,) = played(emu)
    assert "moved on" in late["text"] and late["pinged"]["users"] == []
    assert not late["attachments"] and not turn_buttons(late)  # no outdated board or button


async def test_an_undo_request_keeps_its_approve_and_reject_buttons_through_the_outbox(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    await harness.do(bob, "play", {"action": await first_legal(harness, 1002)})
    emu.fail("POST", r"^/channels/1/messages$", 503, times=10_000)
    await harness.do(alice, "undo")
    await emu.wait_for(lambda: any(r.status == 503 for r in posts(emu)))
    await harness.restart()
    emu.faults.clear()
    request = await emu.wait_for(lambda: [m for m in emu.public_messages(1) if "undo" in m["text"].lower()])
    ids = [c["custom_id"] for c in components(request[-1])]
    assert any(i.startswith("ep:undo:") and i.endswith(":approve") for i in ids), ids
    assert request[-1]["pinged"]["users"] == [1002]


async def test_a_failed_dm_is_delivered_after_a_restart_and_never_holds_up_the_channel(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(bob, "settings", {"dm": True})
    dm_channel = 500_000 + 1002
    emu.fail("POST", rf"^/channels/{dm_channel}/messages$", 503, times=10_000)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    assert played(emu)  # the public post went out at once
    await emu.wait_for(
        lambda: any(r.status == 503 and r.path == f"/channels/{dm_channel}/messages" for r in emu.requests)
    )
    assert [n.tags for n in await harness.service.pending_notices()] == [{"dm": 1002, "turn": True}]
    await harness.restart()
    emu.faults.clear()
    dms = await emu.wait_for(lambda: emu.channel_messages(dm_channel))
    await outbox_empty(harness)
    await harness.bot.dispatcher.drain()
    await harness.settle()
    assert len(emu.channel_messages(dm_channel)) == 1 and "Since your last turn" in dms[0]["text"]
    assert "**Your turn**" in dms[0]["text"]  # still "your turn", with its button (issue 26 §3)
    assert [c["custom_id"] for c in components(dms[0]) if c.get("custom_id", "").startswith("ep:turn:")]
    assert len(played(emu)) == 1  # the public post was not repeated


async def test_since_your_last_turn_is_shown_in_the_menu_after_a_restart(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    action = await first_legal(harness, 1001)
    await harness.do(alice, "play", {"action": action})
    message = played(emu)[-1]
    await harness.restart()
    menu = await harness.press_turn(bob, message)
    text = emu.reply_text(menu)
    [row] = await harness.storage.actions((await harness.table()).id)
    assert row.action == action and "Since your last turn" in text and row.events[0] in text, text
    # and never for someone who is not to act
    other = await harness.press_turn(alice, message)
    assert "Since your last turn" not in emu.reply_text(other)


async def test_if_the_outbox_cannot_be_written_the_post_is_still_retried_from_memory(harness, emu, caplog):
    alice, bob = await open_game(harness, emu, 1001, 1002)

    async def broken(*args, **kwargs):
        raise OSError("disk full")

    harness.service.enqueue = broken
    emu.fail("POST", r"^/channels/1/messages$", 503, times=2)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    await emu.wait_for(lambda: played(emu))
    assert "retried from memory only" in caplog.text
    assert [r.status for r in posts(emu)[-3:]] == [503, 503, 200]
    for _ in range(500):  # the retry is dropped from memory right after its send returned
        if not harness.bot.courier.pending:
            break
        await asyncio.sleep(0.01)
    assert not harness.bot.courier.pending
    assert len(played(emu)) == 1
