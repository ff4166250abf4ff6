"""The other commands: undo (with approve/reject buttons), log, rules, settings, list; the entry point."""

from __future__ import annotations

import asyncio

from bot.discord import serve
from tests.discord.emulator import EPHEMERAL, components
from tests.discord.harness import TOKEN, board_renderer
from tests.discord.test_play import open_game, position


async def play_first(harness, uid: int) -> str:
    table, game, state, seats = await position(harness)
    action = game.legal_actions(state, seats[uid])[0]
    await harness.do(harness.emu.users[uid], "play", {"action": action})
    return action


async def test_undo_after_others_acted_is_asked_by_buttons_and_approved(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await play_first(harness, 1001)
    await play_first(harness, 1002)
    version = (await harness.table()).version
    ask = await harness.do(alice, "undo")
    request = emu.public_messages(1)[-1]
    assert "asks to take back" in request["text"], emu.reply_text(ask)
    assert request["pinged"]["users"] == [1002]
    ids = [c["custom_id"] for c in components(request)]
    assert ids == [
        f"ep:undo:{(await harness.table()).id}:{version}:approve",
        f"ep:undo:{(await harness.table()).id}:{version}:reject",
    ]
    # Alice cannot approve her own request; Bob's press takes both actions back
    own = await emu.finished(await emu.press(alice, request, ids[0]))
    assert own.ephemeral and "already approved" in emu.reply_text(own)
    assert (await harness.table()).version == version
    await emu.finished(await emu.press(bob, request, ids[0]))
    await harness.settle()
    table, game, state, seats = await position(harness)
    rows = await harness.storage.actions(table.id)
    assert [r.undone for r in rows] == [True, True]
    assert emu.public_messages(1)[-1]["pinged"]["users"]  # the rewound position names who acts
    # the request's buttons are now stale
    again = await emu.finished(await emu.press(bob, request, ids[1]))
    assert "older turn" in emu.reply_text(again) or "no undo request" in emu.reply_text(again).lower()


async def test_log_rules_settings_and_list_answer_only_the_caller(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    action = await play_first(harness, 1001)
    public_before = len(emu.public_messages(1))
    log = await harness.do(bob, "log", {"count": 5})
    assert log.callback.flags & EPHEMERAL and action in emu.reply_text(log)
    rules = await harness.do(bob, "rules", {"topic": "province"})
    assert rules.ephemeral and len(emu.reply_text(rules)) > 20
    quiet = await harness.do(bob, "settings", {"quiet": "22-7", "utc": "+2", "dm": False})
    text = emu.reply_text(quiet)
    assert "22:00" in text and "DM: off" in text and "❌" not in text
    remind = await harness.do(bob, "settings", {"reminders": "24"})
    assert "❌" in emu.reply_text(remind)  # only the creator (or an admin) sets the interval
    listed = await harness.do(bob, "game list")
    assert "Rising Cultures" in emu.reply_text(listed)
    assert len(emu.public_messages(1)) == public_before


async def test_serve_is_the_production_entry_point(emu, tmp_path):
    from bot.service import Service, Settings
    from bot.storage import open_storage

    storage = open_storage(tmp_path / "serve.sqlite")
    await storage.open()
    service = Service(storage, settings=Settings(images=False), renderer=board_renderer)
    task = asyncio.create_task(serve({"token": TOKEN, "dev_guild": emu.guild_id, "guild_ready_timeout": 0.05}, service))
    try:
        await emu.wait_for(lambda: emu.connected and emu.commands.get(str(emu.guild_id)), timeout=10)
        inter = await emu.finished(await emu.slash(emu.users[1001], 1, "game new", {"game": "rising-cultures"}))
        assert "opened" in emu.public_messages(1)[-1]["text"], emu.reply_text(inter)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await storage.close()


async def test_absent_player_reminded_then_voted_past_through_discord(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await play_first(harness, 1001)  # now Bob must act, and does not
    for count in (1, 2, 3):
        harness.clock.advance(13 * 3600)
        harness.bot.dispatcher.wake()
        await emu.wait_for(lambda count=count: [m for m in emu.public_messages(1) if f"Reminder {count}" in m["text"]])
    third = [m for m in emu.public_messages(1) if "Reminder 3" in m["text"]][0]
    assert set(third["pinged"]["users"]) == {1001, 1002}  # the absent player and the voters
    assert "vote skip" in third["text"]
    vote = await harness.do(alice, "vote", {"kind": "skip"})
    result = emu.public_messages(1)[-1]
    assert "skip" in result["text"] and "Bob" in result["text"], emu.reply_text(vote)
    table = await harness.table()
    rows = await harness.storage.actions(table.id)
    assert rows[-1].via == "skip"


async def test_run_with_a_refused_token_exits_with_a_clear_message(emu, tmp_path, caplog):
    import pytest

    from bot.discord import run
    from bot.service import Service, Settings
    from bot.storage import open_storage

    emu.fail("GET", r"^/users/@me$", 401)

    async def make_service():
        storage = open_storage(tmp_path / "run.sqlite")
        await storage.open()
        return Service(storage, settings=Settings(images=False))

    with pytest.raises(SystemExit) as stopped:
        await asyncio.to_thread(run, {"token": "refused.token.VALUE"}, make_service)
    assert stopped.value.code == 2
    assert "refused the bot token" in caplog.text and "refused.token.VALUE" not in caplog.text
