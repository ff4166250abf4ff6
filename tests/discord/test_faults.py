"""Discord's faults: rate limits, server errors, gateway drops, restarts — nothing is lost."""

from __future__ import annotations

import asyncio
import logging

from bot.service import HOUR
from tests.discord.harness import TOKEN
from tests.discord.test_play import offered, open_game, position, turn_buttons


async def outbox_empty(harness, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await harness.service.pending_notices():
        assert loop.time() < end, "the outbox was not drained"
        await asyncio.sleep(0.02)


def posts(emu, channel: int = 1):
    return [r for r in emu.requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"]


async def first_legal(harness, uid: int, channel: int = 1) -> str:
    table, game, state, seats = await position(harness, channel)
    return game.legal_actions(state, seats[uid])[0]


async def test_a_429_and_a_500_on_send_lose_nothing_and_duplicate_nothing(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    before_posts, before_messages = len(posts(emu)), len(emu.public_messages(1))
    emu.fail("POST", r"^/channels/1/messages$", 500)  # discord.py waits 1 s, then tries again
    emu.fail("POST", r"^/channels/1/messages$", 429, retry_after=0.05)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    await emu.wait_for(lambda: len(emu.public_messages(1)) == before_messages + 1, timeout=10)
    assert [r.status for r in posts(emu)[before_posts:]] == [500, 429, 200]
    assert "\n• Alice" in emu.public_messages(1)[-1]["text"]
    await harness.settle()
    assert len(emu.public_messages(1)) == before_messages + 1


async def test_a_send_that_keeps_failing_is_retried_by_the_dispatcher(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    before = len(emu.public_messages(1))
    # 503 is not retried by discord.py itself; a 429 without `Via` is refused by it as a ban
    emu.fail("POST", r"^/channels/1/messages$", 503, times=2)
    emu.fail("POST", r"^/channels/1/messages$", 429, via=False)
    inter = await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    assert "✅" in emu.reply_text(inter)  # the move is stored; the caller is told
    await emu.wait_for(lambda: len(emu.public_messages(1)) == before + 1, timeout=10)
    assert [r.status for r in posts(emu)[-4:]] == [503, 503, 429, 200]
    assert "\n• Alice" in emu.public_messages(1)[-1]["text"]


async def test_a_long_rate_limit_does_not_hold_the_command_and_the_post_follows(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    before = len(emu.public_messages(1))
    emu.fail("POST", r"^/channels/1/messages$", 429, retry_after=600)
    inter = await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    assert inter.callback is not None and "✅" in emu.reply_text(inter)  # answered without waiting 600 s
    await emu.wait_for(lambda: len(emu.public_messages(1)) == before + 1, timeout=10)
    assert [r.status for r in posts(emu)[-2:]] == [429, 200]


async def test_reminders_are_delivered_and_one_failing_channel_never_blocks_another(harness, emu):
    emu.add_channel(2, "second")
    await open_game(harness, emu, 1001, 1002, channel=1)
    await open_game(harness, emu, 1003, 1002, channel=2)
    emu.fail("POST", r"^/channels/1/messages$", 503, times=3)
    harness.clock.advance(13 * HOUR)
    harness.bot.dispatcher.wake()
    reminder_2 = await emu.wait_for(lambda: [m for m in emu.public_messages(2) if "Reminder" in m["text"]])
    assert reminder_2[0]["pinged"]["users"] == [1003]
    assert not [m for m in emu.public_messages(1) if "Reminder" in m["text"]]  # channel 1 still failing
    reminder_1 = await emu.wait_for(lambda: [m for m in emu.public_messages(1) if "Reminder" in m["text"]])
    assert reminder_1[0]["pinged"]["users"] == [1001]
    assert turn_buttons(reminder_1[0])  # a reminder carries the turn button too
    await outbox_empty(harness)
    assert len([m for m in emu.public_messages(1) if "Reminder" in m["text"]]) == 1


async def test_a_notice_refused_outright_for_too_long_is_given_up_and_unblocks_its_channel(emu, tmp_path, caplog):
    from tests.discord.harness import Harness

    harness = Harness(emu, tmp_path / "giveup.sqlite", images=False, give_up_after=0.3)
    await harness.start()
    try:
        await open_game(harness, emu, 1001, 1002)
        emu.fail("POST", r"^/channels/1/messages$", 400, times=10_000)  # e.g. a body Discord rejects
        # a move's public post refused outright: into the outbox, retried, then given up
        await harness.do(emu.users[1001], "play", {"action": await first_legal(harness, 1001)})
        await emu.wait_for(lambda: len([r for r in posts(emu) if r.status == 400]) >= 2)
        await outbox_empty(harness)
        assert "notice 1 for channel 1 refused" in caplog.text
        assert not harness.bot.courier.pending  # nothing was held in memory
        # a reminder notice refused outright: retried, then given up
        harness.clock.advance(13 * HOUR)
        harness.bot.dispatcher.wake()
        await emu.wait_for(lambda: any(r.status == 400 and "Reminder" in str(r.body) for r in posts(emu)))
        await outbox_empty(harness)
        assert "notice 2 for channel 1 refused" in caplog.text
        emu.faults.clear()
        harness.clock.advance(13 * HOUR)  # the next reminder goes through
        harness.bot.dispatcher.wake()
        await emu.wait_for(lambda: [m for m in emu.public_messages(1) if "Reminder 2" in m["text"]])
    finally:
        await harness.stop()


async def test_gateway_disconnect_then_resume_replays_what_was_missed(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    action = await first_legal(harness, 1001)
    await emu.drop_gateway()
    inter = await emu.slash(alice, 1, "play", {"action": action})  # sent while the bot is away
    await emu.wait_for(lambda: emu.resumes == 1 and emu.connected, timeout=15)
    await emu.finished(inter, timeout=10)
    assert "✅" in emu.reply_text(inter)
    assert emu.identifies == 1  # resumed, not re-identified
    assert ("send", "RESUMED") in emu.gateway_log
    after = await emu.finished(await emu.slash(bob, 1, "board"))
    assert after.callback is not None


async def test_restarted_bot_resumes_views_and_reminders(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(alice, "play", {"action": await first_legal(harness, 1001)})
    before_restart = emu.public_messages(1)[-1]
    emu.fail("POST", r"^/channels/1/messages$", 503, times=1000)  # the channel is down ...
    harness.clock.advance(13 * HOUR)
    harness.bot.dispatcher.wake()
    await emu.wait_for(lambda: any(r.status == 503 for r in posts(emu)))
    assert len(await harness.service.pending_notices()) == 1  # ... so the reminder waits in the outbox
    await harness.restart()
    emu.faults.clear()
    reminder = await emu.wait_for(lambda: [m for m in emu.public_messages(1) if "Reminder" in m["text"]])
    assert reminder[0]["pinged"]["users"] == [1002]
    await outbox_empty(harness)
    # the button posted before the restart still works (DynamicItem: the id carries the table and version)
    menu_inter = await harness.press_turn(bob, before_restart)
    menu = emu.original(menu_inter)
    assert offered(menu)
    await harness.pick(bob, menu, offered(menu)[0])
    assert "\n• Bob" in emu.public_messages(1)[-1]["text"]
    assert emu.identifies == 2  # a new process logs in afresh


async def test_commands_sync_to_the_dev_guild_and_the_token_never_reaches_the_logs(emu, tmp_path, caplog):
    from tests.discord.harness import Harness

    caplog.set_level(logging.DEBUG)
    harness = Harness(emu, tmp_path / "sync.sqlite", dev_guild=True)
    await harness.start()
    try:
        await harness.do(emu.users[1001], "game new", {"game": "rising-cultures"})
    finally:
        await harness.stop()
    synced = emu.commands[str(emu.guild_id)]
    names = {c["name"] for c in synced}
    assert {"game", "play", "board", "hand", "log", "undo", "resign", "rules", "settings", "stats"} <= names
    game = next(c for c in synced if c["name"] == "game")
    assert {o["name"] for o in game["options"]} == {
        "new",
        "join",
        "leave",
        "start",
        "cancel",
        "status",
        "link",
        "list",
        "history",
        "export",
        "chart",
        "forget",
        "bot",
        "back",
    }
    new = next(o for o in game["options"] if o["name"] == "new")
    import engine

    assert [c["value"] for c in new["options"][0]["choices"]] == list(engine.GAMES)
    play = next(c for c in synced if c["name"] == "play")
    assert play["options"][0]["autocomplete"] is True
    # server channels and threads only, but for the two that span every server (issue 27 §2-§3):
    # `/away` and `/games mine` also in a direct message with the bot
    assert {c["name"]: c.get("contexts") for c in synced if c.get("contexts") != [0]} == {
        "away": [0, 1],
        "games": [0, 1],
    }
    assert emu.routes("PUT", rf"^/applications/{emu.app_id}/guilds/{emu.guild_id}/commands$")
    assert not emu.routes("PUT", rf"^/applications/{emu.app_id}/commands$")
    assert emu.heartbeats >= 1
    assert TOKEN not in caplog.text and "SECRET" not in caplog.text
    assert caplog.records  # the logs were captured at all


async def test_without_a_dev_guild_commands_sync_globally(emu, tmp_path):
    from tests.discord.harness import Harness

    harness = Harness(emu, tmp_path / "global.sqlite", dev_guild=False)
    await harness.start()
    await harness.stop()
    assert emu.routes("PUT", rf"^/applications/{emu.app_id}/commands$")
    assert "play" in {c["name"] for c in emu.commands["global"]}


async def test_a_refused_command_sync_is_logged_and_the_bot_still_serves(emu, tmp_path, caplog):
    from tests.discord.harness import Harness

    emu.fail("PUT", rf"^/applications/{emu.app_id}/guilds/", 403)
    harness = Harness(emu, tmp_path / "nosync.sqlite", images=False)
    await harness.start()
    try:
        assert "cannot sync the slash commands" in caplog.text
        emu.commands[str(emu.guild_id)] = [{"id": "1", "name": "game"}]  # synced on an earlier start
        inter = await harness.do(emu.users[1001], "game new", {"game": "rising-cultures"})
        assert "opened" in emu.public_messages(1)[-1]["text"], emu.reply_text(inter)
    finally:
        await harness.stop()


async def test_reminders_go_by_dm_to_who_opted_in_and_closed_dms_are_told_once(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(alice, "settings", {"dm": True})
    harness.clock.advance(13 * HOUR)
    harness.bot.dispatcher.wake()
    dm = await emu.wait_for(lambda: emu.channel_messages(500_000 + 1001))
    assert "Reminder 1" in dm[0]["text"]
    assert [m for m in emu.public_messages(1) if "Reminder 1" in m["text"]]  # and in the channel
    emu.close_dms(1001)
    for count in (2, 3):
        harness.clock.advance(13 * HOUR)
        harness.bot.dispatcher.wake()
        await emu.wait_for(lambda count=count: [m for m in emu.public_messages(1) if f"Reminder {count}" in m["text"]])
        await outbox_empty(harness)
    nudges = [m for m in emu.public_messages(1) if "could not send you a direct message" in m["text"]]
    assert len(nudges) == 1 and nudges[0]["pinged"]["users"] == [1001]
