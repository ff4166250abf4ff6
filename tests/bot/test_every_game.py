"""Every game registered in engine.GAMES is playable through the service, with no
change to the bot (issue 3: "`game new rise-of-empires` must work once that engine exists")."""

from __future__ import annotations

import random

import pytest

import engine

from .conftest import CHANNEL


@pytest.mark.parametrize("game_id", list(engine.GAMES))
async def test_new_join_start_and_a_few_moves(table, game_id):
    game = engine.GAMES[game_id]
    users = list(range(1, game.min_players + 1))
    await table.ok(users[0], f"game new {game_id} seed=3")
    for user in users[1:]:
        await table.ok(user, "game join")
    start = await table.ok(users[0], "game start")
    # whoever must act first is pinged, unless it is the starter (who is reading the reply)
    assert game.title in start.text and (start.mentions or list(start.choices) == [users[0]])
    rng = random.Random(1)
    for _ in range(4):
        rec, state = await table.state()
        if rec is None:
            break
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        legal = await table.service.legal_actions_for(CHANNEL, user)
        await table.ok(user, "play " + rng.choice(legal))
    rec = await table.storage.latest_table(CHANNEL)
    assert game.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]
    board = await table.ok(users[0], "board")
    assert board.text
