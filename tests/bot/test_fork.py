"""`game new from=<export> at=<N>` (issue 17 §2): a new table from a position of an exported
game, with the same players or new ones; its log starts with the copied steps, so replay,
undo and the repair of a damaged snapshot work as on any table."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

import engine
from bot.storage.base import Change
from engine.core import slug

from .conftest import CHANNEL, GAMES
from .played import document, exported

OTHER = CHANNEL + 1


async def finished_race(table) -> bytes:
    """A Fake Race (seed 7, pile 8) played to its end; its export."""
    await table.ok(1, "game new fake-race seed=7 pile=8")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    for user, line in (
        (1, "play take 2"),
        (2, "play take 1"),
        (2, "undo"),
        (2, "play roll"),
        (1, "play take 2"),
        (2, "play take 2"),
        (1, "play take 2"),
    ):
        await table.ok(user, line)
    return (await table.ok(1, "game export")).files[0].data


async def fork(table, data: bytes, line: str, user: int = 1, **kw):
    return await table.say(user, line, channel=OTHER, files={"game.json": data}, **kw)


async def test_a_fork_with_the_same_players_starts_from_the_position_and_plays_on(table):
    data = await finished_race(table)
    opened = await fork(table, data, "game new from=game.json at=4")
    assert not opened.error, opened.text
    assert "forked from game #1 at step 4 (3 steps copied)" in opened.text and "ann (A), bob (B)" in opened.text
    assert "Open practice game (forked from an exported game" in opened.text
    await table.ok(2, "game join", channel=OTHER)
    start = await table.ok(1, "game start", channel=OTHER)  # seats by name, not shuffled
    assert "Seats: ann (A), bob (B)." in start.text and "Forked from game #1 at step 4" in start.text
    assert "Open practice game (a fork)" in start.text and "roll" not in start.text  # copied steps are not told again
    rec = await table.storage.open_table(OTHER)
    rows = await table.storage.actions(rec.id)
    assert [(r.seq, r.action, r.via) for r in rows] == [
        (1, "take 2", "fork"),
        (3, "roll", "fork"),
        (4, "take 2", "fork"),
    ]  # #2 was undone
    original = await table.storage.actions(1)
    assert [r.events for r in rows] == [original[i].events for i in (0, 2, 3)] and rows[0].time == original[0].time
    # the same position: bob to act, the pile and ann's score as after step 4
    game = GAMES["fake-race"]
    state = await table.service.tables.state(rec)
    assert game.view(state, None)["pile"] == 4 and game.scores(state)[0] == 4 and game.to_act(state) == [1]
    # a copied line is nobody's to take back; moves after the fork are
    await table.refused(2, "undo", channel=OTHER, contains="no action to take back")
    await table.ok(2, "play take 1", channel=OTHER)
    await table.ok(2, "undo", channel=OTHER)
    await table.ok(2, "play take 2", channel=OTHER)
    assert [r.seq for r in await table.storage.actions(rec.id)][-2:] == [5, 6]  # sequence numbers go on
    assert game.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]
    # a damaged snapshot is rebuilt from the log, copied lines included
    rec = await table.storage.open_table(OTHER)
    await table.storage.commit(rec, Change(snapshot="{ damaged", bump=False), table.clock.now)
    table.service.tables.forget(rec.id)
    board = await table.ok(2, "board", channel=OTHER)
    assert "move 6" in board.text
    while (await table.storage.open_table(OTHER)) is not None:
        rec, state = await table.service.tables.position(OTHER)
        seat = game.to_act(state)[0]
        await table.ok(rec.user_at(seat).user, "play take 1", channel=OTHER)
    assert "#2 Fake Race [open practice game]: finished" in (await table.ok(1, "games history")).text
    again = (await table.ok(1, "game export", channel=OTHER)).files[0].data
    assert json.loads(again)["fork"] == {"from": 1, "at": 4}


async def test_a_fork_with_new_players_gives_matching_names_their_seats(table):
    data = await finished_race(table)
    await fork(table, data, "game new from=game.json at=4", user=3)
    await table.ok(2, "game join", channel=OTHER)  # bob keeps his seat 1
    start = await table.ok(3, "game start", channel=OTHER)  # cy takes the free seat 0
    assert "Seats: cy (A), bob (B)." in start.text
    rec = await table.storage.open_table(OTHER)
    assert "cy took 2" in (await table.storage.actions(rec.id))[0].events[0]  # told again with the new names
    # damaged bookkeeping is rebuilt from the log, and the copied lines keep it a practice game
    conn = sqlite3.connect(table.path)
    conn.execute("UPDATE games SET meta = 'not json' WHERE id = ?", (rec.id,))
    conn.commit()
    conn.close()
    assert "Open practice game (forked" in (await table.ok(2, "game status", channel=OTHER)).text


async def test_fork_refusals_say_what_is_wrong_and_open_nothing(table):
    data = await finished_race(table)
    for line, files, message in [
        ("game new from=game.json", {"game.json": data}, "From which step? `at=<step>`"),
        ("game new from=game.json at=99", {"game.json": data}, "to `at=6`, where the export's log ends"),
        ("game new from=game.json at=6", {"game.json": data}, "At step 6 the game is over"),
        ("game new from=game.json at=-1", {"game.json": data}, "`at=` is a step number"),
        ("game new from=game.json at=2 seed=5", {"game.json": data}, "the seed and the options come from the export"),
        ("game new mosaic from=game.json at=2", {"game.json": data}, "The export is of Fake Race, not Mosaic"),
        ("game new from=other.json at=2", {"game.json": data}, "needs the exported game as a file"),
        ("game new from=game.json at=2", {"game.json": b"{}"}, "not an Epochs export"),
        (
            "game new from=game.json at=4",
            {"game.json": data.replace(b'"action": "roll"', b'"action": "take 5"')},
            "does not replay",
        ),
    ]:
        reply = await table.say(1, line, channel=OTHER, files=files)
        assert reply.error and message in reply.text, (line, reply.text)
    public = json.loads(data)
    public["seed"], public["public"] = None, True
    reply = await table.say(1, "game new from=game.json at=2", channel=OTHER, files={"game.json": json.dumps(public)})
    assert reply.error and "holds no seed" in reply.text
    assert await table.storage.open_table(OTHER) is None
    await fork(table, data, "game new from=game.json at=2")
    await table.ok(2, "game join", channel=OTHER)
    await table.ok(3, "game join", channel=OTHER)
    await table.refused(1, "game start", channel=OTHER, contains="This position has 2 seats (ann and bob); 3 joined")


@pytest.mark.parametrize("game_id", list(engine.GAMES))
async def test_every_game_forks_midway_with_new_players(table, game_id):
    """Action strings never name a player, so a position rebuilds with other names."""
    data = await exported(game_id)
    doc = document(data)
    at = doc["actions"][len(doc["actions"]) // 2]["seq"]
    users = list(range(11, 11 + len(doc["seats"])))
    reply = await table.say(users[0], f"game new from=game.json at={at}", files={"game.json": data})
    assert not reply.error, reply.text
    for user in users[1:]:
        await table.ok(user, "game join")
    await table.ok(users[0], "game start")
    rec, state = await table.state()
    game = engine.GAMES[game_id]
    assert [s.name for s in rec.players] == [f"u{u}" for u in users]
    copied = [r for r in await table.storage.actions(rec.id) if r.via == "fork"]
    live = [a for a in doc["actions"] if a["seq"] <= at and not a["undone"]]
    assert [r.seq for r in copied] == [a["seq"] for a in live]
    # an action naming a player (Cradle's `pass <player>`) names the player now on that seat
    words = dict(zip([slug(s["name"]) for s in doc["seats"]], [f"u{u}" for u in users], strict=True))
    assert [r.action for r in copied] == [" ".join(words.get(w, w) for w in a["action"].split()) for a in live]
    if game_id == "cradle":
        assert any(r.action.startswith("pass u") for r in copied)
    original = game.setup([s["name"] for s in doc["seats"]], doc["seed"], doc["options"] or None)
    for a in doc["actions"]:
        if a["seq"] <= at and not a["undone"]:
            original = game.apply(original, a["seat"], a["action"]).state
    assert all(game.legal_actions(state, s) == game.legal_actions(original, s) for s in range(len(users)))
    rng = random.Random(1)
    for _ in range(3):  # and it plays on
        rec, state = await table.state()
        if rec is None:
            break
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        await table.ok(user, "play " + rng.choice(await table.service.legal_actions_for(CHANNEL, user)))
    rec = await table.storage.latest_table(CHANNEL)
    assert game.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]
    assert (await table.storage.table(rec.id)).meta["practice"]["fork"] == doc["table"]


async def test_at_the_terminal_an_export_is_written_to_a_file_and_forked_from_its_path(table, tmp_path):
    from bot.local import Terminal

    out: list[str] = []
    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    await terminal.run_script(
        [
            "ann game new fake-race seed=7 pile=4",
            "bob game join",
            "ann game start fixed",
            "ann take 2",
            "bob take 1",
            "ann take 1",
            "ann game export",
        ]
    )
    saved = tmp_path / "img" / "epochs-fake-race-1.json"
    assert f"[file: {saved.resolve()}]" in out
    out.clear()
    other = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=OTHER)
    refused = await other.run_script(
        [
            f"bob game new from={saved} at=2",
            "ann game join",
            "bob game start",
            "ann take 1",
            f"bob game new from={tmp_path / 'missing.json'} at=1",
        ]
    )
    text = "\n".join(out)
    assert refused == 1, text
    assert "forked from game #1 at step 2 (2 steps copied)" in text
    assert "Forked from game #1 at step 2" in text and "• ann took 1; " in text and "Game over" in text
    assert "! cannot read" in text
