"""Every registered game is playable through Discord: the adapter knows no game."""

from __future__ import annotations

import random

import pytest

import engine
from tests.discord.test_play import acting_users, offered, position, turn_passed

OTHER_GAMES = [g for g in engine.GAMES if g != "rising-cultures"]


@pytest.mark.parametrize("game_id", OTHER_GAMES)
async def test_first_moves_of_each_game_through_menus_and_slash_commands(text_harness, emu, game_id):
    harness = text_harness
    count = engine.GAMES[game_id].min_players
    users = [emu.add_user(3000 + i, f"Player {i}") for i in range(count)]
    await harness.do(users[0], "game new", {"game": game_id})
    for user in users[1:]:
        await harness.do(user, "game join")
    await harness.do(users[0], "game start", {"fixed": True})
    by_id = {u.id: u for u in users}
    rnd = random.Random(game_id)
    for move in range(8):
        table, game, state, seats = await position(harness)
        if table.status != "active":
            break
        acting = acting_users(table, game, state)
        latest = emu.public_messages(1)[-1]
        uid = sorted(acting)[0]
        legal = game.legal_actions(state, seats[uid])
        before = len(emu.public_messages(1))
        seen = len(await harness.storage.actions(table.id))
        if move % 2:
            await harness.do(by_id[uid], "play", {"action": rnd.choice(legal)})
        else:
            menu = emu.original(await harness.press_turn(by_id[uid], latest))
            assert offered(menu) and set(offered(menu)) <= set(legal)
            await harness.pick(by_id[uid], menu, rnd.choice(offered(menu)))
        passed, now = await turn_passed(harness, table, seats, acting, seen)
        posts = emu.public_messages(1)[before:]
        assert len(posts) == (1 if passed else 0)
        if passed:  # exactly the players who must act now and were not acting, never the one who acted
            assert set(posts[0]["pinged"]["users"]) == now - acting - {uid}, posts[0]["text"]
