"""Every registered game is playable through Discord: the adapter knows no game."""
from __future__ import annotations

import random

import pytest

import engine
from tests.discord.emulator import components
from tests.discord.test_play import acting_users, position

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
        assert set(latest["pinged"]["users"]) == acting, latest["content"]
        uid = sorted(acting)[0]
        legal = game.legal_actions(state, seats[uid])
        before = len(emu.public_messages(1))
        if move % 2:
            await harness.do(by_id[uid], "play", {"action": rnd.choice(legal)})
        else:
            menu = emu.original(await harness.press_turn(by_id[uid], latest))
            offered = [o["value"] for c in components(menu) for o in c.get("options", [])] + \
                      [c["custom_id"].split(":", 4)[4] for c in components(menu) if c.get("type") == 2]
            assert offered and set(offered) <= set(legal)
            await harness.pick(by_id[uid], menu, rnd.choice(offered))
        assert len(emu.public_messages(1)) == before + 1
