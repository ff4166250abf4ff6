"""Game records on Discord (issue 17): the final post carries the board and the score chart,
`/game history`, `/stats` and `/game export` answer the caller alone (the export as an
attached file), `/game chart` is posted, `/game new export:` forks an attached export and
`/game forget` is for server admins."""

from __future__ import annotations

import json
import random

import engine
from tests.discord.emulator import Upload, gallery

GAME = "rising-cultures"


async def played_to_the_last_move(harness, emu, channel: int = 1):
    """A Rising Cultures game between Alice and Bob, played through the service up to its
    last move, which is made by /play: returns the final public message."""
    service, guild = harness.service, emu.guild_id
    names = {1001: "Alice", 1002: "Bob"}

    async def say(user, line):
        reply = await service.handle(channel, user, names[user], line, guild=guild)
        assert not reply.error, reply.text
        return reply

    await say(1001, f"game new {GAME}")
    await say(1002, "game join")
    await say(1001, "game start fixed")
    game = engine.GAMES[GAME]
    rng = random.Random(2)
    while True:
        rec, state = await service.tables.position(channel)
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        action = rng.choice(game.legal_actions(state, seat))
        if game.is_over(game.apply(state, seat, action).state):
            await harness.do(emu.users[user], "play", {"action": action}, channel=channel)
            return emu.public_messages(channel)[-1]
        await say(user, "play " + action)


def final_caller(final: dict) -> int:
    """Who made the last move (they read their answer; everyone else is pinged)."""
    return 1001 if 1001 not in final["pinged"]["users"] else 1002


async def test_the_final_post_carries_the_board_and_the_score_chart(harness, emu):
    final = await played_to_the_last_move(harness, emu)
    assert "Game over" in final["text"]
    board, chart = final["attachments"]
    assert board["filename"].endswith("board.png") and chart["filename"] == "rising-cultures-1-scores.png"
    assert chart["description"].startswith("Score chart, Rising Cultures: every player's score after each round")
    assert "round 7: " in chart["description"] and len(chart["description"]) <= 1024
    assert [f.data[:4] for f in final["files"]] == [b"\x89PNG", b"\x89PNG"]
    assert gallery(final) == [board["filename"], chart["filename"]]  # both shown in the post
    # issue 26 §2: the end pings every player and gives the standings, each with its score pad
    assert set(final["pinged"]["users"]) | {final_caller(final)} == {1001, 1002}
    assert "Final standings:\n1. " in final["text"] and "Buildings and leaders" in final["text"]
    assert "Provinces" in final["text"] and "Winner: " in final["text"]

    history = await harness.do(emu.users[1002], "game history")
    assert history.ephemeral and "#1 Rising Cultures: finished" in emu.reply_text(history)
    stats = await harness.do(emu.users[1002], "stats", {"player": emu.users[1001]})
    assert stats.ephemeral and "Statistics of Alice on this server" in emu.reply_text(stats)
    assert "Rising Cultures: 1 game" in emu.reply_text(stats)
    top = await harness.do(emu.users[1002], "stats", {"game": GAME, "top": True})
    assert "Rising Cultures leaderboard" in emu.reply_text(top) and "Not ranked yet" in emu.reply_text(top)

    posted = len(emu.public_messages(1))
    exported = await harness.do(emu.users[1002], "game export")
    assert exported.ephemeral and "epochs replay" in emu.reply_text(exported)
    (file,) = emu.original(exported)["files"]
    assert file.filename == "epochs-rising-cultures-1.json" and json.loads(file.data)["status"] == "finished"
    assert len(emu.public_messages(1)) == posted  # answered to the caller alone

    shown = await harness.do(emu.users[1001], "game chart")
    post = emu.public_messages(1)[-1]
    assert "How game #1 (Rising Cultures) went over the whole game" in post["text"], emu.reply_text(shown)
    assert [a["filename"] for a in post["attachments"]] == ["rising-cultures-1-scores.png"]

    # a fork of the export, attached to /game new, in another channel
    emu.add_channel(2, "what-if")
    middle = json.loads(file.data)["actions"][20]["seq"]
    forked = await harness.do(
        emu.users[1002], "game new", {"export": Upload("game.json", file.data), "at": middle}, channel=2
    )
    opened = emu.public_messages(2)[-1]["text"]
    assert f"forked from game #1 at step {middle}" in opened, emu.reply_text(forked)
    await harness.do(emu.users[1001], "game join", channel=2)
    await harness.do(emu.users[1002], "game start", channel=2)
    assert "Forked from game #1" in emu.public_messages(2)[-1]["text"]

    refused = await harness.do(emu.users[1001], "game forget", {"id": 1})
    assert refused.ephemeral and "Only a server admin" in emu.reply_text(refused)
    gone = await harness.do(emu.users[1004], "game forget", {"id": 1})
    assert "deleted game #1" in emu.reply_text(gone)
    assert "No ended games" in emu.reply_text(await harness.do(emu.users[1002], "game history"))


async def test_an_attachment_that_is_no_export_is_refused_to_the_caller(text_harness, emu):
    reply = await text_harness.do(emu.users[1001], "game new", {"export": Upload("notes.txt", b"hello"), "at": 3})
    assert reply.ephemeral and "not JSON" in emu.reply_text(reply)
    assert emu.public_messages(1) == []
